package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.transform.ExpressionStage;
import dev.sluice.pipeline.transform.TransformChain;
import dev.sluice.pipeline.transform.Transforms;
import dev.sluice.rigs.data.EventsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
 * Decoding plus the expression transforms, per record, on the NDJSON events of the load benchmark
 * ({@link EventsFiles#writeNdjson}, ~720 bytes), as the runtime runs them: decoded rows are staged
 * and the transforms run column-wise over ranges of 1,024 ({@link ExpressionStage}, ADR 0010).
 * {@code none} decodes only (subtract it to get the transforms' cost), {@code filter} keeps part of
 * the rows, {@code computed} adds four columns, {@code json} extracts a field of the raw record,
 * {@code both} filters then computes.
 *
 * <pre>java -jar sluice-bench/target/sluice-bench.jar TransformBench -f 1 -wi 5 -i 5 -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TransformBench {
    static final int RECORDS = DecodeBench.RECORDS;
    static final int RANGE = 1024;
    static final long NOW = 1_700_000_000L;

    static final String FILTER =
            "tenant % 10 != 3 and kind in ('page_view', 'click', 'search', 'purchase')";

    @Param({"none", "filter", "computed", "json", "both"})
    public String scenario;

    private Decoder decoder;
    private TransformChain chain;
    private ExpressionStage stage;
    private final int[] staged = new int[RANGE];
    private PolledRecords batch;
    private Block block;
    private final int[] row = new int[1];
    private RowTarget target;

    /**
     * Every record decoded once, for {@link #transformOnly}; computed columns are {@code produced}.
     */
    private Block decoded;

    private RowTarget decodedTarget;
    private int[] produced;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path dir = Files.createTempDirectory("transform-bench");
        Path file = dir.resolve("events");
        Path extracted = dir.resolve("extracted");
        try {
            EventsFiles.writeNdjson(RECORDS, 7, file, extracted);
            batch = DecodeBench.batchOf(Files.readAllBytes(file));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(extracted);
            Files.deleteIfExists(dir);
        }
        List<TransformSpec> specs = specs(scenario);
        DecodeSpec spec = new DecodeSpec(Format.JSON, List.of(), false, Map.of(), true, ',');
        TargetColumns columns =
                DecoderFactory.targetColumns(
                        spec,
                        specs,
                        DecodeBench.table(
                                "ts DateTime, tenant UInt32, kind String, id UInt64, day Date,"
                                        + " label String, bucket UInt64, later DateTime,"
                                        + " plan String"));
        decoder = DecoderFactory.create(spec, specs, columns);
        chain = TransformChain.of(Transforms.create(specs, columns));
        stage = chain.stage();
        block = columns.newBlock();
        target =
                new RowTarget() {
                    @Override
                    public Block block() {
                        return block;
                    }

                    @Override
                    public int row() {
                        return row[0];
                    }

                    @Override
                    public void absent(int column) {}
                };
    }

    static List<TransformSpec> specs(String scenario) {
        Map<String, Object> computed = new LinkedHashMap<>();
        computed.put("day", "toDate(ts)");
        computed.put("label", "concat(kind, '-', toString(tenant))");
        computed.put("bucket", "id % 100");
        computed.put("later", "ts + 3600");
        TransformSpec filter = new TransformSpec("filter", Map.of("where", FILTER));
        TransformSpec columns = new TransformSpec("computed", Map.of("columns", computed));
        TransformSpec json =
                new TransformSpec(
                        "computed", Map.of("columns", Map.of("plan", "json(raw(), '/user/plan')")));
        return switch (scenario) {
            case "none" -> List.of();
            case "filter" -> List.of(filter);
            case "computed" -> List.of(columns);
            case "json" -> List.of(json);
            case "both" -> List.of(filter, columns);
            default -> throw new IllegalArgumentException("scenario " + scenario);
        };
    }

    /** Decodes every record, staging the rows, and runs the transforms over each range. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public int decodeAndTransform() throws RecordException {
        block.reset();
        int kept = 0;
        int count = 0;
        for (int i = 0; i < batch.count; i++) {
            row[0] = kept + count;
            decoder.decode(batch, i, target);
            if (stage == null) {
                kept++;
                continue;
            }
            staged[count++] = i;
            if (count == RANGE) {
                kept += stage.run(block, kept, count, batch, staged, NOW).kept();
                count = 0;
            }
        }
        if (count > 0) {
            kept += stage.run(block, kept, count, batch, staged, NOW).kept();
        }
        return kept;
    }
}
