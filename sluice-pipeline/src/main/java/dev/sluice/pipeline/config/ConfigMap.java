package dev.sluice.pipeline.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * A YAML mapping read key by key. Strict: {@link #allow} rejects any key it does not list, naming
 * the nearest allowed one; duplicate keys are errors too. A key that is absent or empty ({@code
 * key:}) takes its default.
 */
final class ConfigMap {
    private final ConfigNode self;
    private final Map<String, ConfigNode> entries = new LinkedHashMap<>();
    private final Map<String, Mark> keyMarks = new LinkedHashMap<>();

    ConfigMap(ConfigNode self, MappingNode mapping) {
        this.self = self;
        for (NodeTuple pair : mapping.getValue()) {
            Mark mark = pair.getKeyNode().getStartMark().orElse(null);
            if (!(pair.getKeyNode() instanceof ScalarNode key)) {
                throw self.error(self.path, mark, "keys must be plain names");
            }
            String name = key.getValue();
            String path = child(name);
            if (entries.containsKey(name)) {
                throw self.error(path, mark, "duplicate key");
            }
            entries.put(name, new ConfigNode(path, pair.getValueNode(), self.context()));
            keyMarks.put(name, mark);
        }
    }

    private ConfigMap(ConfigNode self) {
        this.self = self;
    }

    static ConfigMap empty(ConfigNode self) {
        return new ConfigMap(self);
    }

    private String child(String key) {
        return self.path.isEmpty() ? key : self.path + "." + key;
    }

    ConfigException error(String problem) {
        return self.error(problem);
    }

    Set<String> keys() {
        return entries.keySet();
    }

    /** The node under {@code key}, even an empty one; null when absent. */
    ConfigNode node(String key) {
        return entries.get(key);
    }

    /** Every key must be one of {@code allowed}. */
    ConfigMap allow(String... allowed) {
        List<String> known = List.of(allowed);
        for (String key : entries.keySet()) {
            if (!known.contains(key)) {
                String near = Suggestions.nearest(key, known);
                throw self.error(
                        child(key),
                        keyMarks.get(key),
                        "unknown key ("
                                + (near != null
                                        ? "did you mean " + near + "?"
                                        : known.isEmpty()
                                                ? "this section takes no keys"
                                                : "expected " + String.join(", ", known))
                                + ")");
            }
        }
        return this;
    }

    /**
     * The one key present among {@code kinds} (a section such as {@code source} holds exactly one
     * of them).
     */
    String oneOf(String... kinds) {
        allow(kinds);
        if (entries.size() != 1) {
            throw error(
                    (entries.isEmpty() ? "expected one of " : "expected only one of ")
                            + String.join(", ", kinds));
        }
        return entries.keySet().iterator().next();
    }

    /** The value under {@code key}, or null when it is absent or empty. */
    ConfigNode get(String key) {
        ConfigNode n = entries.get(key);
        return n == null || n.isNull() ? null : n;
    }

    ConfigNode required(String key) {
        ConfigNode n = get(key);
        if (n == null) {
            throw self.error(child(key), keyMarks.getOrDefault(key, self.mark()), "required");
        }
        return n;
    }

    /** The mapping under {@code key}; an empty one when absent. */
    ConfigMap map(String key) {
        ConfigNode n = entries.get(key);
        return n == null ? empty(new ConfigNode(child(key), null, self.context())) : n.map();
    }

    String string(String key, String fallback) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.nonBlank();
    }

    long integer(String key, long fallback, long min, long max) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.integer(min, max);
    }

    double decimal(String key, double fallback, double min, double max) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.decimal(min, max);
    }

    boolean bool(String key, boolean fallback) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.bool();
    }

    long size(String key, long fallback, long min, long max) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.size(min, max);
    }

    Duration duration(String key, Duration fallback, Duration min) {
        ConfigNode n = get(key);
        return n == null ? fallback : n.duration(min);
    }

    /** A list of non-empty strings (a single string is a list of one); empty when absent. */
    List<String> strings(String key) {
        ConfigNode n = get(key);
        List<String> out = new ArrayList<>();
        if (n != null) {
            for (ConfigNode item : n.listOrOne()) {
                out.add(item.nonBlank());
            }
        }
        return out;
    }
}
