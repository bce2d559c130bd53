package dev.sluice.clickhouse.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.RandomRows;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzz-style: valid blocks of random types with random damage (flipped, inserted, deleted bytes,
 * truncation). Decoding may succeed or fail, but only with {@link WireException} (bad bytes) or
 * {@link IllegalArgumentException} (a damaged type name that is no supported type); never with an
 * index, allocation or state error.
 */
class NativeBlockMalformedInputTest {

    static final List<String> TYPES =
            List.of(
                    "UInt8",
                    "Int64",
                    "String",
                    "Nullable(String)",
                    "Array(Int32)",
                    "Array(Array(String))",
                    "LowCardinality(String)",
                    "LowCardinality(Nullable(String))",
                    "Array(LowCardinality(String))",
                    "Map(String, Nullable(UInt64))",
                    "Tuple(String, Decimal(18, 4))",
                    "FixedString(3)",
                    "UUID",
                    "Enum8('a' = 1, 'b' = 2)",
                    "JSON",
                    "Int256");

    static byte[] validBlock(long seed, int revision) {
        Random r = new Random(seed);
        List<Column> columns = new ArrayList<>();
        int n = 1 + r.nextInt(3);
        int rows = r.nextInt(6);
        for (int i = 0; i < n; i++) {
            Column c = ColumnFactory.create("c" + i, TYPES.get(r.nextInt(TYPES.size())));
            RandomRows.append(c, r, rows);
            columns.add(c);
        }
        WireOutput out = new WireOutput(64);
        NativeBlockCodec.write(Block.of(columns), out, revision);
        return out.toByteArray();
    }

    static byte[] damage(byte[] b, Random r) {
        byte[] out = b.clone();
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits && out.length > 0; e++) {
            int at = r.nextInt(out.length);
            switch (r.nextInt(5)) {
                case 0 -> out[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> out[at] = (byte) r.nextInt(256);
                case 2 -> out[at] = (byte) (r.nextBoolean() ? 0xFF : 0x80);
                case 3 -> {
                    byte[] shorter = new byte[out.length - 1];
                    System.arraycopy(out, 0, shorter, 0, at);
                    System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
                    out = shorter;
                }
                default -> out = java.util.Arrays.copyOf(out, at);
            }
        }
        return out;
    }

    @Provide
    Arbitrary<Integer> revisions() {
        return Arbitraries.of(0, 54412, 54460);
    }

    @Property(tries = 3000)
    void damagedBlocksFailOnlyWithWireOrTypeErrors(
            @ForAll long seed, @ForAll("revisions") int revision) {
        Random r = new Random(seed);
        byte[] bytes = damage(validBlock(r.nextLong(), revision), r);
        try {
            NativeBlockCodec.Decoded d = NativeBlockCodec.read(WireInput.of(bytes), revision);
            // Whatever decoded must also encode.
            WireOutput out = new WireOutput(64);
            NativeBlockCodec.write(d.block(), out, revision);
        } catch (WireException e) {
            assertThat(e.getMessage()).isNotBlank();
        } catch (IllegalArgumentException e) {
            assertThat(e).isNotInstanceOf(dev.sluice.clickhouse.column.ColumnValueException.class);
            assertThat(e.getMessage()).contains("unsupported type");
        }
    }

    @Property(tries = 300)
    void undamagedBlocksRoundTrip(@ForAll long seed, @ForAll("revisions") int revision) {
        byte[] bytes = validBlock(seed, revision);
        WireInput in = WireInput.of(bytes);
        Block block = NativeBlockCodec.read(in, revision).block();
        assertThat(in.atEnd()).isTrue();
        WireOutput out = new WireOutput(64);
        NativeBlockCodec.write(block, out, revision);
        assertThat(out.toByteArray()).isEqualTo(bytes);
    }
}
