package dev.sluice.pipeline.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * One YAML value at a known path, converted on request to the type the key needs. Scalars are
 * interpolated ({@link Interpolation}) before conversion, so {@code threads: ${THREADS:-4}} is an
 * integer; every failure is a {@link ConfigException} naming the path.
 */
final class ConfigNode {
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9][0-9_]*");
    private static final Pattern FLOAT =
            Pattern.compile("[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

    final String path;
    private final Node node;
    private final Context context;

    /** What every node of one document shares: its name for messages and the environment. */
    record Context(String source, Function<String, String> env) {}

    ConfigNode(String path, Node node, Context context) {
        this.path = path;
        this.node = node;
        this.context = context;
    }

    ConfigException error(String problem) {
        return error(path, mark(), problem);
    }

    /** Where the value starts in the document (null for a section that is absent). */
    Mark mark() {
        return node == null ? null : node.getStartMark().orElse(null);
    }

    ConfigException error(String atPath, Mark mark, String problem) {
        String location = context.source();
        if (mark != null) {
            location += ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1);
        }
        return new ConfigException(location, atPath, problem);
    }

    boolean isScalar() {
        return node instanceof ScalarNode && !isNull();
    }

    boolean isNull() {
        return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL);
    }

    String kind() {
        return switch (node) {
            case MappingNode m -> "a mapping";
            case SequenceNode s -> "a list";
            default -> isNull() ? "nothing" : "a value";
        };
    }

    /** The scalar's text, with environment variables substituted. */
    String text() {
        if (!(node instanceof ScalarNode scalar) || isNull()) {
            throw error("expected a value, got " + kind());
        }
        try {
            return Interpolation.apply(scalar.getValue(), context.env());
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    String nonBlank() {
        String t = text();
        if (t.isBlank()) {
            throw error("must not be empty");
        }
        return t;
    }

    long integer(long min, long max) {
        String t = text().trim();
        long value;
        try {
            if (!INTEGER.matcher(t).matches()) {
                throw new NumberFormatException();
            }
            value = Long.parseLong(t.replace("_", "").replace("+", ""));
        } catch (NumberFormatException e) {
            throw error("expected an integer, got '" + t + "'");
        }
        return inRange(value, min, max, Long.toString(value));
    }

    double decimal(double min, double max) {
        String t = text().trim();
        double value;
        try {
            value = Double.parseDouble(t.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error("expected a number, got '" + t + "'");
        }
        if (!(value >= min && value <= max)) {
            throw error("must be between " + min + " and " + max + ", got " + t);
        }
        return value;
    }

    boolean bool() {
        String t = text().trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "true" -> true;
            case "false" -> false;
            default -> throw error("expected true or false, got '" + t + "'");
        };
    }

    long size(long min, long max) {
        long value;
        try {
            value = Units.parseSize(text());
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
        return inRange(value, min, max, text().trim());
    }

    Duration duration(Duration min) {
        Duration value;
        try {
            value = Units.parseDuration(text());
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
        if (value.compareTo(min) < 0) {
            throw error("must be at least " + min.toMillis() + "ms, got " + text().trim());
        }
        return value;
    }

    private long inRange(long value, long min, long max, String shown) {
        if (value < min || value > max) {
            throw error(
                    max == Long.MAX_VALUE
                            ? "must be at least " + min + ", got " + shown
                            : "must be between " + min + " and " + max + ", got " + shown);
        }
        return value;
    }

    ConfigMap map() {
        if (node instanceof MappingNode m) {
            return new ConfigMap(this, m);
        }
        if (isNull()) {
            return ConfigMap.empty(this);
        }
        throw error("expected a mapping (key: value), got " + kind());
    }

    List<ConfigNode> list() {
        if (!(node instanceof SequenceNode seq)) {
            throw error("expected a list, got " + kind());
        }
        List<ConfigNode> items = new ArrayList<>();
        for (Node n : seq.getValue()) {
            items.add(new ConfigNode(path + "[" + items.size() + "]", n, context));
        }
        return items;
    }

    /** A list, or a single value standing for a list of one. */
    List<ConfigNode> listOrOne() {
        return node instanceof SequenceNode ? list() : List.of(this);
    }

    /** The value as plain Java — String, Long, Double, Boolean, List, Map — for opaque options. */
    Object plain() {
        return switch (node) {
            case MappingNode m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                ConfigMap map = new ConfigMap(this, m);
                for (String key : map.keys()) {
                    out.put(key, map.node(key).plain());
                }
                yield Collections.unmodifiableMap(out);
            }
            case SequenceNode s -> {
                List<Object> out = new ArrayList<>();
                for (ConfigNode item : list()) {
                    out.add(item.plain());
                }
                yield Collections.unmodifiableList(out);
            }
            default -> scalar();
        };
    }

    private Object scalar() {
        String t = text();
        if (((ScalarNode) node).getScalarStyle() != ScalarStyle.PLAIN) {
            return t;
        }
        if (t.equals("true") || t.equals("false")) {
            return Boolean.valueOf(t);
        }
        if (INTEGER.matcher(t).matches()) {
            try {
                return Long.parseLong(t.replace("_", "").replace("+", ""));
            } catch (NumberFormatException e) {
                return t;
            }
        }
        if (FLOAT.matcher(t).matches()) {
            return Double.parseDouble(t.replace("_", ""));
        }
        return t;
    }

    Context context() {
        return context;
    }
}
