package dev.sluice.rigs;

import java.util.List;

/**
 * The parts a MergeTree table's inserts wrote: level-0 parts, active or already merged away
 * (ClickHouse keeps inactive parts for minutes), and their rows per part.
 */
public final class Parts {
    private Parts() {}

    /** Sets {@code parts} and {@code rows_per_part} of {@code r} from {@code table}. */
    public static void record(Target target, String table, BenchRecord r) {
        int dot = table.indexOf('.');
        List<Object> row =
                target.query(
                                "SELECT count(), sum(rows) FROM system.parts WHERE database = '"
                                        + table.substring(0, dot)
                                        + "' AND table = '"
                                        + table.substring(dot + 1)
                                        + "' AND level = 0")
                        .get(0);
        long parts = ((Number) row.get(0)).longValue();
        r.set("parts", parts);
        if (parts > 0) {
            r.set("rows_per_part", ((Number) row.get(1)).doubleValue() / parts);
        } else {
            r.absent("rows_per_part", "no part was written");
        }
    }
}
