package dev.sluice.clickhouse.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.io.WireOutput;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RowBinary bytes for a few rows of each type, computed by hand from the format's layout. */
class RowBinaryWriterTest {

    private static Arguments golden(String type, List<?> values, String hex) {
        return Arguments.of(type, values, hex);
    }

    private static List<Object> list(Object... values) {
        return Arrays.asList(values);
    }

    private static Map<Object, Object> map(Object... keysAndValues) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    static Stream<Arguments> goldenRows() {
        String x200 = "78".repeat(200);
        return Stream.of(
                golden("UInt8", list(0L, 255L), "00 ff"),
                golden("Int8", list(-1L, 127L), "ff 7f"),
                golden("Int16", list(-2L, 0x1234L), "feff 3412"),
                golden("UInt16", list(65535L), "ffff"),
                golden("Int32", list(1L, -1L), "01000000 ffffffff"),
                golden("UInt32", list(4294967295L), "ffffffff"),
                golden("Int64", list(-2L), "feffffffffffffff"),
                golden(
                        "UInt64",
                        list(new BigInteger("9223372036854775808"), 1L),
                        "0000000000000080 0100000000000000"),
                golden("Float32", list(1.0), "0000803f"),
                golden("Float64", list(-2.5), "00000000000004c0"),
                golden("String", list("", "ab"), "00 026162"),
                golden("String", list("x".repeat(200)), "c801 " + x200),
                golden("String", list("é"), "02 c3a9"),
                golden("FixedString(3)", list("ab", "abc"), "616200 616263"),
                golden("Nullable(Int32)", list(null, 7L), "01 00 07000000"),
                golden("Nullable(String)", list(null, "hi"), "01 00 02 6869"),
                golden("Array(UInt16)", list(list(), list(1L, 258L)), "00 02 0100 0201"),
                golden("Array(Nullable(String))", list(list("a", null)), "02 00 01 61 01"),
                golden(
                        "Array(Array(Int8))",
                        list(list(list(1L), list()), list()),
                        "02 01 01 00 00"),
                golden("Tuple(UInt8, String)", list(list(5L, "z")), "05 01 7a"),
                golden(
                        "Tuple(Nullable(UInt8), Array(String))",
                        list(list(null, list("q")), list(3L, list())),
                        "01 01 01 71 00 03 00"),
                golden(
                        "Map(String, UInt32)",
                        list(map("k", 1L, "ab", 2L), map()),
                        "02 01 6b 01000000 02 6162 02000000 00"),
                golden("LowCardinality(String)", list("x", "y", "x"), "01 78 01 79 01 78"),
                golden(
                        "LowCardinality(Nullable(String))",
                        list("x", null, "x", ""),
                        "00 01 78 01 00 01 78 00 00"),
                golden("LowCardinality(UInt32)", list(7L, 7L), "07000000 07000000"),
                golden("Array(LowCardinality(String))", list(list("a", "a")), "02 01 61 01 61"),
                golden("Enum8('a' = 1, 'b' = -2)", list("b", "a"), "fe 01"),
                golden("Enum16('a' = 1000, 'b' = -1)", list("a", "b"), "e803 ffff"),
                golden(
                        "UUID",
                        list(UUID.fromString("550e8400-e29b-41d4-a716-446655440000")),
                        "d4419be200840e55 00004455664416a7"),
                golden("Decimal(9, 2)", list(new BigDecimal("-1.23")), "85ffffff"),
                golden("Decimal(18, 4)", list(new BigDecimal("1.5")), "983a000000000000"),
                golden("Decimal(38, 2)", list(BigDecimal.ONE), "64" + "00".repeat(15)),
                golden("Date", list(1L, 65535L), "0100 ffff"),
                golden("DateTime", list(1L, 4294967295L), "01000000 ffffffff"),
                golden("DateTime('UTC')", list(256L), "00010000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenRows")
    void writesHandComputedBytes(String type, List<?> values, String hex) {
        Column c = ColumnFactory.create("c", type);
        for (Object v : values) {
            ColumnValues.append(c, v);
        }
        Block block = Block.of(List.of(c));

        assertThat(hex(write(block))).isEqualTo(hex.replace(" ", ""));
    }

    @Test
    void interleavesColumnsRowByRow() {
        Column a = ColumnFactory.create("a", "UInt8");
        Column b = ColumnFactory.create("b", "String");
        Column n = ColumnFactory.create("n", "Nullable(UInt16)");
        ColumnValues.append(a, 1L);
        ColumnValues.append(b, "a");
        ColumnValues.append(n, null);
        ColumnValues.append(a, 2L);
        ColumnValues.append(b, "bc");
        ColumnValues.append(n, 3L);
        Block block = Block.of(List.of(a, b, n));

        assertThat(hex(write(block))).isEqualTo("01016101" + "0202626300" + "0300");
    }

    @Test
    void writesSingleRowsAndRanges() {
        Column c = ColumnFactory.create("c", "String");
        for (String s : List.of("a", "bb", "ccc")) {
            c.appendString(s);
        }
        RowBinaryWriter w = RowBinaryWriter.forBlock(Block.of(List.of(c)));
        WireOutput out = new WireOutput(16);

        w.writeRow(1, out);
        w.writeRows(2, 3, out);
        w.writeRows(0, 0, out);

        assertThat(hex(out.toByteArray())).isEqualTo("026262" + "03636363");
    }

    @Test
    void rejectsRowsOutsideTheBlock() {
        Column c = ColumnFactory.create("c", "UInt8");
        c.appendLong(1);
        RowBinaryWriter w = RowBinaryWriter.forBlock(Block.of(List.of(c)));
        WireOutput out = new WireOutput(16);

        assertThatThrownBy(() -> w.writeRow(1, out)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> w.writeRows(0, 2, out))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(out.position()).isZero();
    }

    @Test
    void zeroRowsWriteNothing() {
        Block block = Block.of(List.of(ColumnFactory.create("c", "Array(String)")));

        assertThat(write(block)).isEmpty();
    }

    @Test
    void staysValidWhileTheBlockIsResetAndItsArraysGrow() {
        Column id = ColumnFactory.create("id", "UInt64");
        Column s = ColumnFactory.create("s", "Array(String)");
        Block block = Block.of(List.of(id, s));
        RowBinaryWriter reused = RowBinaryWriter.forBlock(block);
        id.appendLong(1);
        ColumnValues.append(s, List.of("first"));
        reused.writeAll(new WireOutput(64));

        block.reset();
        for (int i = 0; i < 5000; i++) { // far past the initial capacities
            id.appendLong(i);
            ColumnValues.append(s, List.of("v" + i, "w"));
        }

        assertThat(write(block, reused)).isEqualTo(write(block));
    }

    @Test
    void fixedWidthRowsAreTheNativeDataBytes() {
        for (String type : List.of("Int32", "UInt64", "UUID", "FixedString(5)", "Decimal(38, 3)")) {
            Column c = ColumnFactory.create("c", type);
            for (int i = 0; i < 100; i++) {
                c.appendDefault();
            }
            WireOutput nativeData = new WireOutput(64);
            c.writeData(nativeData);

            assertThat(write(Block.of(List.of(c)))).isEqualTo(nativeData.toByteArray());
        }
    }

    @Test
    void stringRowsAreTheNativeDataBytes() {
        // For a lone String column the two formats coincide: VarUInt length and bytes per row.
        Column c = ColumnFactory.create("c", "String");
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            values.add("s".repeat(i));
        }
        values.forEach(c::appendString);
        WireOutput nativeData = new WireOutput(64);
        c.writeData(nativeData);

        assertThat(write(Block.of(List.of(c)))).isEqualTo(nativeData.toByteArray());
    }

    @Test
    void writesThroughADrainingBuffer() {
        Column c = ColumnFactory.create("c", "String");
        for (int i = 0; i < 1000; i++) {
            c.appendString("value " + i);
        }
        Block block = Block.of(List.of(c));
        WireOutput collected = new WireOutput(64);
        WireOutput draining =
                new WireOutput(32, (buf, off, len) -> collected.writeBytes(buf, off, len));

        RowBinaryWriter.forBlock(block).writeAll(draining);
        draining.flush();

        assertThat(collected.toByteArray()).isEqualTo(write(block));
    }

    private static byte[] write(Block block) {
        return write(block, RowBinaryWriter.forBlock(block));
    }

    private static byte[] write(Block block, RowBinaryWriter writer) {
        WireOutput out = new WireOutput(16);
        writer.writeAll(out);
        return out.toByteArray();
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
