package dev.sluice.pipeline.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Filters and computed columns over numbers, dates and strings — comparisons, {@code and/or}, IN,
 * arithmetic, {@code concat} of {@code toString}s, date functions, {@code now()}, JSON extraction
 * from the record — evaluate without allocating per row, both column-wise over staged ranges (as
 * the runtime runs them) and row by row (as before a {@code java} transform): the evaluators and
 * the stage reuse their arrays. Bound: 16 bytes per row over 100k rows, after a warm-up.
 */
class TransformAllocationTest {
    private static final int ROWS = 100_000;
    private static final int RANGE = 1024;
    private static final long NOW = 1_700_000_000L;

    private final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static List<TransformSpec> specs() {
        Map<String, Object> computed = new LinkedHashMap<>();
        computed.put("m", "n * 2 + 1");
        computed.put("label", "concat(kind, '-', toString(n), '@', toString(toDate(ts)))");
        computed.put("later", "ts + 3600");
        computed.put("at", "now()");
        computed.put("big", "if(n > 500, 'big', multiIf(n < 10, 'tiny', 'small'))");
        computed.put("tagged", "visitParamHas(raw(), 'kind') OR coalesce(n, 0) = 3");
        return List.of(
                new TransformSpec(
                        "filter",
                        Map.of(
                                "where",
                                "n >= 0 and kind in ('kind_1', 'kind_2', 'kind_3')"
                                        + " or n % 7 != 3")),
                new TransformSpec("computed", Map.of("columns", computed)));
    }

    private record Setup(
            PolledRecords batch, Decoder decoder, List<Transform> chain, Block block) {}

    private static Setup setup() {
        String[] lines = new String[ROWS];
        for (int i = 0; i < lines.length; i++) {
            lines[i] =
                    (i % 1000)
                            + "\tkind_"
                            + (i % 20)
                            + "\t2024-01-01 00:00:"
                            + String.format("%02d", i % 60);
        }
        PolledRecords batch = DecodeFixture.batch(lines);
        DecodeSpec spec = DecodeFixture.spec(Format.TSV);
        List<TransformSpec> specs = specs();
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec,
                        specs,
                        DecodeFixture.table(
                                "n UInt32, kind String, ts DateTime, m Int64, label String,"
                                        + " later DateTime, at DateTime, big String, tagged UInt8"));
        return new Setup(
                batch,
                DecoderFactory.create(spec, specs, target),
                Transforms.create(specs, target),
                target.newBlock());
    }

    /** A row target whose row index the test sets. */
    private static RowTarget target(Block block, int[] row) {
        return new RowTarget() {
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

    @Test
    void columnWiseOverStagedRangesAllocatesNothingPerRow() throws RecordException {
        Setup s = setup();
        TransformChain chain = TransformChain.of(s.chain());
        ExpressionStage stage = chain.stage();
        assertThat(stage).isNotNull();
        int[] row = new int[1];
        RowTarget t = target(s.block(), row);
        int[] records = new int[RANGE];
        long before = 0;
        int kept = 0;
        for (int round = 0; round < 8; round++) {
            if (round == 7) {
                before = mx.getThreadAllocatedBytes(Thread.currentThread().threadId());
            }
            s.block().reset();
            kept = 0;
            int staged = 0;
            for (int i = 0; i < s.batch().count; i++) {
                row[0] = kept + staged;
                s.decoder().decode(s.batch(), i, t);
                records[staged++] = i;
                if (staged == RANGE || i == s.batch().count - 1) {
                    kept += stage.run(s.block(), kept, staged, s.batch(), records, NOW).kept();
                    staged = 0;
                }
            }
        }
        double perRow =
                (mx.getThreadAllocatedBytes(Thread.currentThread().threadId()) - before)
                        / (double) ROWS;
        assertThat(s.block().rows()).isEqualTo(kept);
        assertThat(kept).isBetween(80_000, 99_999);
        assertThat(s.block().column("label").getString(0)).isEqualTo("kind_0-0@2024-01-01");
        assertThat(perRow).isLessThan(16);
    }

    @Test
    void rowByRowAllocatesNothingPerRow() throws RecordException {
        Setup s = setup();
        // An array, not the list: a for-each over a List may allocate an iterator per row.
        Transform[] chain = s.chain().toArray(new Transform[0]);
        int[] row = new int[1];
        RowTarget t = target(s.block(), row);
        long before = 0;
        int kept = 0;
        for (int round = 0; round < 8; round++) {
            if (round == 7) {
                before = mx.getThreadAllocatedBytes(Thread.currentThread().threadId());
            }
            s.block().reset();
            kept = 0;
            for (int i = 0; i < s.batch().count; i++) {
                row[0] = kept;
                s.decoder().decode(s.batch(), i, t);
                boolean keep = true;
                for (Transform x : chain) {
                    if (!((ExpressionTransform) x).applyRow(t, s.batch(), i, NOW)) {
                        keep = false;
                        break;
                    }
                }
                if (keep) {
                    kept++;
                } else {
                    s.block().truncate(kept);
                }
            }
        }
        double perRow =
                (mx.getThreadAllocatedBytes(Thread.currentThread().threadId()) - before)
                        / (double) ROWS;
        assertThat(s.block().rows()).isEqualTo(kept);
        assertThat(kept).isBetween(80_000, 99_999);
        assertThat(perRow).isLessThan(16);
    }
}
