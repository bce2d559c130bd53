package dev.sluice.rigs.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.format.RowBinaryWriter;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark data is what the benchmarks claim it is, and every path encodes the same rows. */
class EventsDataTest {

    @Test
    void theSameSeedGivesTheSameRows() {
        EventsData a = EventsData.generate(10_000, EventsData.DEFAULT_SEED);
        EventsData b = EventsData.generate(10_000, EventsData.DEFAULT_SEED);

        assertThat(a.ts).isEqualTo(b.ts);
        assertThat(a.id).isEqualTo(b.id);
        assertThat(a.payloadIndex).isEqualTo(b.payloadIndex);
        assertThat(a.checksums()).isEqualTo(b.checksums());
    }

    @Test
    void twentyKindsAnd2048DistinctPayloadsOfAbout200Bytes() {
        EventsData d = EventsData.generate(100_000, 1);
        Set<String> payloads = new HashSet<>();
        long total = 0;
        for (byte[] p : d.payloads) {
            payloads.add(Arrays.toString(p));
            total += p.length;
            assertThat(p.length).isBetween(150, 260);
        }

        assertThat(d.kinds.length).isEqualTo(20);
        assertThat(payloads).hasSize(EventsData.PAYLOADS);
        assertThat((double) total / EventsData.PAYLOADS).isBetween(190.0, 210.0);
        assertThat(Arrays.stream(d.kindIndex).distinct().count()).isEqualTo(20);
    }

    @Test
    void rowBinaryStraightFromArraysEqualsRowBinaryFromColumns() {
        EventsData d = EventsData.generate(5000, 3);
        Block block = EventsData.newBlock();
        d.appendTo(block, 0, d.rows);
        WireOutput direct = new WireOutput(1 << 16);
        WireOutput fromColumns = new WireOutput(1 << 16);

        d.writeRowBinary(direct, 0, d.rows);
        RowBinaryWriter.forBlock(block).writeAll(fromColumns);

        assertThat(fromColumns.toByteArray()).isEqualTo(direct.toByteArray());
    }

    @Test
    void theNativeFileFormatDecodesToTheSameRows() {
        EventsData d = EventsData.generate(3000, 5);
        Block block = EventsData.newBlock();
        d.appendTo(block, 0, d.rows);
        WireOutput out = new WireOutput(1 << 16);
        NativeBlockCodec.write(block, out, 0);

        Block back =
                NativeBlockCodec.read(
                                new WireInput(new ByteArrayInputStream(out.toByteArray()), 4096), 0)
                        .block();

        assertThat(back.rows()).isEqualTo(d.rows);
        assertThat(back.typeNames()).isEqualTo(EventsData.COLUMN_TYPES);
        for (int r = 0; r < d.rows; r += 97) {
            assertThat(back.column("ts").getLong(r)).isEqualTo(d.ts[r]);
            assertThat(back.column("id").getLong(r)).isEqualTo(d.id[r]);
            assertThat(back.column("payload").getString(r))
                    .isEqualTo(new String(d.payloads[d.payloadIndex[r]]));
        }
    }
}
