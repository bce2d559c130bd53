package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The {@code sluice run} processes of one consumer group in the Kafka resilience ITs: each is a run
 * — numbered from 1 in start order, passed as {@code SLUICE_RUN} (a {@code constant} transform can
 * put it in a column) — in a slot (its place in the layout, e.g. which replica it writes to first),
 * with an admin port of its own. The group's members are scraped every second while they live, so
 * what a run saw (rebalance callbacks, revocations, retries) is known even after a {@code kill -9}.
 */
final class GroupInstances implements AutoCloseable {
    /** One run of {@code sluice run}. */
    static final class Instance {
        final int run;
        final int slot;
        final SluiceProcess process;
        final AdminScrape admin;
        final long startedNanos;
        volatile long endedNanos = Long.MAX_VALUE;

        /** Seconds from the start to the first answer of its admin endpoint; -1 before. */
        volatile double startedAfter = -1;

        /**
         * Seconds from the start to the first scrape that showed it owning partitions; -1 before.
         */
        volatile double assignedAfter = -1;

        /** How it ended: null while running, else "kill -9", "SIGTERM", or "exited". */
        volatile String end;

        Instance(int run, int slot, SluiceProcess process, int adminPort) {
            this.run = run;
            this.slot = slot;
            this.process = process;
            this.admin = new AdminScrape(adminPort);
            this.startedNanos = System.nanoTime();
        }

        /** True when the run was alive at some point of {@code [fromNanos, toNanos]}. */
        boolean livedDuring(long fromNanos, long toNanos) {
            return startedNanos <= toNanos && endedNanos >= fromNanos;
        }

        @Override
        public String toString() {
            return "run " + run + " (slot " + slot + ", pid " + process.pid() + ")";
        }
    }

    /**
     * The runs start often (a kill, a join) on a small machine: a class-data archive kept beside
     * the jar (written by the first run that exits cleanly, used by the others) and the C1 compiler
     * alone cut the CPU of a start-up to the first assignment by two thirds (2.8 to 0.9
     * CPU-seconds), which the tests' rates (thousands of events a second) do not miss.
     */
    private static final List<String> JVM_OPTIONS =
            List.of(
                    "-XX:+AutoCreateSharedArchive",
                    "-XX:SharedArchiveFile="
                            + Path.of(System.getProperty("sluice.cli.jar", "sluice-cli.jar"))
                                    .resolveSibling("sluice-it.jsa"),
                    "-XX:TieredStopAtLevel=1");

    private final String label;
    private final Path dir;
    private final BiFunction<Integer, Integer, String> yaml;
    private final java.util.function.Consumer<String> log;
    private final List<Instance> all = new ArrayList<>();
    private final Map<Integer, Map<String, Double>> lastMetrics = new ConcurrentHashMap<>();
    private final Thread scraper;
    private volatile boolean closed;

    /**
     * @param label names the group in logs and file names
     * @param yaml the configuration of a run, from its slot and admin port
     * @param log where to say when a run started and first owned partitions
     */
    GroupInstances(
            String label,
            Path dir,
            BiFunction<Integer, Integer, String> yaml,
            java.util.function.Consumer<String> log) {
        this.label = label;
        this.log = log;
        this.dir = dir;
        this.yaml = yaml;
        this.scraper = Thread.ofPlatform().daemon().name("scrape-" + label).start(this::scrape);
    }

    String label() {
        return label;
    }

    /** Starts the next run in {@code slot}. */
    synchronized Instance start(int slot) throws IOException {
        int run = all.size() + 1;
        int port = AdminScrape.freePort();
        Path config = dir.resolve(label + "-run" + run + ".yaml");
        Files.writeString(config, yaml.apply(slot, port));
        SluiceProcess p =
                SluiceProcess.start(
                        dir,
                        Map.of("SLUICE_RUN", Integer.toString(run)),
                        JVM_OPTIONS,
                        "run",
                        config.toString());
        Instance i = new Instance(run, slot, p, port);
        all.add(i);
        return i;
    }

    /**
     * Waits until every live run has started — its admin endpoint answers, which it does once the
     * pipeline checked its target and runs — so that an outage the test causes next is not one of
     * start-up (where {@code sluice run} stops, saying the target does not answer).
     */
    void awaitStarted(Duration timeout) throws IOException, InterruptedException {
        for (Instance i : live()) {
            awaitStarted(i, timeout);
        }
    }

    /** Waits until {@code i} has started (see {@link #awaitStarted(Duration)}). */
    void awaitStarted(Instance i, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (i.startedAfter < 0 && scrapeNow(i) == null) {
            assertRunning();
            assertThat(System.nanoTime() - deadline)
                    .as(
                            "%s %s has not started within %s\n%s",
                            label, i, timeout, i.process.output())
                    .isNegative();
            Thread.sleep(100);
        }
    }

    /** Waits until every live run owns partitions. */
    void awaitAssigned(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Instance i : live()) {
            while (i.assignedAfter < 0) {
                assertRunning();
                assertThat(System.nanoTime() - deadline)
                        .as(
                                "%s %s owns no partitions after %s\n%s",
                                label, i, timeout, i.process.output())
                        .isNegative();
                scrapeNow(i);
                Thread.sleep(100);
            }
        }
    }

    /** {@code kill -9}; returns once the process is gone. */
    void kill(Instance i) throws InterruptedException {
        i.process.killHard();
        ended(i, "kill -9");
    }

    /** SIGTERM without waiting: the run drains, commits and leaves the group. */
    void terminate(Instance i) throws IOException, InterruptedException {
        i.process.signal("TERM");
        i.end = "SIGTERM";
    }

    /**
     * Waits for a terminated (or exiting) run to end and checks that it exited 0: drained,
     * committed, left the group.
     */
    void awaitExit(Instance i, Duration timeout) throws IOException, InterruptedException {
        Integer exit = i.process.waitFor(timeout);
        assertThat(exit)
                .as("%s %s ends within %s\n%s", label, i, timeout, i.process.output())
                .isNotNull();
        if (i.endedNanos == Long.MAX_VALUE) {
            i.endedNanos = System.nanoTime();
        }
        assertThat(exit)
                .as("exit code of %s %s after %s\n%s", label, i, i.end, i.process.output())
                .isZero();
    }

    private void ended(Instance i, String how) {
        i.endedNanos = System.nanoTime();
        i.end = how;
    }

    /** Runs not ended by a signal from the test. */
    synchronized List<Instance> live() {
        return all.stream().filter(i -> i.end == null && i.process.isAlive()).toList();
    }

    synchronized List<Instance> all() {
        return List.copyOf(all);
    }

    /** The last metrics scraped from a run (empty when none answered yet). */
    Map<String, Double> lastMetrics(Instance i) {
        return lastMetrics.getOrDefault(i.run, Map.of());
    }

    /** A metric of the last scrape of {@code i}, 0 when absent. */
    double metric(Instance i, String series) {
        return lastMetrics(i).getOrDefault(series, 0.0);
    }

    /** Scrapes {@code i} now (null when it does not answer) and keeps the answer. */
    Map<String, Double> scrapeNow(Instance i) throws InterruptedException {
        Map<String, Double> m = i.admin.scrape();
        if (m != null) {
            lastMetrics.put(i.run, m);
            if (i.startedAfter < 0) {
                i.startedAfter = i.process.elapsed();
                log.accept(
                        String.format(
                                Locale.ROOT, "%s %s started in %.1f s", label, i, i.startedAfter));
            }
            if (i.assignedAfter < 0 && m.getOrDefault("etl_source_partitions_owned", 0.0) > 0) {
                i.assignedAfter = i.process.elapsed();
                log.accept(
                        String.format(
                                Locale.ROOT,
                                "%s %s owns partitions %.1f s after its start",
                                label,
                                i,
                                i.assignedAfter));
            }
        }
        return m;
    }

    private void scrape() {
        while (!closed) {
            try {
                for (Instance i : live()) {
                    scrapeNow(i);
                }
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every run's stderr lines that say something went wrong, for the logs. */
    String problems() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Instance i : all()) {
            for (String line : i.process.stderr().split("\n")) {
                if (!line.isBlank()) {
                    sb.append(label).append(" run ").append(i.run).append(": ").append(line);
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** Fails when a run ended by itself (sluice run only ends when told to), with its output. */
    void assertRunning() throws IOException {
        for (Instance i : all()) {
            if (i.end == null && !i.process.isAlive()) {
                throw new AssertionError(
                        label + " " + i + " ended by itself\n" + i.process.output());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        scraper.interrupt();
        for (Instance i : all()) {
            i.process.close();
        }
    }
}
