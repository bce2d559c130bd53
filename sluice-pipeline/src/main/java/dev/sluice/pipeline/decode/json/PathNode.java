package dev.sluice.pipeline.decode.json;

import dev.sluice.pipeline.decode.ColumnSlot;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A place in the JSON tree that a column reads, or that leads to one: the keys and array indexes
 * under it that matter, and the column reading it (if any).
 */
final class PathNode {
    /** Keys under this place that lead to a column, by name (the Jackson reader's lookup). */
    Map<String, PathNode> keys;

    /** The same keys by their UTF-8 bytes (the fast reader's lookup); set by {@link #seal}. */
    NameTable names;

    PathNode[] items;
    ColumnSlot slot;

    PathNode child(String segment) {
        if (keys == null) {
            keys = new HashMap<>();
        }
        PathNode n = keys.computeIfAbsent(segment, s -> new PathNode());
        if (JsonPath.isIndex(segment)) {
            int i = Integer.parseInt(segment);
            if (items == null || items.length <= i) {
                items = Arrays.copyOf(items == null ? new PathNode[0] : items, i + 1);
            }
            items[i] = n;
        }
        return n;
    }

    boolean inner() {
        return keys != null || items != null;
    }

    /** Builds the byte-keyed lookups of this node and those under it, once the tree is complete. */
    void seal(Map<String, PathNode> extra) {
        if (keys != null || !extra.isEmpty()) {
            Map<String, PathNode> all = new HashMap<>(extra);
            if (keys != null) {
                all.putAll(keys); // a column's key wins over a dropped name
                for (PathNode n : keys.values()) {
                    n.seal(Map.of());
                }
            }
            names = new NameTable(all);
        }
    }
}
