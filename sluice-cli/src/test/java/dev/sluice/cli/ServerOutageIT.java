package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.PrivateServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server goes away under a running {@code sluice run} — stopped for 20 s, or frozen with
 * SIGSTOP for 30 s — and the same run, never restarted, carries on by itself and loses nothing.
 * Runs against a ClickHouse instance of its own ({@link PrivateServer}), so the shared test server
 * is never disturbed.
 *
 * <p>The input is the generator with a rate limit, so the run lasts through the outage; its ids are
 * the row numbers {@code 0..rows-1}, so "every row present" is {@code uniqExact(id) = rows, min 0,
 * max rows-1}.
 */
class ServerOutageIT {
    private static final int THREADS = 2;
    private static final int INFLIGHT_PER_SHARD = 2;
    private static final int MAX_ROWS = 20_000;

    private static PrivateServer server;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @BeforeAll
    static void startOwnServer() throws Exception {
        server = PrivateServer.start("sluice-outage-");
    }

    @AfterAll
    static void removeOwnServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    /**
     * Stopped (SIGTERM, the process exits, connections are refused) for 20 s after some batches
     * were written, then started again on the same ports: the writers' retries (every 2 s at most,
     * for ever) reconnect and the run finishes. A batch whose INSERT the stop interrupted may have
     * been written without its acknowledgement reaching sluice; its retry writes it again (18.16
     * cannot deduplicate), so duplicates are counted and bounded by the batches in flight.
     */
    @Test
    void serverStoppedFor20sMidRunResumesByItselfAndLosesNothing() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    long rows = 600_000;
                    String table = "outage_stopped";
                    createTable(table);
                    int admin = AdminScrape.freePort();
                    String url = server.url();
                    // A rate that keeps the writers busy most of the time, so that the stop is
                    // likely to interrupt an INSERT, not only idle connections.
                    SluiceProcess p =
                            start(pipeline("outage-stopped", url, table, rows, 150_000, admin, ""));
                    AdminScrape metrics = new AdminScrape(admin);
                    waitForRows(p, table, 60_000);
                    log("stopping the server at %.1f s (%,d rows in)", p.elapsed(), count(table));
                    server.stop();
                    double stoppedAt = p.elapsed();
                    Map<String, Double> seen = sleepScraping(metrics, Duration.ofSeconds(20));
                    log(
                            "restarting the server at %.1f s after %.1f s down; the run saw %.0f"
                                    + " failed inserts and %.0f retries so far",
                            p.elapsed(),
                            p.elapsed() - stoppedAt,
                            seen.getOrDefault("etl_sink_errors_total", 0.0),
                            seen.getOrDefault("etl_sink_retries_total", 0.0));
                    server.start();
                    assertThat(server.url()).as("the restarted server's URL").isEqualTo(url);
                    assertThat(p.isAlive()).as("the run outlives the outage").isTrue();
                    Map<String, Double> last = scrapeUntilExit(metrics, p);
                    Integer exit = p.waitFor(Duration.ofMinutes(2));
                    log("the run ended at %.1f s with exit code %s", p.elapsed(), exit);
                    last.forEach(
                            (series, value) -> {
                                if (series.startsWith("etl_sink_errors_total{")) {
                                    log("%s %.0f", series, value);
                                }
                            });
                    assertThat(exit).as(p.output()).isEqualTo(0);
                    assertThat(last.getOrDefault("etl_sink_retries_total", 0.0))
                            .as("retries during the outage")
                            .isPositive();

                    long duplicates = checkEveryRow(table, rows);
                    long inflight = (long) INFLIGHT_PER_SHARD * MAX_ROWS;
                    log(
                            "%,d duplicates (at most the batches in flight at the stop: %,d rows)",
                            duplicates, inflight);
                    assertThat(duplicates).isLessThanOrEqualTo(inflight);
                });
    }

    /**
     * Frozen with SIGSTOP for 30 s: the server keeps its sockets open and answers nothing, so the
     * writers block while the generator keeps producing. The in-flight bytes must stop at the
     * budget — the sources paused, {@code etl_backpressure_paused} 1, {@code
     * etl_source_records_total} flat — and everything must arrive after SIGCONT.
     *
     * <p>The sink URL's {@code read_timeout} (60 s) is longer than the freeze on purpose: the
     * writers wait the freeze out on their INSERTs instead of timing out and retrying. This keeps
     * the test about backpressure alone, and makes "nothing lost" exact — no retry, so no duplicate
     * may appear. (Retries after a failed connection are what the stopped-server test exercises.
     * With a read_timeout shorter than the freeze, an INSERT that timed out is still applied once
     * the server thaws and its retry writes the batch again: the same at-least-once case — tried by
     * hand with 5 s: every row present, plus one batch twice.)
     */
    @Test
    void serverFrozenFor30sPausesTheSourcesWithinTheBudgetAndLosesNothing() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    long rows = 1_000_000;
                    long budget = 96L << 20;
                    String table = "outage_frozen";
                    createTable(table);
                    int admin = AdminScrape.freePort();
                    // The sizing rule holds: (threads + shards × inflight) × 2 × max_bytes / high
                    // = (2 + 1 × 2) × 2 × 8 MiB / 0.8 = 80 MiB ≤ 96 MiB, so the pause is the
                    // stall's.
                    String backpressure =
                            """
                            backpressure:
                              max_inflight_bytes: 96MiB
                              high: 0.8
                              low: 0.5
                            """;
                    SluiceProcess p =
                            start(
                                    pipeline(
                                            "outage-frozen",
                                            server.url() + "?read_timeout=60s",
                                            table,
                                            rows,
                                            100_000,
                                            admin,
                                            backpressure));
                    AdminScrape metrics = new AdminScrape(admin);
                    waitForRows(p, table, 100_000);
                    log("SIGSTOP to the server at %.1f s (%,d rows in)", p.elapsed(), count(table));
                    server.suspend();
                    long frozenAt = System.nanoTime();
                    double maxInflight = 0;
                    double budgetMetric = 0;
                    double pausedAt = -1;
                    double recordsAtPause = -1;
                    double recordsLater = -1;
                    double recordsBeforeThaw = -1;
                    boolean resumedWhileFrozen = false;
                    long heapWhileFrozen = -1;
                    while (System.nanoTime() - frozenAt < 30_000_000_000L) {
                        Map<String, Double> m = metrics.scrape();
                        double t = (System.nanoTime() - frozenAt) / 1e9;
                        if (m != null) {
                            maxInflight = Math.max(maxInflight, m.get("etl_inflight_bytes"));
                            budgetMetric = m.get("etl_inflight_budget_bytes");
                            double records = m.get("etl_source_records_total");
                            boolean paused = m.get("etl_backpressure_paused") == 1.0;
                            if (paused && pausedAt < 0) {
                                pausedAt = t;
                                recordsAtPause = records;
                                log(
                                        "paused %.1f s into the freeze: %.1f MiB in flight,"
                                                + " %,.0f records read",
                                        t, m.get("etl_inflight_bytes") / (1 << 20), records);
                            } else if (!paused && pausedAt >= 0) {
                                resumedWhileFrozen = true;
                            }
                            if (pausedAt >= 0 && t - pausedAt >= 1 && recordsLater < 0) {
                                // A second on: whatever was polled before the pause is counted.
                                recordsLater = records;
                                // Loss path 6: the budget bounds real memory, pooled and
                                // pre-sized buffers included — measured, not assumed.
                                heapWhileFrozen = p.heapUsedAfterGc();
                                log(
                                        "live heap while paused: %.1f MiB (budget %d MiB)",
                                        heapWhileFrozen / (double) (1 << 20), budget >> 20);
                            }
                            recordsBeforeThaw = records;
                        }
                        Thread.sleep(100);
                    }
                    server.resume();
                    log(
                            "SIGCONT at %.1f s; during the freeze: max %.1f MiB in flight of a"
                                    + " %.0f MiB budget, records read %,.0f at the pause, %,.0f a"
                                    + " second later, %,.0f before SIGCONT",
                            p.elapsed(),
                            maxInflight / (1 << 20),
                            budgetMetric / (1 << 20),
                            recordsAtPause,
                            recordsLater,
                            recordsBeforeThaw);
                    assertThat(pausedAt).as("the sources paused during the freeze").isNotNegative();
                    assertThat(resumedWhileFrozen)
                            .as("nothing was acknowledged, so nothing may resume the sources")
                            .isFalse();
                    assertThat(budgetMetric).isEqualTo((double) budget);
                    assertThat(maxInflight).isLessThanOrEqualTo((double) budget);
                    // The budget plus a fixed overhead (the JVM's own classes and caches, the
                    // read buffer, one compression buffer per connection, the metrics): see
                    // docs/pipeline.md, "The sizing rule".
                    assertThat(heapWhileFrozen)
                            .as("live heap while paused")
                            .isPositive()
                            .isLessThanOrEqualTo(budget + (48L << 20));
                    assertThat(recordsLater).as("records read while paused").isPositive();
                    assertThat(recordsBeforeThaw)
                            .as("records read while paused")
                            .isEqualTo(recordsLater);

                    Map<String, Double> last = scrapeUntilExit(metrics, p);
                    maxInflight = Math.max(maxInflight, last.get("max_etl_inflight_bytes"));
                    Integer exit = p.waitFor(Duration.ofMinutes(2));
                    log(
                            "the run ended at %.1f s with exit code %s; max in flight over the run"
                                    + " %.1f MiB; %.0f pause events; %.0f retries",
                            p.elapsed(),
                            exit,
                            maxInflight / (1 << 20),
                            last.get("etl_backpressure_pause_events_total"),
                            last.getOrDefault("etl_sink_retries_total", 0.0));
                    assertThat(exit).as(p.output()).isEqualTo(0);
                    assertThat(maxInflight).isLessThanOrEqualTo((double) budget);
                    assertThat(last.getOrDefault("etl_sink_retries_total", 0.0)).isZero();
                    assertThat(checkEveryRow(table, rows)).as("duplicates").isZero();
                });
    }

    private SluiceProcess start(String yaml) throws Exception {
        Path config = dir.resolve("pipeline.yaml");
        Files.writeString(config, yaml);
        SluiceProcess p = SluiceProcess.start(dir, Map.of(), "run", config.toString());
        processes.add(p);
        return p;
    }

    private void waitForRows(SluiceProcess p, String table, long rows) throws Exception {
        while (count(table) < rows) {
            assertThat(p.waitFor(Duration.ofMillis(50)))
                    .as("the run ended before the outage\n%s", p.output())
                    .isNull();
        }
    }

    /** Scrapes while waiting; the last answer's values. */
    private static Map<String, Double> sleepScraping(AdminScrape metrics, Duration d)
            throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        Map<String, Double> last = Map.of();
        while (System.nanoTime() < end) {
            Map<String, Double> m = metrics.scrape();
            if (m != null) {
                last = m;
            }
            Thread.sleep(500);
        }
        return last;
    }

    /**
     * Scrapes until the process ends: the last answer, plus {@code max_etl_inflight_bytes}, the
     * largest in-flight value seen.
     */
    private static Map<String, Double> scrapeUntilExit(AdminScrape metrics, SluiceProcess p)
            throws InterruptedException {
        Map<String, Double> last = new java.util.HashMap<>();
        double max = 0;
        while (p.waitFor(Duration.ofMillis(100)) == null) {
            Map<String, Double> m = metrics.scrape();
            if (m != null) {
                last.putAll(m);
                max = Math.max(max, m.get("etl_inflight_bytes"));
            }
        }
        last.put("max_etl_inflight_bytes", max);
        return last;
    }

    /** Checks that ids 0..rows-1 are all there; returns the number of duplicates. */
    private static long checkEveryRow(String table, long rows) {
        try (NativeConnection c = NativeConnection.open(server.url())) {
            List<Object> r =
                    c.queryRows("SELECT count(), uniqExact(id), min(id), max(id) FROM " + table)
                            .get(0);
            log("table %s: %,d rows, %,d distinct ids of %,d", table, r.get(0), r.get(1), rows);
            assertThat(r.subList(1, 4)).containsExactly(rows, 0L, rows - 1);
            return (Long) r.get(0) - (Long) r.get(1);
        }
    }

    private static void createTable(String table) {
        try (NativeConnection c = NativeConnection.open(server.url())) {
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (ts DateTime, tenant UInt32, kind String, id UInt64,"
                            + " payload String) ENGINE = MergeTree ORDER BY id");
        }
    }

    private static long count(String table) {
        try (NativeConnection c = NativeConnection.open(server.url())) {
            return (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
        }
    }

    private String pipeline(
            String name,
            String url,
            String table,
            long rows,
            long rowsPerSecond,
            int adminPort,
            String extra) {
        return """
                pipeline:
                  name: %s
                  threads: %d
                source:
                  generator:
                    rows: %d
                    rows_per_second: %d
                sink:
                  clickhouse:
                    url: %s
                    table: %s
                    batch:
                      max_rows: %d
                      max_bytes: 8MiB
                      linger: 200ms
                    inflight_per_shard: %d
                    retry:
                      initial: 100ms
                      max: 2s
                      max_attempts: 0
                errors:
                  policy: fail
                checkpoint:
                  dir: %s
                  interval: 500ms
                admin:
                  listen: 127.0.0.1:%d
                %s"""
                .formatted(
                        name,
                        THREADS,
                        rows,
                        rowsPerSecond,
                        url,
                        table,
                        MAX_ROWS,
                        INFLIGHT_PER_SHARD,
                        dir.resolve("checkpoints"),
                        adminPort,
                        extra);
    }

    private static void log(String format, Object... args) {
        System.out.println("[ServerOutageIT] " + String.format(Locale.ROOT, format, args));
    }
}
