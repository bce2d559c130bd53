package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM and SIGINT to {@code sluice run} on an endless source: the open batches are sealed and
 * written, the positions committed, and the exit code is 0. Nothing crashed, so the table must hold
 * exactly the rows before the committed positions — once each, none missing, none beyond — and a
 * restart from those positions, drained in turn, must add exactly the rows of its own commit.
 *
 * <p>The source is the generator with {@code rows: 0} (never ends) and a rate limit: pipeline
 * thread {@code i} of {@code n} makes the rows whose number modulo {@code n} is {@code i}
 * (partition {@code gen-i-of-n}) and its committed position is the next row number it would make,
 * so the rows a commit covers are known exactly.
 */
class DrainIT {
    private static final int THREADS = 2;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    @Test
    void sigtermDrainsCommitsAndExitsZero() {
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> drainOn("TERM", 15));
    }

    @Test
    void sigintDrainsCommitsAndExitsZero() {
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> drainOn("INT", 2));
    }

    private void drainOn(String signal, int number) throws Exception {
        String url = QuickstartIT.url();
        String table = "sluice_test.resilience_drain_" + signal.toLowerCase(Locale.ROOT);
        try (NativeConnection c = NativeConnection.open(url)) {
            c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (ts DateTime, tenant UInt32, kind String, id UInt64,"
                            + " payload String) ENGINE = MergeTree ORDER BY id");
            Path checkpoints = dir.resolve("checkpoints");
            Path config = dir.resolve("pipeline.yaml");
            // Long linger and a row limit the rate never reaches within it: at the signal, each
            // thread holds an open batch of up to a few seconds' rows, which the drain must write.
            Files.writeString(
                    config,
                    """
                    pipeline:
                      name: drain-%s
                      threads: %d
                    source:
                      generator:
                        rows: 0
                        rows_per_second: 50000
                    sink:
                      clickhouse:
                        url: %s
                        table: %s
                        batch:
                          max_rows: 100000
                          linger: 3s
                        inflight_per_shard: 2
                    errors:
                      policy: fail
                    checkpoint:
                      dir: %s
                      interval: 500ms
                    admin:
                      listen: off
                    """
                            .formatted(
                                    signal.toLowerCase(Locale.ROOT),
                                    THREADS,
                                    url,
                                    table,
                                    checkpoints));
            // Twice: a drained run, then a restart from its checkpoint, drained again. The restart
            // must neither replay (the drain committed everything it wrote) nor skip a row.
            long previous = 0;
            for (int round = 1; round <= 2; round++) {
                SluiceProcess p = SluiceProcess.start(dir, Map.of(), "run", config.toString());
                processes.add(p);
                while (count(c, table) == previous) {
                    assertThat(p.waitFor(Duration.ofMillis(50)))
                            .as("an endless run ended\n%s", p.output())
                            .isNull();
                }
                assertThat(p.waitFor(Duration.ofMillis(1500))).isNull();
                p.assertReactsTo(signal, number);
                long before = count(c, table);
                double signalledAt = p.elapsed();
                p.signal(signal);
                // The drain timeout is 60 s; a drain of a few seconds of rows takes far less.
                Integer exit = p.waitFor(Duration.ofSeconds(90));
                assertThat(exit).as("sluice exits after SIG%s\n%s", signal, p.output()).isNotNull();
                double took = p.elapsed() - signalledAt;
                Map<String, Long> committed = Checkpoints.committed(checkpoints);
                long expected = 0;
                for (int i = 0; i < THREADS; i++) {
                    String partition = "gen-" + i + "-of-" + THREADS;
                    assertThat(committed).as("committed positions").containsKey(partition);
                    expected += ownedBefore(committed.get(partition), i);
                }
                List<Object> totals =
                        c.queryRows("SELECT count(), uniqExact(id) FROM " + table).get(0);
                log(
                        "round %d: SIG%s at %.1f s with %,d rows in the table; exit %d %.2f s"
                                + " later; committed %s = %,d rows; the table holds %,d rows,"
                                + " %,d distinct",
                        round,
                        signal,
                        signalledAt,
                        before,
                        exit,
                        took,
                        committed,
                        expected,
                        totals.get(0),
                        totals.get(1));
                assertThat(exit).as(p.output()).isZero();
                assertThat(p.stderr()).contains("draining: finishing in-flight batches");
                assertThat(totals).as("rows, distinct ids").containsExactly(expected, expected);
                // Exactly the rows each committed position covers: ids i, i+n, ... below it.
                for (int i = 0; i < THREADS; i++) {
                    long owned = ownedBefore(committed.get("gen-" + i + "-of-" + THREADS), i);
                    List<Object> r =
                            c.queryRows(
                                            "SELECT count(), min(id), max(id) FROM "
                                                    + table
                                                    + " WHERE id % "
                                                    + THREADS
                                                    + " = "
                                                    + i)
                                    .get(0);
                    assertThat(r)
                            .as("partition gen-%d-of-%d", i, THREADS)
                            .containsExactly(owned, (long) i, i + (owned - 1) * THREADS);
                }
                assertThat(expected)
                        .as("the open batches were written by the drain")
                        .isGreaterThan(before);
                previous = expected;
            }
            c.execute("DROP TABLE " + table); // kept only when the test fails, to look into
        }
    }

    /** How many rows below {@code position} pipeline thread {@code reader} makes. */
    private static long ownedBefore(long position, int reader) {
        return position <= reader ? 0 : (position - reader + THREADS - 1) / THREADS;
    }

    private static long count(NativeConnection c, String table) {
        return (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
    }

    private static void log(String format, Object... args) {
        System.out.println("[DrainIT] " + String.format(Locale.ROOT, format, args));
    }
}
