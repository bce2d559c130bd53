package dev.sluice.pipeline.decode.json;

import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which columns read which places of a JSON record, shared by the readers of {@link JsonDecoder}:
 * the tree of the configured paths, the column that keeps the whole record, and what a top-level
 * key no column reads means.
 */
final class FieldTree {
    final PathNode root = new PathNode();
    final ColumnSlot[] fed;

    /** The column that reads the whole record ({@code $}), or null. */
    final ColumnSlot raw;

    private final FieldResolver resolver;
    private final Map<String, String> pathOfColumn = new HashMap<>();

    /**
     * @param paths each fed column's path ({@link JsonPath} spec), in the order of {@code fed}
     */
    FieldTree(List<ColumnSlot> fed, List<String> paths, FieldResolver resolver) {
        this.fed = fed.toArray(new ColumnSlot[0]);
        this.resolver = resolver;
        ColumnSlot whole = null;
        for (int i = 0; i < this.fed.length; i++) {
            ColumnSlot s = this.fed[i];
            String spec = paths.get(i);
            pathOfColumn.put(s.name, spec);
            List<String> segments = JsonPath.parse(spec);
            if (segments.isEmpty()) {
                if (whole != null) {
                    throw new IllegalArgumentException(
                            "columns " + whole.name + " and " + s.name + " both read the record");
                }
                whole = s;
                continue;
            }
            PathNode n = root;
            for (String seg : segments) {
                n = n.child(seg);
            }
            if (n.slot != null) {
                throw new IllegalArgumentException(
                        "columns "
                                + n.slot.name
                                + " and "
                                + s.name
                                + " both read "
                                + spec
                                + "; read it into one and compute the other with a transform");
            }
            n.slot = s;
        }
        this.raw = whole;
        // Dropped top-level keys are read past like keys under a mapped path: a node that leads
        // nowhere (a column's own key wins, as in unknown()).
        PathNode nowhere = new PathNode();
        Map<String, PathNode> dropped = new HashMap<>();
        for (String name : resolver.rules().drops()) {
            dropped.put(name, nowhere);
        }
        root.seal(dropped);
    }

    /** True when every top-level key no column reads is skipped, whatever its name. */
    boolean skipsUnknown() {
        // A column that keeps the whole record keeps the keys no other column reads.
        return raw != null || resolver.ignoreUnknown();
    }

    /** The error for top-level key {@code name}, which no column reads; null when it is skipped. */
    RecordException unknown(String name) {
        if (skipsUnknown() || resolver.rules().drops().contains(name)) {
            return null;
        }
        String reads = pathOfColumn.get(resolver.rules().columnFor(name));
        if (reads != null) {
            return RecordException.ofField(
                    name,
                    "column "
                            + resolver.rules().columnFor(name)
                            + " reads "
                            + reads
                            + ", not this key (ignore_unknown skips such fields)");
        }
        return RecordException.ofField(name, resolver.whyUnknown(name));
    }
}
