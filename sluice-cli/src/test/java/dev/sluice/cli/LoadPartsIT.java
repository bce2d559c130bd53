package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice load} of a file makes as few parts as clickhouse-client would: INSERTs of 1,048,576
 * rows, sealed by size and not by a linger (docs/pipeline.md, "Batch sizes"). The parts the INSERTs
 * wrote are the table's level-0 parts, active or already merged away (a merged part stays in {@code
 * system.parts}, inactive, for {@code old_parts_lifetime}).
 */
class LoadPartsIT {
    private static final int ROWS = 2_500_000; // 1,048,576 + 1,048,576 + 402,848

    @TempDir Path dir;

    @Test
    void aFileLoadWritesOnePartPerMillionRowsAsClickhouseClientDoes() throws Exception {
        Path input = dir.resolve("rows.tsv");
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int i = 0; i < ROWS; i++) {
                w.write(Integer.toString(i));
                w.write("\tv");
                w.write(Integer.toString(i % 1000));
                w.write('\n');
            }
        }
        String table = "sluice_test.load_parts";
        try (NativeConnection c = TestServer.connect()) {
            c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt32, v String) ENGINE = MergeTree ORDER BY id");
            SluiceCli.Result r =
                    SluiceCli.run(
                            dir,
                            Map.of("CLICKHOUSE_URL", TestServer.url()),
                            null,
                            "load",
                            input.toString(),
                            "--into",
                            table,
                            "--format",
                            "tsv",
                            "--columns",
                            "id,v",
                            // one reader: a file split over threads seals batches per chunk
                            "--threads",
                            "1");
            assertThat(r.exitCode()).as(r.output()).isZero();
            assertThat(r.stdout())
                    .as(r.output())
                    .contains("2,500,000 rows written")
                    .contains("in 3 batches of 833,333 rows on average");
            List<Object> totals =
                    c.queryRows(
                                    "SELECT count(), uniqExact(id), min(id), max(id),"
                                            + " sum(cityHash64(id, v)) FROM "
                                            + table)
                            .get(0);
            List<Object> expected =
                    c.queryRows(
                                    "SELECT count(), uniqExact(id), min(id), max(id),"
                                            + " sum(cityHash64(id, v)) FROM (SELECT toUInt32(number)"
                                            + " AS id, concat('v', toString(number % 1000)) AS v"
                                            + " FROM numbers("
                                            + ROWS
                                            + "))")
                            .get(0);
            assertThat(totals).isEqualTo(expected);
            List<List<Object>> parts =
                    c.queryRows(
                            "SELECT rows FROM system.parts WHERE database = 'sluice_test' AND table"
                                    + " = 'load_parts' AND level = 0 ORDER BY rows DESC");
            assertThat(parts)
                    .as("the INSERTs' parts")
                    .containsExactly(List.of(1_048_576L), List.of(1_048_576L), List.of(402_848L));
            c.execute("DROP TABLE " + table);
        }
    }
}
