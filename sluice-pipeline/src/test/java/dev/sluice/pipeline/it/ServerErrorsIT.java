package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.errors.FileDeadLetters;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server errors against the real 18.16: rows it rejects for their content (a MATERIALIZED column
 * that cannot parse them) are dead-lettered with the server's message and their position while the
 * rest is written; a batch over the INSERT's memory limit is sent in halves until they fit; a table
 * that keeps refusing INSERTs (too many parts) ends the pipeline after {@code give_up_after} with
 * one line, and is written once it accepts them again.
 */
@Timeout(300)
class ServerErrorsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    /** One partition per entry: {@code name → count, record k}. */
    private record Part(String name, long count, LongFunction<String> record) {}

    private static Factories factories(List<Part> parts, Path deadLetters) {
        return new Factories() {
            @Override
            public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
                MemorySource s = new MemorySource("mem");
                for (Part p : parts) {
                    s.partition(p.name(), p.count(), p.record());
                }
                return s;
            }

            @Override
            public Decoder decoder(TargetColumns columns) {
                return new TestDecoder(columns, List.of("n", "s"));
            }

            @Override
            public List<Transform> transforms(TargetColumns columns) {
                return List.of();
            }

            @Override
            public DeadLetters deadLetters() throws IOException {
                return FileDeadLetters.open(deadLetters);
            }
        };
    }

    private PipelineSpec spec(
            String table,
            int maxRows,
            Map<String, String> settings,
            RetrySpec retry,
            ErrorPolicy policy,
            Path checkpoints) {
        return new PipelineSpec(
                "errors-it",
                1,
                new PipelineSpec.StdinSource(1 << 20),
                new PipelineSpec.DecodeSpec(
                        PipelineSpec.Format.CSV, List.of(), false, Map.of(), false, ','),
                List.of(),
                new PipelineSpec.SinkSpec(
                        List.of(new ShardSpec(List.of(TestServer.url()), 1)),
                        table,
                        // Sealed at maxRows or the end of the input, never by linger on a slow
                        // machine: the tests name their batches' ranges.
                        new PipelineSpec.BatchSpec(maxRows, 256 << 20, Duration.ofMinutes(5)),
                        1,
                        "lz4",
                        false,
                        settings,
                        retry),
                new PipelineSpec.ErrorsSpec(policy, dir.resolve("dead.ndjson"), -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), checkpoints),
                new PipelineSpec.AdminSpec(null));
    }

    private static final RetrySpec FAST =
            new RetrySpec(Duration.ofMillis(20), Duration.ofMillis(500), 2.0, 0.2, 0);

    /** A counter's value for the series whose labels include {@code label}. */
    private static double counter(Pipeline p, String name, String label) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, p.registry().scrape());
        Matcher m =
                Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)\\} ([0-9.eE+-]+)$")
                        .matcher(out.toString(StandardCharsets.UTF_8));
        double sum = 0;
        while (m.find()) {
            if (label == null || m.group(1).contains(label)) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    // --- content -----------------------------------------------------------------------------

    /** Record k of partition {@code part}: n unique, s a number except every 997th. */
    private static String parsed(int part, long k) {
        long n = part * 1_000_000L + k;
        return n + "," + (isBad(k) ? "bad-" + k : Long.toString(k * 3));
    }

    private static boolean isBad(long k) {
        return k % 997 == 13;
    }

    @Test
    void rowsTheServerCannotParseAreDeadLetteredWithItsMessageAndTheRestIsWritten()
            throws Exception {
        String table = TestServer.newTable("errors_content");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (n UInt64, s String, v UInt32 MATERIALIZED toUInt32(s))"
                        + " ENGINE = MergeTree ORDER BY n");
        long perPart = 20_000;
        List<Part> parts =
                List.of(
                        new Part("part0", perPart, k -> parsed(0, k)),
                        new Part("part1", perPart, k -> parsed(1, k)));
        Path dlq = dir.resolve("dead.ndjson");

        Pipeline p =
                Pipeline.start(
                        spec(table, 5_000, Map.of(), FAST, ErrorPolicy.DEAD_LETTER, null),
                        factories(parts, dlq),
                        Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        // Value by value: every good record once, with the column the server computed from it.
        List<List<Object>> expected = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (int part = 0; part < 2; part++) {
            for (long k = 0; k < perPart; k++) {
                long n = part * 1_000_000L + k;
                if (isBad(k)) {
                    bad.add("part" + part + "@" + k * MemorySource.STRIDE + " " + n + " bad-" + k);
                } else {
                    expected.add(List.of(n, Long.toString(k * 3), k * 3));
                }
            }
        }
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> rows = c.queryRows("SELECT n, s, v FROM " + table + " ORDER BY n");
            assertThat(rows).hasSameSizeAs(expected);
            for (int i = 0; i < rows.size(); i++) {
                List<Object> row = rows.get(i);
                assertThat(List.of(row.get(0), row.get(1), ((Number) row.get(2)).longValue()))
                        .as("row %d", i)
                        .isEqualTo(expected.get(i));
            }
        }
        // The dead-letter file holds exactly the rejected rows, with positions and the message.
        List<String> lines = Files.readAllLines(dlq);
        List<String> letters = new ArrayList<>();
        for (String line : lines) {
            JsonNode j = JSON.readTree(line);
            assertThat(j.get("source").asText()).isEqualTo("mem");
            assertThat(j.get("reason").asText())
                    .startsWith("ClickHouse error 6")
                    .contains("Cannot parse string 'bad-");
            assertThat(j.get("line").isNull()).isTrue();
            assertThat(j.has("record")).isFalse(); // the raw record is not kept; the row is
            letters.add(
                    j.get("partition").asText()
                            + "@"
                            + j.get("position").asLong()
                            + " "
                            + j.get("row").get("n").asLong()
                            + " "
                            + j.get("row").get("s").asText());
        }
        assertThat(letters).containsExactlyInAnyOrderElementsOf(bad);
        // The counts add up: written + dead-lettered = every record.
        assertThat(r.stats().rowsWritten()).isEqualTo(expected.size());
        assertThat(r.stats().recordsDeadLettered()).isEqualTo(bad.size());
        assertThat(r.stats().rowsWritten() + r.stats().recordsDeadLettered())
                .isEqualTo(2 * perPart);
        assertThat(counter(p, "etl_sink_rows_rejected_total", null)).isEqualTo(bad.size());
        assertThat(counter(p, "etl_sink_splits_total", "reason=\"content\"")).isPositive();
        assertThat(counter(p, "etl_sink_splits_total", "reason=\"size\"")).isZero();
        assertThat(counter(p, "etl_sink_errors_total", "class=\"content\"")).isPositive();
        TestServer.execute("DROP TABLE " + table);
    }

    @Test
    void underFailARejectedRowStopsThePipelineWithTheServersMessageAndWritesNothingOfItsBatch()
            throws Exception {
        String table = TestServer.newTable("errors_content_fail");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (n UInt64, s String, v UInt8 MATERIALIZED throwIf(n = 1234))"
                        + " ENGINE = MergeTree ORDER BY n");
        List<Part> parts = List.of(new Part("p", 3_000, k -> k + ",x" + k));

        PipelineResult r =
                Pipeline.start(
                                spec(table, 1_000, Map.of(), FAST, ErrorPolicy.FAIL, null),
                                factories(parts, dir.resolve("unused.ndjson")),
                                Clock.SYSTEM)
                        .awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(r.message())
                .contains("the server rejected rows of p positions 10000..19990 (1,000 rows)")
                .contains("ClickHouse error 395")
                .contains("throwIf")
                .contains("errors.policy dead-letter or skip")
                .contains("everything of p before position 10000 is written");
        assertThat(TestServer.single("SELECT count() FROM " + table)).isEqualTo(1_000);
        assertThat(TestServer.single("SELECT max(n) FROM " + table)).isEqualTo(999);
        TestServer.execute("DROP TABLE " + table);
    }

    // --- size --------------------------------------------------------------------------------

    private static String wide(long k) {
        return k + "," + k + "-" + "x".repeat(480 + (int) (k % 17));
    }

    @Test
    void aBatchOverTheMemoryLimitIsSentInHalvesUntilTheyFitAndEveryRowArrivesOnce()
            throws Exception {
        String table = TestServer.newTable("errors_size");
        TestServer.execute(
                "CREATE TABLE " + table + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n");
        long rows = 60_000; // ~30 MB in one batch; 18.16 refuses ~10 MB blocks at this limit
        Path checkpoints = dir.resolve("state");

        Pipeline p =
                Pipeline.start(
                        spec(
                                table,
                                (int) rows,
                                Map.of("max_memory_usage", "20000000"),
                                FAST,
                                ErrorPolicy.FAIL,
                                checkpoints),
                        factories(List.of(new Part("p", rows, ServerErrorsIT::wide)), null),
                        Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> got = c.queryRows("SELECT n, s FROM " + table + " ORDER BY n");
            assertThat(got).hasSize((int) rows);
            for (int k = 0; k < rows; k++) {
                String[] f = wide(k).split(",", 2);
                assertThat(got.get(k)).as("row %d", k).isEqualTo(List.of((long) k, f[1]));
            }
        }
        assertThat(r.stats().rowsWritten()).isEqualTo(rows);
        double splits = counter(p, "etl_sink_splits_total", "reason=\"size\"");
        assertThat(splits).isGreaterThanOrEqualTo(1);
        assertThat(counter(p, "etl_sink_errors_total", "class=\"size\"")).isEqualTo(splits);
        // Each split was recorded before its halves were sent, for a replay to split alike.
        List<String> recorded = Files.readAllLines(checkpoints.resolve("split-inserts.txt"));
        assertThat(recorded).hasSize((int) splits);
        assertThat(recorded.get(0)).endsWith("/p/0-" + (rows - 1) * MemorySource.STRIDE + "/0");
        assertThat(recorded.subList(1, recorded.size()))
                .allSatisfy(t -> assertThat(t).startsWith(recorded.get(0) + "/r"));
        TestServer.execute("DROP TABLE " + table);
    }

    // --- give_up_after -----------------------------------------------------------------------

    /** A table whose INSERTs fail with TOO_MANY_PARTS until it is merged (OPTIMIZE ... FINAL). */
    private static String refusingTable(String prefix) {
        String table = TestServer.newTable(prefix);
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n SETTINGS"
                        + " parts_to_delay_insert = 1, parts_to_throw_insert = 2,"
                        + " max_delay_to_insert = 1, max_bytes_to_merge_at_max_space_in_pool = 1");
        // INSERT ... SELECT: the server makes the rows (a Native client sends VALUES as data).
        TestServer.execute("INSERT INTO " + table + " SELECT 1000000, 'a'");
        TestServer.execute("INSERT INTO " + table + " SELECT 1000001, 'b'");
        return table;
    }

    @Test
    void aTableThatKeepsRefusingEndsThePipelineAfterGiveUpAfterWithOneClearLine() throws Exception {
        String table = refusingTable("errors_give_up");
        RetrySpec threeSeconds =
                new RetrySpec(
                        Duration.ofMillis(50),
                        Duration.ofMillis(500),
                        2.0,
                        0.2,
                        0,
                        Duration.ofSeconds(3));

        Pipeline p =
                Pipeline.start(
                        spec(table, 1_000, Map.of(), threeSeconds, ErrorPolicy.FAIL, null),
                        factories(List.of(new Part("p", 100, k -> k + ",v" + k)), null),
                        Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion(Duration.ofSeconds(60));

        assertThat(r).as("ended by give_up_after").isNotNull();
        assertThat(r.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(r.message().lines().toList()).hasSize(1);
        assertThat(r.message())
                .startsWith("gave up on p positions 0..990 (100 rows): shard 0 (")
                .containsPattern("kept failing for [3-9]\\.[0-9]s \\([0-9]+ attempts,")
                .contains("sink.clickhouse.retry.give_up_after")
                .contains("ClickHouse error 252")
                .contains("Too many parts (2)")
                .contains("check its merges")
                .contains("Merges are processing significantly slower than inserts. The server")
                .endsWith("everything of p before position 0 is written — resume from there");
        assertThat(TestServer.single("SELECT count() FROM " + table)).isEqualTo(2);
        assertThat(counter(p, "etl_sink_retries_total", "reason=\"server\"")).isPositive();
        TestServer.execute("DROP TABLE " + table);
    }

    @Test
    void aTableThatRefusesForAWhileIsWrittenOnceItAcceptsAgain() throws Exception {
        String table = refusingTable("errors_recover");
        Pipeline p =
                Pipeline.start(
                        spec(table, 1_000, Map.of(), FAST, ErrorPolicy.FAIL, null),
                        factories(List.of(new Part("p", 500, k -> k + ",v" + k)), null),
                        Clock.SYSTEM);
        while (counter(p, "etl_sink_retries_total", "reason=\"server\"") < 3) {
            assertThat(p.isDone()).as("still retrying").isFalse();
            Thread.sleep(20);
        }
        TestServer.execute("OPTIMIZE TABLE " + table + " FINAL"); // one part: INSERTs pass
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> got =
                    c.queryRows("SELECT n, s FROM " + table + " WHERE n < 1000000 ORDER BY n");
            assertThat(got).hasSize(500);
            for (int k = 0; k < 500; k++) {
                assertThat(got.get(k)).isEqualTo(List.of((long) k, "v" + k));
            }
        }
        assertThat(TestServer.single("SELECT count() FROM " + table)).isEqualTo(502);
        TestServer.execute("DROP TABLE " + table);
    }
}
