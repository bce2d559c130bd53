package dev.sluice.pipeline.decode.avro;

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
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

/**
 * Property 6 for Avro: decoding records of two schema versions, interleaved, allocates (next to)
 * nothing per record once the block's buffers have grown and both plans are built. Measured with
 * the thread's allocation counter after a warm-up; the bound is 16 bytes per record (TLAB and JIT
 * noise). CPU ns per record are printed for the report only.
 */
class AvroAllocationTest {
    private static final int RECORDS = 50_000;

    private static final String FIELDS =
            """
            {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
            {"name":"tenant","type":"int"},
            {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["click","view","buy"]}},
            {"name":"id","type":"long"},
            {"name":"payload","type":"string"},
            {"name":"ref","type":["null","string"]},
            {"name":"score","type":"double"},
            {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}},
            {"name":"trace","type":{"type":"fixed","name":"Trace","size":16,"logicalType":"uuid"}},
            {"name":"day","type":{"type":"int","logicalType":"date"}},
            {"name":"tags","type":{"type":"array","items":"string"}},
            {"name":"attrs","type":{"type":"map","values":"long"}},
            {"name":"geo","type":{"type":"record","name":"Geo","fields":[{"name":"cc","type":"string"},{"name":"lat","type":"float"}]}}
            """;

    private static final String COLUMNS =
            "ts DateTime, tenant UInt32, kind LowCardinality(String), id UInt64, payload String,"
                    + " ref Nullable(String), score Float64, price Decimal(18, 4), trace UUID,"
                    + " day Date, tags Array(String), attrs Map(String, Int64), geo.cc String,"
                    + " geo.lat Float32, extra Nullable(String)";

    @Test
    void interleavedSchemaVersionsAllocateNothingPerRecord() throws RecordException {
        Schema v1 = AvroDecoderTest.record(FIELDS);
        Schema v2 =
                AvroDecoderTest.record(
                        FIELDS + ",{\"name\":\"extra\",\"type\":[\"null\",\"string\"]}");
        MapSchemas schemas = new MapSchemas().with(1, v1).with(2, v2);
        PolledRecords batch = batch(v1, v2);
        DecodeSpec spec = AvroDecoderTest.confluent(false);
        TargetColumns target =
                DecoderFactory.targetColumns(spec, List.of(), DecodeFixture.table(COLUMNS));
        Decoder d = DecoderFactory.create(spec, List.of(), target, schemas);

        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        Target t = new Target(target.newBlock());
        for (int w = 0; w < 3; w++) {
            pass(d, batch, t);
        }
        int rounds = 5;
        long bytes0 = mx.getThreadAllocatedBytes(tid);
        long cpu0 = mx.getCurrentThreadCpuTime();
        for (int k = 0; k < rounds; k++) {
            pass(d, batch, t);
        }
        double n = (double) rounds * batch.count;
        double bytes = (mx.getThreadAllocatedBytes(tid) - bytes0) / n;
        double nanos = (mx.getCurrentThreadCpuTime() - cpu0) / n;
        System.out.printf(
                "Avro events, two schema versions: %.2f B/record, %.0f CPU ns/record%n",
                bytes, nanos);
        assertThat(bytes).isLessThan(16);
        assertThat(schemas.lookups.get()).isEqualTo(2);
    }

    private static PolledRecords batch(Schema v1, Schema v2) {
        SplittableRandom r = new SplittableRandom(3);
        byte[][] records = new byte[RECORDS][];
        for (int i = 0; i < RECORDS; i++) {
            Schema s = i % 2 == 0 ? v1 : v2;
            GenericData.Record rec = new GenericData.Record(s);
            rec.put("ts", Instant.ofEpochSecond(1_700_000_000L + i));
            rec.put("tenant", r.nextInt(1000));
            rec.put(
                    "kind",
                    new GenericData.EnumSymbol(
                            s.getField("kind").schema(),
                            List.of("click", "view", "buy").get(i % 3)));
            rec.put("id", 1_000_000_000L + i);
            StringBuilder p = new StringBuilder("{\"session\":\"");
            while (p.length() < 200) {
                p.append((char) ('a' + r.nextInt(26)));
            }
            rec.put("payload", p.append("\"}").toString());
            rec.put("ref", i % 3 == 0 ? null : "ref-" + i);
            rec.put("score", r.nextDouble());
            rec.put("price", BigDecimal.valueOf(r.nextInt(1_000_000), 4));
            rec.put("trace", new UUID(r.nextLong(), r.nextLong()));
            rec.put("day", LocalDate.ofEpochDay(19_000 + i % 365));
            rec.put("tags", List.of("a", "b" + i % 7));
            rec.put("attrs", Map.of("n", (long) i));
            GenericData.Record geo = new GenericData.Record(s.getField("geo").schema());
            geo.put("cc", "DE");
            geo.put("lat", 52.5f);
            rec.put("geo", geo);
            if (s == v2) {
                rec.put("extra", "x");
            }
            records[i] = AvroBytes.framed(i % 2 == 0 ? 1 : 2, s, rec);
        }
        return DecodeFixture.batch(records);
    }

    private static void pass(Decoder d, PolledRecords batch, Target t) throws RecordException {
        t.block.reset();
        for (int i = 0; i < batch.count; i++) {
            t.row = i;
            d.decode(batch, i, t);
        }
        assertThat(t.block.rows()).isEqualTo(batch.count);
    }

    /** A row target that holds the block and counts absent values (v1 lacks {@code extra}). */
    private static final class Target implements RowTarget {
        final Block block;
        int row;
        long absent;

        Target(Block block) {
            this.block = block;
        }

        @Override
        public Block block() {
            return block;
        }

        @Override
        public int row() {
            return row;
        }

        @Override
        public void absent(int column) {
            absent++;
        }
    }
}
