package dev.sluice.rigs.report;

import java.util.List;
import java.util.Map;

/** The charts and tables of each rig: what a reader of the saturation study expects, and more. */
final class RigSections {
    private RigSections() {}

    static final String ARENA_NOTE =
            "The generator's payloads come from an arena of 2,048 texts: low entropy, so"
                    + " compression ratios and part sizes look better than production data would.";

    static List<Section> of(String rig) {
        List<Metric> satMetrics =
                List.of(
                        Metric.ROWS_PER_S,
                        Metric.CLIENT_US_PER_ROW,
                        Metric.SERVER_US_PER_ROW,
                        Metric.WIRE_BYTES_PER_ROW,
                        Metric.CPU_BOUND_FRACTION);
        return switch (rig) {
            case "saturation" ->
                    List.of(
                            new Section(
                                    "sat-threads",
                                    rig,
                                    "Throughput vs pipeline threads, by format and transport",
                                    List.of("threads", "format", "transport"),
                                    Map.of(),
                                    "threads",
                                    List.of("format", "transport"),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "line",
                                    true,
                                    "Each point is one repetition, coloured by its limiter verdict; only sink-limited"
                                            + " points measure the sink. "
                                            + ARENA_NOTE),
                            new Section(
                                    "sat-engine",
                                    rig,
                                    "Null vs MergeTree across threads",
                                    List.of("threads", "engine"),
                                    Map.of(),
                                    "threads",
                                    List.of("engine"),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "line",
                                    true,
                                    "The storage cost shows where the server is saturated."),
                            new Section(
                                    "sat-compression",
                                    rig,
                                    "Compression",
                                    List.of("compression"),
                                    Map.of(),
                                    "compression",
                                    List.of(),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "bar",
                                    true,
                                    ARENA_NOTE),
                            new Section(
                                    "sat-shards",
                                    rig,
                                    "Writer shards",
                                    List.of("shards"),
                                    Map.of(),
                                    "shards",
                                    List.of(),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "bar",
                                    true,
                                    null),
                            new Section(
                                    "sat-batch",
                                    rig,
                                    "Rows per part vs batch cap (MergeTree)",
                                    List.of("max_rows"),
                                    Map.of("engine", "MergeTree"),
                                    "max_rows",
                                    List.of(),
                                    Metric.ROWS_PER_PART,
                                    List.of(
                                            Metric.ROWS_PER_PART,
                                            Metric.ROWS_PER_S,
                                            Metric.field("parts", "parts")),
                                    "bar",
                                    false,
                                    ARENA_NOTE),
                            new Section(
                                    "sat-async",
                                    rig,
                                    "async_insert",
                                    List.of("async_insert"),
                                    Map.of(),
                                    "async_insert",
                                    List.of(),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "bar",
                                    true,
                                    null),
                            new Section(
                                    "sat-budget",
                                    rig,
                                    "In-flight budget",
                                    List.of("budget"),
                                    Map.of(),
                                    "budget",
                                    List.of(),
                                    Metric.ROWS_PER_S,
                                    satMetrics,
                                    "bar",
                                    true,
                                    "A budget below the sizing rule makes the pipeline throttle itself (verdict"
                                            + " budget): such figures are no ceiling."));
            case "formats" ->
                    List.of(
                            new Section(
                                    "fmt-formats",
                                    rig,
                                    "Input formats × compression",
                                    List.of("format", "compression"),
                                    Map.of(),
                                    "format",
                                    List.of("compression"),
                                    Metric.ROWS_PER_S,
                                    List.of(
                                            Metric.ROWS_PER_S,
                                            Metric.extra(
                                                    "encode_us_per_row", "client encode µs/row"),
                                            Metric.CLIENT_US_PER_ROW,
                                            Metric.SERVER_US_PER_ROW,
                                            Metric.extra(
                                                    "server_query_us_per_row",
                                                    "INSERT query CPU µs/row"),
                                            Metric.WIRE_BYTES_PER_ROW),
                                    "bar",
                                    false,
                                    ARENA_NOTE),
                            new Section(
                                    "fmt-batch",
                                    rig,
                                    "Batch size (rows per INSERT)",
                                    List.of("batch", "format"),
                                    Map.of(),
                                    "batch",
                                    List.of("format"),
                                    Metric.ROWS_PER_S,
                                    List.of(
                                            Metric.ROWS_PER_S,
                                            Metric.SERVER_US_PER_ROW,
                                            Metric.extra(
                                                    "server_query_us_per_row",
                                                    "INSERT query CPU µs/row")),
                                    "line",
                                    false,
                                    null));
            case "compression" ->
                    List.of(
                            new Section(
                                    "cmp-bytes",
                                    rig,
                                    "Wire bytes per row",
                                    List.of("data", "codec"),
                                    Map.of(),
                                    "codec",
                                    List.of("data"),
                                    Metric.WIRE_BYTES_PER_ROW,
                                    List.of(
                                            Metric.WIRE_BYTES_PER_ROW,
                                            Metric.extra("ratio", "compression ratio"),
                                            Metric.ROWS_PER_S,
                                            Metric.CLIENT_US_PER_ROW,
                                            Metric.SERVER_US_PER_ROW,
                                            Metric.field("seconds", "seconds")),
                                    "bar",
                                    false,
                                    "low: the events rows with payloads from a 2,048-text arena (flatters"
                                            + " compression); high: random payloads per row; json700: 500k-row shape of"
                                            + " ~700-byte JSON events (raw column)."),
                            new Section(
                                    "cmp-rate",
                                    rig,
                                    "Rows per second",
                                    List.of("data", "codec"),
                                    Map.of(),
                                    "codec",
                                    List.of("data"),
                                    Metric.ROWS_PER_S,
                                    List.of(
                                            Metric.ROWS_PER_S,
                                            Metric.CLIENT_US_PER_ROW,
                                            Metric.SERVER_US_PER_ROW),
                                    "bar",
                                    false,
                                    null));
            case "peers" ->
                    List.of(
                            new Section(
                                    "peers",
                                    rig,
                                    "The same rows into the same table, by client",
                                    List.of("peer"),
                                    Map.of(),
                                    "peer",
                                    List.of(),
                                    Metric.ROWS_PER_S,
                                    List.of(
                                            Metric.ROWS_PER_S,
                                            Metric.CLIENT_US_PER_ROW,
                                            Metric.SERVER_US_PER_ROW,
                                            Metric.WIRE_BYTES_PER_ROW,
                                            Metric.extra("rows_landed", "rows landed")),
                                    "bar",
                                    false,
                                    "Every arm's table is checked: count() and sum(cityHash64(...)) against a"
                                            + " reference table of the same rows. An arm that lands fewer rows is"
                                            + " failed, whatever it reported. "
                                            + ARENA_NOTE));
            case "kafka" ->
                    List.of(
                            new Section(
                                    "kafka-backlog",
                                    rig,
                                    "Kafka → Sluice → ClickHouse draining a backlog, beside the same"
                                            + " records from a file",
                                    List.of("threads", "mode"),
                                    Map.of("rate", "-"),
                                    "threads",
                                    List.of("mode"),
                                    Metric.ROWS_PER_S,
                                    List.of(
                                            Metric.ROWS_PER_S,
                                            Metric.CLIENT_US_PER_ROW,
                                            Metric.SERVER_US_PER_ROW),
                                    "bar",
                                    true,
                                    "The same pipeline (threads, JSON decoder, batches, sink) into"
                                            + " the same table; only the source differs. The file"
                                            + " arm is the yardstick: the Kafka path's target is"
                                            + " ≥ 0.9× its rate."),
                            new Section(
                                    "kafka-latency",
                                    rig,
                                    "End-to-end latency at a paced rate (produce → ClickHouse ack)",
                                    List.of("threads", "rate"),
                                    Map.of("mode", "paced"),
                                    "threads",
                                    List.of(),
                                    Metric.extra("latency_p99_s", "p99 latency s"),
                                    List.of(
                                            Metric.extra("latency_p50_s", "p50 latency s"),
                                            Metric.extra("latency_p99_s", "p99 latency s"),
                                            Metric.ROWS_PER_S),
                                    "bar",
                                    true,
                                    "rate=half: half the backlog arm's median rate at the same"
                                            + " thread count in this run. Target: p99 ≤ linger +"
                                            + " 1 s."));
            default -> List.of();
        };
    }
}
