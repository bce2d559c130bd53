package dev.sluice.pipeline.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.json.JsonDecoder;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property 6 on the two hot paths: decoding the benchmark's events shape from TSV and from NDJSON
 * allocates (next to) nothing per record once the block's buffers have grown. Measured with the
 * thread's allocation counter over 100k records after a warm-up; the bound is 16 bytes per record
 * (TLAB and JIT noise; the steady state is 0). Also prints CPU ns per record, for the report only —
 * timing is not asserted on shared CI machines.
 */
class HotPathAllocationTest {
    private static final int RECORDS = 100_000;
    private static final String EVENTS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    private static PolledRecords tsv() {
        SplittableRandom r = new SplittableRandom(1);
        String[] lines = new String[RECORDS];
        for (int i = 0; i < RECORDS; i++) {
            lines[i] =
                    "2024-01-01 00:"
                            + String.format("%02d:%02d", (i / 60) % 60, i % 60)
                            + "\t"
                            + r.nextInt(1000)
                            + "\tkind_"
                            + r.nextInt(20)
                            + "\t"
                            + (1_000_000_000L + i)
                            + "\t"
                            + payload(r);
        }
        return DecodeFixture.batch(lines);
    }

    private static String payload(SplittableRandom r) {
        StringBuilder sb = new StringBuilder("{\\\"session\\\":\\\"");
        while (sb.length() < 200) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.append("\\\"}").toString();
    }

    private static PolledRecords ndjson() {
        SplittableRandom r = new SplittableRandom(2);
        String[] lines = new String[RECORDS];
        for (int i = 0; i < RECORDS; i++) {
            StringBuilder sb = new StringBuilder();
            sb.append("{\"ts\":\"2024-01-01T00:00:")
                    .append(String.format("%02d", i % 60))
                    .append("Z\",\"tenant\":")
                    .append(r.nextInt(1000))
                    .append(",\"kind\":\"kind_")
                    .append(r.nextInt(20))
                    .append("\",\"id\":")
                    .append(1_000_000_000L + i)
                    .append(",\"context\":{\"session\":\"");
            while (sb.length() < 640) {
                sb.append((char) ('a' + r.nextInt(26)));
            }
            sb.append("\",\"ua\":\"Mozilla/5.0\",\"n\":[1,2,3]},\"ok\":true}");
            lines[i] = sb.toString();
        }
        return DecodeFixture.batch(lines);
    }

    /**
     * Bytes allocated and CPU ns spent per record over {@code rounds} passes, after 3 warm-up ones.
     */
    private static double[] measure(
            Decoder d, TargetColumns target, PolledRecords batch, int rounds)
            throws RecordException {
        Rows rows = new Rows(target);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        Target t = new Target(rows.block);
        for (int w = 0; w < 3; w++) {
            pass(d, batch, t);
        }
        long bytes0 = mx.getThreadAllocatedBytes(tid);
        long t0 = mx.getCurrentThreadCpuTime();
        for (int k = 0; k < rounds; k++) {
            pass(d, batch, t);
        }
        long nanos = mx.getCurrentThreadCpuTime() - t0;
        long bytes = mx.getThreadAllocatedBytes(tid) - bytes0;
        double n = (double) rounds * batch.count;
        return new double[] {bytes / n, nanos / n};
    }

    private static void pass(Decoder d, PolledRecords batch, Target t) throws RecordException {
        t.block.reset();
        for (int i = 0; i < batch.count; i++) {
            t.row = i;
            d.decode(batch, i, t);
        }
        assertThat(t.block.rows()).isEqualTo(batch.count);
    }

    /** A row target that does nothing per row beyond holding the block. */
    private static final class Target implements RowTarget {
        final dev.sluice.clickhouse.block.Block block;
        int row;

        Target(dev.sluice.clickhouse.block.Block block) {
            this.block = block;
        }

        @Override
        public dev.sluice.clickhouse.block.Block block() {
            return block;
        }

        @Override
        public int row() {
            return row;
        }

        @Override
        public void absent(int column) {
            throw new AssertionError("no field is absent in these records");
        }
    }

    @Test
    void tsvEventsAllocateNothingPerRecord() throws RecordException {
        DecodeSpec spec = DecodeFixture.spec(Format.TSV);
        TargetColumns target =
                DecoderFactory.targetColumns(spec, List.of(), DecodeFixture.table(EVENTS));
        double[] m = measure(DecoderFactory.create(spec, target), target, tsv(), 10);
        System.out.printf("TSV events: %.2f B/record, %.0f CPU ns/record%n", m[0], m[1]);
        assertThat(m[0]).isLessThan(16);
    }

    @Test
    void ndjsonEventsAllocateNothingPerRecordOnTheFastPath() throws RecordException {
        ndjsonEvents(true);
    }

    @Test
    void ndjsonEventsAllocateNothingPerRecordWithJacksonAlone() throws RecordException {
        ndjsonEvents(false);
    }

    private static void ndjsonEvents(boolean fastPath) throws RecordException {
        DecodeSpec spec =
                new DecodeSpec(Format.JSON, List.of(), false, Map.of("payload", "$"), false, ',')
                        .withJsonFastPath(fastPath);
        TargetColumns target =
                DecoderFactory.targetColumns(spec, List.of(), DecodeFixture.table(EVENTS));
        JsonDecoder decoder = (JsonDecoder) DecoderFactory.create(spec, target);
        double[] m = measure(decoder, target, ndjson(), 5);
        System.out.printf(
                "NDJSON events (~700 B), fast path %s: %.2f B/record, %.0f CPU ns/record%n",
                fastPath ? "on" : "off", m[0], m[1]);
        assertThat(m[0]).isLessThan(16);
        // the path named is the path measured
        assertThat(decoder.fastRecords())
                .isEqualTo(fastPath ? 8L * RECORDS : 0); // 3 warm-up passes, 5 measured
        assertThat(decoder.declinedRecords()).isZero();
    }
}
