package dev.sluice.rigs.report;

import dev.sluice.rigs.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The one-line readings under each chart, generated from the data (never typed by hand). */
final class Readings {
    private Readings() {}

    static String of(SectionView v) {
        return switch (v.section.id()) {
            case "sat-threads", "sat-engine" -> ceiling(v);
            case "peers" -> peers(v);
            case "kafka-latency" -> latency(v);
            case "kafka-backlog" -> kafkaBesideFile(v);
            case "cmp-bytes" -> best(v, true);
            default -> best(v, false);
        };
    }

    /** The highest (or lowest) median of the chart metric. */
    static String best(SectionView v, boolean lowest) {
        ArmRow pick = null;
        Stats pickStats = null;
        for (ArmRow r : v.rows) {
            Stats s = r.stats(v.section.chartMetric());
            if (s != null
                    && (pickStats == null
                            || (lowest
                                    ? s.median() < pickStats.median()
                                    : s.median() > pickStats.median()))) {
                pick = r;
                pickStats = s;
            }
        }
        if (pick == null) {
            return "Nothing measured in this section.";
        }
        return String.format(
                Locale.ROOT,
                "%s %s: %s at %s (%sn=%d, spread %s).",
                lowest ? "Lowest" : "Highest",
                v.section.chartMetric().label(),
                Fmt.number(v.section.chartMetric().key(), pickStats.median()),
                v.shortLabel(pick),
                v.manyRuns ? "run " + pick.run + ", " : "",
                pickStats.n(),
                Fmt.percent(pickStats.spread()));
    }

    /**
     * The ceiling of a throughput-vs-threads chart: the best arm, its verdicts, whether an arm of
     * the same series with more threads sits below it (bracketed), and its share of the CPU bound.
     */
    static String ceiling(SectionView v) {
        List<String> series = v.seriesNames();
        if (series.size() <= 1) {
            return "Ceiling: " + ceiling(v, series.isEmpty() ? null : series.get(0));
        }
        List<String> parts = new ArrayList<>();
        for (String name : series) {
            parts.add(name + " — ceiling: " + ceiling(v, name));
        }
        return String.join(" ", parts);
    }

    /** The ceiling sentence of one series (all rows when {@code series} is null). */
    private static String ceiling(SectionView v, String series) {
        ArmRow top = null;
        Stats topStats = null;
        for (ArmRow r : v.rows) {
            if (series != null && !v.seriesName(r).equals(series)) {
                continue;
            }
            Stats s = r.stats(Metric.ROWS_PER_S);
            if (s != null && (topStats == null || s.median() > topStats.median())) {
                top = r;
                topStats = s;
            }
        }
        if (top == null) {
            return "nothing measured.";
        }
        Map<String, Integer> verdicts = top.verdicts();
        int n = top.ok().size();
        int sink = verdicts.getOrDefault("sink", 0);
        StringBuilder sb = new StringBuilder();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "%s rows/s at %s, %s in %d of %d reps",
                        Fmt.number("rows_per_s", topStats.median()),
                        v.shortLabel(top),
                        sink == n ? "sink-limited" : "sink-limited only",
                        sink,
                        n));
        sb.append("; ");
        ArmRow bracket = null;
        double topThreads = Double.parseDouble(top.axis("threads"));
        for (ArmRow r : v.rows) {
            if (r == top || !v.seriesName(r).equals(v.seriesName(top))) {
                continue;
            }
            Stats s = r.stats(Metric.ROWS_PER_S);
            if (s != null
                    && Double.parseDouble(r.axis("threads")) > topThreads
                    && s.median() < topStats.median()) {
                bracket = r;
                break;
            }
        }
        if (bracket != null) {
            Stats s = bracket.stats(Metric.ROWS_PER_S);
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "bracketed: threads=%s sits %s lower",
                            bracket.axis("threads"),
                            Fmt.percent(1 - s.median() / topStats.median())));
        } else {
            sb.append(
                    "not bracketed: no arm with more threads measured below it, so the curve may"
                            + " still rise");
        }
        Stats bound = top.stats(Metric.CPU_BOUND_FRACTION);
        if (bound != null) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "; it reaches %s of the co-located CPU bound (%s rows/s)",
                            Fmt.percent(bound.median()),
                            Fmt.number(
                                    "rows_per_s",
                                    top.stats(Metric.field("cpu_bound_rows_per_s", "")).median())));
        }
        if (sink < n) {
            sb.append(". Reps not limited by the sink do not measure it (lower bounds)");
        }
        return sb.append('.').toString();
    }

    /** Produce → acknowledgement latency of each arm, at the rate it sustained. */
    static String latency(SectionView v) {
        List<String> parts = new ArrayList<>();
        for (ArmRow r : v.rows) {
            Stats p50 = r.stats(Metric.extra("latency_p50_s", ""));
            Stats p99 = r.stats(Metric.extra("latency_p99_s", ""));
            Stats rate = r.stats(Metric.ROWS_PER_S);
            if (p50 != null && p99 != null && rate != null) {
                Double linger = seconds(r.axis("linger"));
                parts.add(
                        String.format(
                                Locale.ROOT,
                                "%s: p50 %.3f s, p99 %.3f s at %s rows/s (median of %d)%s",
                                v.shortLabel(r),
                                p50.median(),
                                p99.median(),
                                Fmt.number("rows_per_s", rate.median()),
                                p50.n(),
                                linger == null
                                        ? ""
                                        : String.format(
                                                Locale.ROOT,
                                                ", %s the target p99 ≤ linger + 1 s = %.1f s",
                                                p99.median() <= linger + 1 ? "within" : "OVER",
                                                linger + 1)));
            }
        }
        return parts.isEmpty()
                ? "Nothing measured in this section."
                : String.join("; ", parts) + ".";
    }

    /** A linger axis value ({@code 1s}, {@code 200ms}) in seconds; null when it is neither. */
    static Double seconds(String v) {
        try {
            if (v.endsWith("ms")) {
                return Double.parseDouble(v.substring(0, v.length() - 2)) / 1000;
            }
            if (v.endsWith("s")) {
                return Double.parseDouble(v.substring(0, v.length() - 1));
            }
        } catch (NumberFormatException e) {
            // not a duration
        }
        return null;
    }

    /** The Kafka path's rate as a share of the file path's, per thread count. */
    static String kafkaBesideFile(SectionView v) {
        List<String> parts = new ArrayList<>();
        for (String x : v.categories) {
            ArmRow kafka = null;
            ArmRow file = null;
            for (ArmRow r : v.rows) {
                if (r.axis(v.section.x()).equals(x)) {
                    if (r.axis("mode").equals("backlog")) {
                        kafka = r;
                    } else if (r.axis("mode").equals("file")) {
                        file = r;
                    }
                }
            }
            Stats k = kafka == null ? null : kafka.stats(Metric.ROWS_PER_S);
            Stats f = file == null ? null : file.stats(Metric.ROWS_PER_S);
            if (k != null && f != null && f.median() > 0) {
                double ratio = k.median() / f.median();
                parts.add(
                        String.format(
                                Locale.ROOT,
                                "threads=%s: Kafka %s rows/s = %.2f× the file path's %s (%s the"
                                        + " target ≥ 0.9×; verdicts %s / %s)",
                                x,
                                Fmt.number("rows_per_s", k.median()),
                                ratio,
                                Fmt.number("rows_per_s", f.median()),
                                ratio >= 0.9 ? "meets" : "BELOW",
                                String.join(",", kafka.verdicts().keySet()),
                                String.join(",", file.verdicts().keySet())));
            }
        }
        return parts.isEmpty()
                ? best(v, false) + " (no Kafka and file arms to compare)"
                : String.join("; ", parts) + ".";
    }

    /** Sluice's library against clickhouse-client and client-v2, and what failed. */
    static String peers(SectionView v) {
        List<String> parts = new ArrayList<>();
        Double sluice = median(v, "sluice-native");
        Double client = median(v, "clickhouse-client-native");
        Double v2 = median(v, "client-v2");
        if (sluice != null && client != null) {
            parts.add(
                    String.format(
                            Locale.ROOT,
                            "Sluice library (native) %.2f× clickhouse-client (Native file)",
                            sluice / client));
        }
        if (sluice != null && v2 != null) {
            parts.add(String.format(Locale.ROOT, "%.2f× client-v2", sluice / v2));
        }
        List<String> failed = new ArrayList<>();
        for (ArmRow r : v.rows) {
            if (r.status().equals("failed")) {
                failed.add(r.axis("peer"));
            }
        }
        if (!failed.isEmpty()) {
            parts.add("failed (rows missing or an error): " + String.join(", ", failed));
        }
        return parts.isEmpty() ? best(v, false) : String.join("; ", parts) + ".";
    }

    private static Double median(SectionView v, String peerPrefix) {
        Double best = null;
        for (ArmRow r : v.rows) {
            if (r.axis("peer").startsWith(peerPrefix)) {
                Stats s = r.stats(Metric.ROWS_PER_S);
                if (s != null && (best == null || s.median() > best)) {
                    best = s.median();
                }
            }
        }
        return best;
    }
}
