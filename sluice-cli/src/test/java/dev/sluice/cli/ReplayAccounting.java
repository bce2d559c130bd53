package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.kafka.GroupCheckpoints.Committed;
import dev.sluice.kafka.GroupCheckpoints.Range;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Explains every duplicate in a table that cannot deduplicate (MergeTree), written by the runs of
 * one group whose rows carry their run number. A message may be written more than once only when
 *
 * <ul>
 *   <li><b>a run was killed</b> after writing it and before committing past it: then the group's
 *       commit at the kill (read right after it, before the session expires and another member
 *       takes the partition) lists the batch it is in among the batches in flight, and the next
 *       owner replays exactly those. Each run's rows past its commits at its kill must lie in those
 *       batches (a batch reaches ClickHouse only after its boundaries are committed: ADR 0007), and
 *       no run started after the kill may write a message before those commits (property 1);
 *   <li><b>an insert was retried</b> by the same run after a server it writes to went away with the
 *       acknowledgement (a run alive during a server restart or kill);
 *   <li><b>a partition left a run with batches unacknowledged</b> — lost (the member was fenced) or
 *       revoked past {@code checkpoint.revoke_timeout} — seen in the run's metrics; its next owner
 *       replays them while the late acknowledgements are dropped.
 * </ul>
 *
 * Anything else is a duplicate the runtime had no reason to write, and fails the test.
 */
final class ReplayAccounting {
    /** A {@code kill -9} and the group's commits read right after it. */
    record Kill(
            GroupInstances.Instance instance,
            long atNanos,
            int lastRunStartedBefore,
            Map<Integer, Committed> committed) {
        Committed of(int partition) {
            return committed.getOrDefault(partition, new Committed(0, null, List.of()));
        }
    }

    /** A time a server the runs write to was away. */
    record Outage(String what, long fromNanos, long toNanos) {}

    /** The counts {@link #check} found. */
    record Result(
            long duplicates,
            long byKills,
            long byRetries,
            long byReleases,
            long replayedPastKills,
            long unexplained) {}

    private final StreamTable table;
    private final GroupInstances group;
    private final int partitions;
    private final List<Kill> kills;
    private final List<Outage> outages;

    ReplayAccounting(
            StreamTable table,
            GroupInstances group,
            int partitions,
            List<Kill> kills,
            List<Outage> outages) {
        this.table = table;
        this.group = group;
        this.partitions = partitions;
        this.kills = List.copyOf(kills);
        this.outages = List.copyOf(outages);
    }

    Result check() {
        long replayed = 0;
        for (Kill k : kills) {
            int run = k.instance().run;
            long past = table.single(count("run = " + run + " AND (" + past(k, false) + ")"));
            long unrecorded = table.single(count("run = " + run + " AND (" + past(k, true) + ")"));
            long rewritten =
                    table.single(
                            count(
                                    "run > "
                                            + k.lastRunStartedBefore()
                                            + " AND ("
                                            + committedBefore(k)
                                            + ")"));
            long inFlight =
                    k.committed().values().stream().mapToLong(c -> c.inFlightRecords()).sum();
            log(
                    "%s: kill of run %d: it wrote %,d rows past the group's commits (in flight"
                            + " there: %,d records in %d batches); outside those batches: %,d;"
                            + " written again before the commits by later runs: %,d",
                    group.label(),
                    run,
                    past,
                    inFlight,
                    k.committed().values().stream().mapToInt(c -> c.inFlight().size()).sum(),
                    unrecorded,
                    rewritten);
            assertThat(unrecorded)
                    .as(
                            "%s: rows run %d wrote past its commits outside the batches recorded"
                                    + " there (sent before their boundaries were committed)",
                            group.label(), run)
                    .isZero();
            assertThat(rewritten)
                    .as(
                            "%s: rows before the commits at the kill of run %d written again by"
                                    + " runs started later",
                            group.label(), run)
                    .isZero();
            replayed += past;
        }

        Map<Integer, List<Kill>> killsByRun = new HashMap<>();
        for (Kill k : kills) {
            killsByRun.computeIfAbsent(k.instance().run, r -> new ArrayList<>()).add(k);
        }
        Map<Integer, GroupInstances.Instance> runs = new HashMap<>();
        for (GroupInstances.Instance i : group.all()) {
            runs.put(i.run, i);
        }
        long duplicates = 0;
        long byKills = 0;
        long byRetries = 0;
        long byReleases = 0;
        long unexplained = 0;
        List<String> examples = new ArrayList<>();
        for (StreamTable.Duplicate d : table.duplicates()) {
            long extra = d.copies() - 1;
            duplicates += extra;
            long kill = 0;
            long retry = 0;
            long release = 0;
            int writers = 0;
            boolean released = false;
            for (Map.Entry<Integer, Long> e : d.copiesByRun().entrySet()) {
                int run = e.getKey();
                long copies = e.getValue();
                for (Kill k : killsByRun.getOrDefault(run, List.of())) {
                    Committed c = k.of(d.part());
                    if (copies > 0 && d.off() >= c.offset() && c.inFlight(d.off())) {
                        kill++;
                        copies--;
                    }
                }
                GroupInstances.Instance instance = runs.get(run);
                if (copies > 1 && instance != null && livedThroughOutage(instance)) {
                    retry += copies - 1;
                    copies = 1;
                }
                if (copies > 0) {
                    writers++;
                    released |= instance != null && releasedUnacknowledged(instance);
                }
            }
            if (writers > 1 && released) {
                release = writers - 1;
            }
            long explained = Math.min(extra, kill + retry + release);
            byKills += Math.min(kill, extra);
            byRetries += Math.min(retry, Math.max(0, extra - kill));
            byReleases += Math.min(release, Math.max(0, extra - kill - retry));
            if (explained < extra) {
                unexplained += extra - explained;
                if (examples.size() < 20) {
                    examples.add(
                            "partition "
                                    + d.part()
                                    + " offset "
                                    + d.off()
                                    + " copies by run "
                                    + d.copiesByRun());
                }
            }
        }
        log(
                "%s: %,d duplicates: %,d replayed after kills, %,d retried by one run through a"
                        + " server outage, %,d replayed after a partition left a run"
                        + " unacknowledged, %,d unexplained; kills left %,d rows past the commits",
                group.label(), duplicates, byKills, byRetries, byReleases, unexplained, replayed);
        assertThat(unexplained)
                .as(
                        "%s: duplicates no kill, retry or release explains, e.g.\n%s\nruns: %s",
                        group.label(), String.join("\n", examples), describeRuns())
                .isZero();
        return new Result(duplicates, byKills, byRetries, byReleases, replayed, unexplained);
    }

    private boolean livedThroughOutage(GroupInstances.Instance i) {
        return outages.stream().anyMatch(o -> i.livedDuring(o.fromNanos(), o.toNanos()));
    }

    /** A partition lost, or revoked before its batches were acknowledged, in the run's metrics. */
    private boolean releasedUnacknowledged(GroupInstances.Instance i) {
        for (Map.Entry<String, Double> m : group.lastMetrics(i).entrySet()) {
            String k = m.getKey();
            if (m.getValue() > 0
                    && (k.startsWith("etl_kafka_rebalance_events_total{")
                                    && k.contains("event=\"lost\"")
                            || k.equals("etl_source_revoke_timeouts_total"))) {
                return true;
            }
        }
        return false;
    }

    private String describeRuns() {
        return group.all().stream()
                .map(
                        i ->
                                "run "
                                        + i.run
                                        + " slot "
                                        + i.slot
                                        + " ended by "
                                        + i.end
                                        + " lost/revoke-timeouts "
                                        + releasedUnacknowledged(i))
                .collect(Collectors.joining("; "));
    }

    private String count(String where) {
        return "SELECT count() FROM " + table.name + " WHERE " + where;
    }

    /**
     * Messages at or past the commits at the kill; with {@code outsideBatches}, only those outside
     * the batches in flight there.
     */
    private String past(Kill k, boolean outsideBatches) {
        List<String> or = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Committed c = k.of(p);
            StringBuilder sb = new StringBuilder();
            sb.append("part = ").append(p).append(" AND off >= ").append(c.offset());
            if (outsideBatches) {
                sb.append(" AND NOT (0");
                for (Range r : c.inFlight()) {
                    sb.append(" OR off BETWEEN ")
                            .append(r.first())
                            .append(" AND ")
                            .append(r.last());
                }
                sb.append(')');
            }
            or.add("(" + sb + ")");
        }
        return String.join(" OR ", or);
    }

    /** Messages before the commits at the kill. */
    private String committedBefore(Kill k) {
        List<String> or = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            or.add("(part = " + p + " AND off < " + k.of(p).offset() + ")");
        }
        return String.join(" OR ", or);
    }

    private static void log(String format, Object... args) {
        System.out.println("[ReplayAccounting] " + String.format(Locale.ROOT, format, args));
    }
}
