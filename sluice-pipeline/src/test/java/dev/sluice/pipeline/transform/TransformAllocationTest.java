package dev.sluice.pipeline.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Computed columns and filters over numbers, dates and strings evaluate without allocating: the
 * evaluators reuse their buffers (json() and casts from text to floats are the documented
 * exceptions). Bound: 16 bytes per row over 100k rows, after a warm-up.
 */
class TransformAllocationTest {

    @Test
    void numericAndStringExpressionsAllocateNothingPerRow() throws RecordException {
        String[] lines = new String[100_000];
        for (int i = 0; i < lines.length; i++) {
            lines[i] =
                    (i % 1000)
                            + "\tkind_"
                            + (i % 20)
                            + "\t2024-01-01 00:00:"
                            + String.format("%02d", i % 60);
        }
        RecordBatch batch = DecodeFixture.batch(lines);
        DecodeSpec spec = DecodeFixture.spec(Format.TSV);
        List<TransformSpec> specs =
                List.of(
                        new TransformSpec(
                                "filter",
                                Map.of(
                                        "where",
                                        "n >= 0 and kind in ['kind_1', 'kind_2', 'kind_3'] or n % 7 != 3")),
                        new TransformSpec(
                                "computed",
                                Map.of(
                                        "columns",
                                        Map.of(
                                                "m", "n * 2 + 1",
                                                "label", "concat(kind, '-', n, '@', toDate(ts))",
                                                "later", "ts + 3600",
                                                "at", "now()"))));
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec,
                        specs,
                        DecodeFixture.table(
                                "n UInt32, kind String, ts DateTime, m Int64, label String,"
                                        + " later DateTime, at DateTime"));
        Decoder d = DecoderFactory.create(spec, specs, target);
        // An array, not the list: a for-each over a List may allocate an iterator per row.
        Transform[] chain = Transforms.create(specs, target).toArray(new Transform[0]);
        Block block = target.newBlock();
        int[] row = new int[1];
        RowTarget t =
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
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = 0;
        int kept = 0;
        for (int round = 0; round < 8; round++) {
            if (round == 7) {
                before = mx.getThreadAllocatedBytes(Thread.currentThread().threadId());
            }
            block.reset();
            kept = 0;
            for (int i = 0; i < batch.count; i++) {
                row[0] = kept;
                d.decode(batch, i, t);
                boolean keep = true;
                for (Transform x : chain) {
                    if (!x.apply(t, batch, i)) {
                        keep = false;
                        break;
                    }
                }
                if (keep) {
                    kept++;
                } else {
                    block.truncate(kept);
                }
            }
        }
        double perRow =
                (mx.getThreadAllocatedBytes(Thread.currentThread().threadId()) - before)
                        / (double) batch.count;
        assertThat(block.rows()).isEqualTo(kept);
        assertThat(kept).isBetween(80_000, 99_999);
        assertThat(perRow).isLessThan(16);
    }
}
