package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.json.JsonDecoder;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.rigs.data.EventsData;
import dev.sluice.rigs.data.EventsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JSON decoder alone on the {@code sluice load} NDJSON benchmark's events (~720 bytes, nested;
 * {@link EventsFiles#writeNdjson}): ns per record into the columns {@code ts DateTime, tenant
 * UInt32, kind String, id UInt64} plus, in mode {@code raw}, the whole line in {@code raw String}
 * (what {@code scripts/bench-load} loads), or, in mode {@code fields}, only the four fields with
 * the other keys ignored. Each JSON mode runs twice: with the fast path ({@code ndjson-raw}, {@code
 * ndjson-fields}: the byte scanner, Jackson for what it declines — here nothing) and with Jackson
 * alone ({@code ...-jackson}, {@code decode.json.fast_path: false}). TSV is the yardstick. Reports
 * per record ({@code RECORDS} per operation); {@code -prof gc} gives the bytes allocated per record
 * ({@code gc.alloc.rate.norm} / {@code RECORDS}).
 *
 * <pre>java -jar sluice-bench/target/sluice-bench.jar DecodeBench -f 1 -wi 5 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBench {
    static final int RECORDS = 4096;

    @Param({"ndjson-raw", "ndjson-raw-jackson", "ndjson-fields", "ndjson-fields-jackson", "tsv"})
    public String input;

    private Decoder decoder;
    private PolledRecords batch;
    private Target target;

    /** A row target over one reusable block. */
    static final class Target implements RowTarget {
        final Block block;

        Target(Block block) {
            this.block = block;
        }

        @Override
        public Block block() {
            return block;
        }

        @Override
        public int row() {
            return block.rows();
        }

        @Override
        public void absent(int column) {}
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException, RecordException {
        Path dir = Files.createTempDirectory("decode-bench");
        Path file = dir.resolve("events");
        Path extracted = dir.resolve("extracted");
        try {
            if (input.equals("tsv")) {
                EventsFiles.writeTsv(EventsData.generate(RECORDS, 7), file);
            } else {
                EventsFiles.writeNdjson(RECORDS, 7, file, extracted);
            }
            batch = batchOf(Files.readAllBytes(file));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(extracted);
            Files.deleteIfExists(dir);
        }
        TableSchema table;
        DecodeSpec spec;
        boolean jackson = input.endsWith("-jackson");
        switch (input.replace("-jackson", "")) {
            case "ndjson-raw" -> {
                table = table(EventsFiles.JSON_COLUMNS_DDL);
                spec =
                        new DecodeSpec(
                                Format.JSON, List.of(), false, Map.of("raw", "$"), false, ',');
            }
            case "ndjson-fields" -> {
                table = table("ts DateTime, tenant UInt32, kind String, id UInt64");
                spec = new DecodeSpec(Format.JSON, List.of(), false, Map.of(), true, ',');
            }
            case "tsv" -> {
                table = table(EventsData.COLUMNS_DDL);
                spec =
                        new DecodeSpec(
                                Format.TSV,
                                List.of("ts", "tenant", "kind", "id", "payload"),
                                false,
                                Map.of(),
                                false,
                                ',');
            }
            default -> throw new IllegalArgumentException("input " + input);
        }
        spec = spec.withJsonFastPath(!jackson);
        TargetColumns columns = DecoderFactory.targetColumns(spec, List.of(), table);
        decoder = DecoderFactory.create(spec, columns);
        target = new Target(columns.newBlock());
        if (decoder instanceof JsonDecoder json) {
            decode();
            // The arm measures the path it names: every record read by it.
            long expected = jackson ? 0 : batch.count;
            if (json.fastPath() == jackson
                    || json.fastRecords() != expected
                    || json.declinedRecords() != 0) {
                throw new IllegalStateException(
                        input
                                + ": fast path read "
                                + json.fastRecords()
                                + " of "
                                + batch.count
                                + " records, declined "
                                + json.declinedRecords());
            }
        }
    }

    /** One record per line, as the line framer would leave them. */
    static PolledRecords batchOf(byte[] lines) {
        PolledRecords b = new PolledRecords();
        b.data = lines;
        b.ensureRecordCapacity(RECORDS);
        int from = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i] == '\n') {
                b.start[b.count] = from;
                b.end[b.count] = i;
                b.count++;
                from = i + 1;
            }
        }
        return b;
    }

    static TableSchema table(String ddl) {
        List<TableSchema.Column> cols = new ArrayList<>();
        for (String def : ddl.split(",")) {
            String[] nameType = def.strip().split(" ", 2);
            cols.add(
                    new TableSchema.Column(
                            nameType[0],
                            nameType[1],
                            TypeParser.parse(nameType[1]),
                            TableSchema.DefaultKind.NONE,
                            ""));
        }
        return new TableSchema("bench", "events", cols, "Null", "", "");
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public int decode() throws RecordException {
        target.block.reset();
        for (int i = 0; i < batch.count; i++) {
            decoder.decode(batch, i, target);
        }
        return target.block.rows();
    }
}
