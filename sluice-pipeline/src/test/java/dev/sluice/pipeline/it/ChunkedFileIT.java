package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.errors.FileDeadLetters;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One file split into chunks decoded on three pipeline threads, into the real server: every row
 * arrives once with its values (read back and compared value by value), the file's committed
 * position is its end, and a record rejected in a later chunk is dead-lettered with its exact byte
 * position and line — for CSV with quoted newlines, TSV and NDJSON.
 */
@Timeout(300)
class ChunkedFileIT {
    private static final int READERS = 3;
    private static final int ROWS = 60_000;
    private static final long SPLIT_BYTES = 256 * 1024;

    @TempDir Path dir;

    /** Row k's text: quotes, a delimiter, a tab and — every seventh row — a newline. */
    private static String text(int k) {
        return "v" + k + (k % 7 == 0 ? " two\nlines" : "") + (k % 5 == 0 ? " \"q\", x" : "");
    }

    /** The row the bad record stands in for is left out: it is dead-lettered. */
    private static final int BAD = ROWS * 5 / 6;

    @Test
    void csvWithQuotedNewlines() throws Exception {
        load(Format.CSV, k -> k + ",\"" + text(k).replace("\"", "\"\"") + "\"", "oops,\"bad\"");
    }

    @Test
    void tsv() throws Exception {
        load(
                Format.TSV,
                k -> k + "\t" + text(k).replace("\n", "\\n").replace("\t", "\\t"),
                "oops\tbad");
    }

    @Test
    void ndjson() throws Exception {
        load(
                Format.JSON,
                k ->
                        "{\"n\":"
                                + k
                                + ",\"s\":\""
                                + text(k).replace("\"", "\\\"").replace("\n", "\\n")
                                + "\"}",
                "{\"n\":\"oops\",\"s\":\"bad\"}");
    }

    private interface Row {
        String line(int k);
    }

    private void load(Format format, Row row, String bad) throws Exception {
        Path file = dir.resolve("in." + format.name().toLowerCase());
        long badPosition = -1;
        long badLine = -1;
        long lines = 1;
        long bytes = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int k = 0; k < ROWS; k++) {
                String line = k == BAD ? bad : row.line(k);
                if (k == BAD) {
                    badPosition = bytes;
                    badLine = lines;
                }
                w.write(line);
                w.write(k % 3 == 0 ? "\r\n" : "\n");
                bytes += line.getBytes(StandardCharsets.UTF_8).length + (k % 3 == 0 ? 2 : 1);
                lines += 1 + line.chars().filter(c -> c == '\n').count();
            }
        }
        assertThat(Files.size(file)).isEqualTo(bytes).isGreaterThan(READERS * SPLIT_BYTES);

        String table = TestServer.newTable("chunked_" + format.name().toLowerCase());
        TestServer.execute(
                "CREATE TABLE " + table + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n");
        Path deadLetters = dir.resolve("dead.ndjson");
        PipelineSpec spec = spec(table, file, format, deadLetters);
        List<Source> sources = new ArrayList<>();
        Pipeline p = Pipeline.start(spec, factories(spec, sources), Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();
        // Every thread read a chunk: the file was split, and nothing was read twice.
        assertThat(sources).hasSize(READERS);
        assertThat(sources).allSatisfy(s -> assertThat(s.bytesRead()).isPositive());
        assertThat(sources.stream().mapToLong(Source::bytesRead).sum()).isEqualTo(bytes);

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(r.stats().recordsDeadLettered()).isEqualTo(1);
        assertThat(r.committed()).containsEntry(file.toAbsolutePath().toString(), bytes);
        assertThat(r.stats().rowsWritten()).isEqualTo(ROWS - 1);

        List<List<Object>> rows;
        try (NativeConnection c = TestServer.connect()) {
            rows = c.queryRows("SELECT n, s FROM " + table + " ORDER BY n");
        }
        List<List<Object>> expected = new ArrayList<>();
        for (int k = 0; k < ROWS; k++) {
            if (k != BAD) {
                expected.add(List.of((long) k, text(k)));
            }
        }
        assertThat(rows).hasSize(expected.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected.get(i));
        }

        List<String> letters = Files.readAllLines(deadLetters);
        assertThat(letters).hasSize(1);
        JsonNode letter = new ObjectMapper().readTree(letters.get(0));
        assertThat(letter.get("partition").asText()).isEqualTo(file.toAbsolutePath().toString());
        assertThat(letter.get("position").asLong()).isEqualTo(badPosition);
        assertThat(letter.get("line").asLong()).isEqualTo(badLine);
        assertThat(letter.get("record").asText()).isEqualTo(bad);
        TestServer.execute("DROP TABLE " + table);
    }

    private static PipelineSpec spec(String table, Path file, Format format, Path deadLetters) {
        return new PipelineSpec(
                "chunked-it",
                READERS,
                new PipelineSpec.FileSource(List.of(file.toString()), false, 1 << 20),
                new PipelineSpec.DecodeSpec(
                        format,
                        List.of(),
                        false,
                        Map.of(),
                        false,
                        format == Format.TSV ? '\t' : ','),
                List.of(),
                new PipelineSpec.SinkSpec(
                        List.of(new ShardSpec(List.of(TestServer.url()), 1)),
                        table,
                        new PipelineSpec.BatchSpec(7_000, 64 << 20, Duration.ofSeconds(1)),
                        2,
                        "lz4",
                        false,
                        Map.of(),
                        new PipelineSpec.RetrySpec(
                                Duration.ofMillis(20), Duration.ofMillis(500), 2.0, 0.2, 0)),
                new PipelineSpec.ErrorsSpec(ErrorPolicy.DEAD_LETTER, deadLetters, -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), null),
                new PipelineSpec.AdminSpec(null));
    }

    /** Sources (kept in {@code sources}) split the file; decoding as the CLI does. */
    private static Factories factories(PipelineSpec spec, List<Source> sources) {
        return new Factories() {
            private DeadLetters letters;

            @Override
            public synchronized Source source(int reader, int readers, LocalCheckpoints checkpoints)
                    throws IOException {
                if (sources.isEmpty()) {
                    sources.addAll(
                            SourceFactory.files(
                                    (PipelineSpec.FileSource) spec.source(),
                                    spec.decode(),
                                    readers,
                                    checkpoints,
                                    Clock.SYSTEM,
                                    SPLIT_BYTES));
                }
                return sources.get(reader);
            }

            @Override
            public TargetColumns targetColumns(TableSchema table) {
                return DecoderFactory.targetColumns(spec, table);
            }

            @Override
            public Decoder decoder(TargetColumns columns) {
                return DecoderFactory.create(spec, columns);
            }

            @Override
            public List<Transform> transforms(TargetColumns columns) {
                return List.of();
            }

            @Override
            public synchronized DeadLetters deadLetters() throws IOException {
                if (letters == null) {
                    letters = FileDeadLetters.open(spec.errors().deadLetterPath());
                }
                return letters;
            }
        };
    }
}
