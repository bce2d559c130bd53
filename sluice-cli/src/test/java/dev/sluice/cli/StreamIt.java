package dev.sluice.cli;

import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.kafka.GroupCheckpoints;
import dev.sluice.kafka.it.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * What the Kafka resilience ITs share: their scale (a short form for CI, the full form of the issue
 * on demand), the seed, a clock for the logs, and waiting for a group to have written and committed
 * everything.
 */
final class StreamIt {
    private final String name;
    private final long startNanos = System.nanoTime();

    StreamIt(String name) {
        this.name = name;
    }

    /**
     * The full form (1M records, 20 kills, a 60 s stall, a minute of storm) with {@code
     * -Dsluice.it.full=true} or {@code SLUICE_IT_FULL=1}; otherwise the short form CI runs.
     */
    static boolean full() {
        return Boolean.getBoolean("sluice.it.full") || "1".equals(System.getenv("SLUICE_IT_FULL"));
    }

    static <T> T scale(T shortForm, T fullForm) {
        return full() ? fullForm : shortForm;
    }

    /** The seed of the test's random choices: {@code -Dsluice.it.seed=N} repeats a run. */
    long seed() {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        log(
                "%s form, seed %d (repeat with -Dsluice.it.seed=%d%s)",
                full() ? "full" : "short", seed, seed, full() ? " -Dsluice.it.full=true" : "");
        return seed;
    }

    /** A line for the log as it is. */
    void say(String line) {
        log("%s", line);
    }

    /** Seconds since the test started. */
    double now() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    void log(String format, Object... args) {
        System.out.printf(
                Locale.ROOT,
                "[%s %7.2f s] %s%n",
                name,
                now(),
                String.format(Locale.ROOT, format, args));
    }

    /** The end offset of each partition of {@code topic}, by partition number. */
    static Map<Integer, Long> ends(String topic) {
        Map<Integer, Long> ends = new TreeMap<>();
        TestKafka.endOffsets(topic).forEach((tp, end) -> ends.put(tp.partition(), end));
        return ends;
    }

    /**
     * The group's committed offsets of {@code topic} by partition number (absent: never committed).
     */
    static Map<Integer, GroupCheckpoints.Committed> committed(
            Admin admin, String group, String topic) {
        Map<Integer, GroupCheckpoints.Committed> byPartition = new TreeMap<>();
        for (Map.Entry<TopicPartition, GroupCheckpoints.Committed> e :
                GroupCheckpoints.read(admin, group).entrySet()) {
            if (e.getKey().topic().equals(topic)) {
                byPartition.put(e.getKey().partition(), e.getValue());
            }
        }
        return byPartition;
    }

    /**
     * The group's members by the run they belong to (their {@code client.rack}, {@code run-N}:
     * {@link StreamPipelines}), each with the partitions of {@code topic} assigned to it.
     */
    static Map<String, List<Integer>> membersByRun(Admin admin, String group, String topic) {
        org.apache.kafka.clients.admin.ConsumerGroupDescription d;
        try {
            d =
                    admin.describeConsumerGroups(List.of(group))
                            .describedGroups()
                            .get(group)
                            .get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("describe group " + group + ": " + e, e);
        }
        Map<String, List<Integer>> byRun = new TreeMap<>();
        for (org.apache.kafka.clients.admin.MemberDescription m : d.members()) {
            List<Integer> parts =
                    byRun.computeIfAbsent(m.rackId().orElse("?"), k -> new ArrayList<>());
            for (TopicPartition tp : m.assignment().topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    parts.add(tp.partition());
                }
            }
            parts.sort(null);
        }
        return byRun;
    }

    /** A group name of its own for each test run (not from the seed: a repeat starts afresh). */
    static String group(String prefix) {
        return prefix
                + "-"
                + Long.toHexString(System.nanoTime() ^ System.currentTimeMillis() << 20);
    }

    /** A group, its runs and the table it writes: what "done" means for it. */
    record Target(String group, GroupInstances runs, StreamTable table) {}

    /**
     * Waits until every target's table holds every message of {@code ends} and its group has
     * committed every partition to its end with nothing in flight; fails after {@code timeout}
     * saying where each stands.
     */
    void awaitDone(
            Admin admin, String topic, Map<Integer, Long> ends, Duration timeout, Target... targets)
            throws InterruptedException, java.io.IOException {
        long total = ends.values().stream().mapToLong(Long::longValue).sum();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> pending = new ArrayList<>();
            for (Target t : targets) {
                t.runs().assertRunning();
                long distinct = t.table().distinct();
                Map<Integer, GroupCheckpoints.Committed> c = committed(admin, t.group(), topic);
                boolean committed = true;
                for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                    GroupCheckpoints.Committed cp = c.get(e.getKey());
                    committed &=
                            cp != null && cp.offset() == e.getValue() && cp.inFlight().isEmpty();
                }
                if (distinct != total || !committed) {
                    pending.add(
                            String.format(
                                    Locale.ROOT,
                                    "%s: %,d of %,d messages in %s, committed %s",
                                    t.group(),
                                    distinct,
                                    total,
                                    t.table().name,
                                    describe(c)));
                }
            }
            if (pending.isEmpty()) {
                log("every message written and committed: %,d", total);
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                StringBuilder out = new StringBuilder();
                for (Target t : targets) {
                    out.append(t.runs().problems());
                }
                throw new AssertionError(
                        "not done within "
                                + timeout
                                + ":\n"
                                + String.join("\n", pending)
                                + "\nwhat the runs said:\n"
                                + out);
            }
            Thread.sleep(250);
        }
    }

    /**
     * Waits until {@code group} has committed every partition of {@code topic} to its end with
     * nothing in flight — every message acknowledged by ClickHouse; fails after {@code timeout}.
     */
    void awaitCommitted(
            Admin admin,
            String topic,
            String group,
            GroupInstances runs,
            Map<Integer, Long> ends,
            Duration timeout)
            throws InterruptedException, java.io.IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            runs.assertRunning();
            Map<Integer, GroupCheckpoints.Committed> c = committed(admin, group, topic);
            boolean done = true;
            for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                GroupCheckpoints.Committed cp = c.get(e.getKey());
                done &= cp != null && cp.offset() == e.getValue() && cp.inFlight().isEmpty();
            }
            if (done) {
                log("%s committed every partition to its end", group);
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        group
                                + " has not committed everything within "
                                + timeout
                                + ": "
                                + describe(c)
                                + ", ends "
                                + ends
                                + "\nwhat the runs said:\n"
                                + runs.problems());
            }
            Thread.sleep(250);
        }
    }

    static String describe(Map<Integer, GroupCheckpoints.Committed> committed) {
        StringBuilder sb = new StringBuilder("{");
        committed.forEach(
                (p, c) -> {
                    if (sb.length() > 1) {
                        sb.append(", ");
                    }
                    sb.append(p).append('=').append(c.offset());
                    if (!c.inFlight().isEmpty()) {
                        sb.append('+').append(c.inFlight().size()).append("b");
                    }
                });
        return sb.append('}').toString();
    }

    /** A fresh name for a table of the cluster. */
    static String table(String prefix) {
        return TestCluster.newTable(prefix);
    }
}
