package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
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
 * Loss path 5 of the review: {@code sluice load} stopped by SIGTERM or SIGINT with input unread is
 * an unfinished load, not a success — it exits 143 or 130, names the committed position, and {@code
 * --resume} then loads the rest: every row exactly once (a drain writes and commits all it read, so
 * the resume replays nothing, even on 18.16 where nothing is deduplicated).
 *
 * <p>The signal must reach the load while it still has input to read, on a fast machine too: the
 * table's DEFAULT makes the server sleep for every INSERT it takes, and small batches with a small
 * budget keep the load from reading ahead of what was written. The resume runs at full speed (the
 * DEFAULT is changed first).
 */
class LoadInterruptIT {
    private static final long ROWS = 1_500_000;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    @Test
    void sigtermLeavesAnUnfinishedLoadThatResumeCompletesExactlyOnce() {
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> interruptAndResume("TERM", 15, 143));
    }

    @Test
    void sigintLeavesAnUnfinishedLoadThatResumeCompletesExactlyOnce() {
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> interruptAndResume("INT", 2, 130));
    }

    private void interruptAndResume(String signal, int number, int expectedExit) throws Exception {
        String url = QuickstartIT.url();
        String table = "sluice_test.load_interrupt_" + signal.toLowerCase(Locale.ROOT);
        Path input = dir.resolve("events.tsv");
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (long i = 0; i < ROWS; i++) {
                w.write(Long.toString(i));
                w.write('\t');
                w.write("value-");
                w.write(Long.toString(i * 7919 % 1_000_003));
                w.write('\n');
            }
        }
        try (NativeConnection c = NativeConnection.open(url)) {
            c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt64, v String, slow UInt8 DEFAULT sleep(0.2))"
                            + " ENGINE = MergeTree ORDER BY id");
            String[] load = {
                "load",
                input.toString(),
                "--into",
                table,
                "--format",
                "tsv",
                "--columns",
                "id,v",
                "--batch-rows",
                "10000",
                "--batch-bytes",
                "262144"
            };
            SluiceProcess first = SluiceProcess.start(dir, Map.of("CLICKHOUSE_URL", url), load);
            processes.add(first);
            while (count(c, table) == 0) {
                assertThat(first.waitFor(Duration.ofMillis(20)))
                        .as(
                                "the load ended before the signal: make the input larger\n%s",
                                first.output())
                        .isNull();
            }
            first.assertReactsTo(signal, number);
            first.signal(signal);
            Integer exit = first.waitFor(Duration.ofSeconds(90));
            long afterFirst = count(c, table);
            assertThat(exit).as(first.output()).isEqualTo(expectedExit);
            assertThat(afterFirst).as("rows written before the signal").isLessThan(ROWS);
            assertThat(first.stderr())
                    .contains("interrupted before the end of the input")
                    .contains("committed positions: " + input.toAbsolutePath() + " at byte ")
                    .contains("--resume");

            c.execute("ALTER TABLE " + table + " MODIFY COLUMN slow UInt8 DEFAULT 0");
            List<String> resume = new ArrayList<>(List.of(load));
            resume.add("--resume");
            SluiceProcess second =
                    SluiceProcess.start(
                            dir, Map.of("CLICKHOUSE_URL", url), resume.toArray(String[]::new));
            processes.add(second);
            assertThat(second.waitFor(Duration.ofSeconds(120))).as(second.output()).isZero();

            List<Object> totals =
                    c.queryRows(
                                    "SELECT count(), uniqExact(id), min(id), max(id),"
                                            + " sum(cityHash64(id, v)) FROM "
                                            + table)
                            .get(0);
            List<Object> expected =
                    c.queryRows(
                                    "SELECT count(), uniqExact(id), min(id), max(id),"
                                            + " sum(cityHash64(id, v)) FROM (SELECT number AS"
                                            + " id, concat('value-', toString(number * 7919 %"
                                            + " 1000003)) AS v FROM numbers("
                                            + ROWS
                                            + "))")
                            .get(0);
            System.out.printf(
                    Locale.ROOT,
                    "[LoadInterruptIT] SIG%s after %,d rows: exit %d; --resume: %s%n",
                    signal,
                    afterFirst,
                    exit,
                    totals);
            assertThat(totals).isEqualTo(expected);
            c.execute("DROP TABLE " + table);
        }
    }

    private static long count(NativeConnection c, String table) {
        return (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
    }
}
