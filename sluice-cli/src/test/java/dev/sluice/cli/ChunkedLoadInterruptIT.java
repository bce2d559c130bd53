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
 * {@code sluice load --threads 2} of one file big enough to be split in two chunks, stopped by
 * SIGTERM while both chunks are being written, then {@code --resume}d: every row exactly once.
 *
 * <p>Unlike an unsplit load (LoadInterruptIT), the drain leaves rows of the second chunk written
 * past the file's committed position — commits are contiguous (property 8) — so the resume reads
 * them again: their batches are re-created at the boundaries in the ledger and, on 18.16's
 * MergeTree that cannot deduplicate, looked up in the query log and not sent again.
 */
class ChunkedLoadInterruptIT {
    /** About 42 MB: two chunks of more than 16 MiB each. */
    private static final long ROWS = 2_000_000;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    @Test
    void sigtermMidLoadThenResumeWritesEveryRowOnce() {
        assertTimeoutPreemptively(Duration.ofMinutes(4), this::interruptAndResume);
    }

    private void interruptAndResume() throws Exception {
        String url = QuickstartIT.url();
        String table = "sluice_test.chunked_interrupt";
        Path input = dir.resolve("events.tsv");
        long[] offsets = new long[(int) ROWS];
        long size = 0;
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int i = 0; i < ROWS; i++) {
                String line = i + "\tvalue-" + (i * 7919L % 1_000_003) + "\n";
                offsets[i] = size;
                size += line.length();
                w.write(line);
            }
        }
        assertThat(Files.size(input)).isEqualTo(size).isGreaterThan(2 * (16L << 20));
        // Two threads, two chunks: the second starts at the first line at or after half the size.
        int firstOfSecond = 0;
        while (offsets[firstOfSecond] < size / 2) {
            firstOfSecond++;
        }
        String inSecond = "id >= " + firstOfSecond;
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
                "--threads",
                "2",
                "--batch-rows",
                "10000",
                "--batch-bytes",
                "262144"
            };
            SluiceProcess first = SluiceProcess.start(dir, Map.of("CLICKHOUSE_URL", url), load);
            processes.add(first);
            // Both chunks have rows in the table.
            while (count(c, table, "id < " + firstOfSecond) == 0
                    || count(c, table, inSecond) == 0) {
                assertThat(first.waitFor(Duration.ofMillis(20)))
                        .as("the load ended before the signal\n%s", first.output())
                        .isNull();
            }
            first.signal("TERM");
            Integer exit = first.waitFor(Duration.ofSeconds(90));
            long afterFirst = count(c, table, "1");
            long secondChunk = count(c, table, inSecond);
            assertThat(exit).as(first.output()).isEqualTo(143);
            assertThat(afterFirst).isLessThan(ROWS);
            assertThat(secondChunk).isPositive();
            assertThat(first.stderr())
                    .contains("committed positions: " + input.toAbsolutePath() + " at byte ")
                    .contains("--resume");

            c.execute("ALTER TABLE " + table + " MODIFY COLUMN slow UInt8 DEFAULT 0");
            List<String> resume = new ArrayList<>(List.of(load));
            resume.add("--resume");
            SluiceProcess second =
                    SluiceProcess.start(
                            dir, Map.of("CLICKHOUSE_URL", url), resume.toArray(String[]::new));
            processes.add(second);
            assertThat(second.waitFor(Duration.ofSeconds(150))).as(second.output()).isZero();

            String totals =
                    "SELECT count(), uniqExact(id), min(id), max(id), sum(cityHash64(id, v))";
            List<Object> actual = c.queryRows(totals + " FROM " + table).get(0);
            List<Object> expected =
                    c.queryRows(
                                    totals
                                            + " FROM (SELECT number AS id, concat('value-',"
                                            + " toString(number * 7919 % 1000003)) AS v FROM"
                                            + " numbers("
                                            + ROWS
                                            + "))")
                            .get(0);
            System.out.printf(
                    Locale.ROOT,
                    "[ChunkedLoadInterruptIT] SIGTERM after %,d rows (%,d of the second chunk);"
                            + " --resume: %s%n%s%n",
                    afterFirst,
                    secondChunk,
                    actual,
                    second.output());
            assertThat(actual).isEqualTo(expected);
            // Exactly the second chunk's rows were replayed, looked up and found written.
            assertThat(second.output())
                    .contains(
                            String.format(
                                    Locale.ROOT,
                                    "%,d rows of replayed batches were already written",
                                    secondChunk));
            c.execute("DROP TABLE " + table);
        }
    }

    private static long count(NativeConnection c, String table, String where) {
        return (Long) c.queryRows("SELECT count() FROM " + table + " WHERE " + where).get(0).get(0);
    }
}
