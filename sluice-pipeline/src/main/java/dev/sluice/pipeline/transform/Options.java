package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A transform's options, read with messages that say which transform and which key is wrong. */
final class Options {
    private final String where;
    private final Map<String, Object> map;

    Options(int position, TransformSpec spec) {
        this.where = "transforms[" + position + "]." + spec.kind();
        this.map = spec.options();
    }

    /** Rejects keys other than {@code allowed}: a typo should not silently do nothing. */
    void only(String... allowed) {
        Set<String> ok = Set.of(allowed);
        for (String k : map.keySet()) {
            if (!ok.contains(k)) {
                throw error(
                        "unknown option '" + k + "' (expected " + String.join(", ", allowed) + ")");
            }
        }
    }

    boolean has(String key) {
        return map.containsKey(key);
    }

    String string(String key) {
        Object v = map.get(key);
        if (v == null) {
            throw error("needs option '" + key + "'");
        }
        if (!(v instanceof String s)) {
            throw error("option '" + key + "' must be text, not " + v);
        }
        return s;
    }

    Object value(String key) {
        if (!map.containsKey(key)) {
            throw error("needs option '" + key + "'");
        }
        return map.get(key);
    }

    Map<String, Object> map(String key) {
        Object v = map.get(key);
        if (v == null) {
            throw error("needs option '" + key + "'");
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw error("option '" + key + "' must be a mapping, not " + v);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) m;
        return typed;
    }

    List<String> strings(String key) {
        Object v = map.get(key);
        if (v == null) {
            throw error("needs option '" + key + "'");
        }
        if (v instanceof String s) {
            return List.of(s);
        }
        if (!(v instanceof List<?> l) || !l.stream().allMatch(x -> x instanceof String)) {
            throw error("option '" + key + "' must be a list of names, not " + v);
        }
        return l.stream().map(String.class::cast).toList();
    }

    IllegalArgumentException error(String problem) {
        return new IllegalArgumentException(where + ": " + problem);
    }
}
