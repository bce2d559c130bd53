package dev.sluice.rigs.report;

import java.util.Map;
import java.util.function.Function;

/**
 * A figure the report shows, computed from one record ({@code null} when the record lacks it).
 *
 * @param key a stable name, also written into the tables' {@code data-metric} attributes
 */
public record Metric(String key, String label, Function<Map<String, Object>, Double> value) {

    /** A top-level number of the record. */
    public static Metric field(String field, String label) {
        return new Metric(field, label, r -> number(r.get(field)));
    }

    /** A number under {@code extra}. */
    public static Metric extra(String key, String label) {
        return new Metric(
                key, label, r -> r.get("extra") instanceof Map<?, ?> e ? number(e.get(key)) : null);
    }

    /** {@code field} per row, scaled (e.g. CPU seconds per row × 1e6 = µs/row). */
    public static Metric perRow(String field, String key, String label, double scale) {
        return new Metric(
                key,
                label,
                r -> {
                    Double v = number(r.get(field));
                    Double rows = number(r.get("rows"));
                    return v == null || rows == null || rows == 0 ? null : v / rows * scale;
                });
    }

    static Double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }

    public static final Metric ROWS_PER_S = field("rows_per_s", "rows/s");
    public static final Metric CLIENT_US_PER_ROW =
            perRow("client_cpu_s", "client_us_per_row", "client CPU µs/row", 1e6);
    public static final Metric SERVER_US_PER_ROW =
            perRow("server_cpu_s", "server_us_per_row", "server CPU µs/row", 1e6);
    public static final Metric WIRE_BYTES_PER_ROW =
            perRow("wire_bytes", "wire_bytes_per_row", "wire bytes/row", 1);
    public static final Metric CPU_BOUND_FRACTION = field("cpu_bound_fraction", "of CPU bound");
    public static final Metric ROWS_PER_PART = field("rows_per_part", "rows/part");
}
