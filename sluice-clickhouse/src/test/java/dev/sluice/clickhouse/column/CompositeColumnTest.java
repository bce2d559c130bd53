package dev.sluice.clickhouse.column;

import static dev.sluice.clickhouse.column.ColumnTestSupport.encode;
import static dev.sluice.clickhouse.column.ColumnTestSupport.encodeData;
import static dev.sluice.clickhouse.column.ColumnTestSupport.hex;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Array, Map, Tuple and Nullable: layout, row building, undo. */
class CompositeColumnTest {

    private static <T extends Column> T create(String type) {
        @SuppressWarnings("unchecked")
        T c = (T) ColumnFactory.create("c", type);
        return c;
    }

    @Test
    void nestedArraysWriteOuterOffsetsInnerOffsetsThenElements() {
        ArrayColumn outer = create("Array(Array(UInt8))");
        ArrayColumn inner = (ArrayColumn) outer.elements();
        inner.elements().appendLong(1);
        inner.elements().appendLong(2);
        inner.endArray();
        inner.endArray(); // []
        outer.endArray(); // [[1, 2], []]
        inner.elements().appendLong(3);
        inner.endArray();
        outer.endArray(); // [[3]]

        assertThat(hex(encodeData(outer)))
                .isEqualTo(
                        "02 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"
                                + " 02 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00"
                                + " 03 00 00 00 00 00 00 00"
                                + " 01 02 03");
        assertThat(values(outer))
                .containsExactly(List.of(List.of(1L, 2L), List.of()), List.of(List.of(3L)));
    }

    @Test
    void arrayWithPendingElementsCannotBeEncodedOrDefaulted() {
        ArrayColumn a = create("Array(String)");
        a.elements().appendString("x");
        a.endArray();
        a.elements().appendString("pending");

        assertThatThrownBy(() -> a.writeData(new WireOutput(16)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("endArray");
        assertThatThrownBy(a::appendDefault).isInstanceOf(ColumnValueException.class);

        a.abortArray();
        a.appendDefault();
        assertThat(values(a)).containsExactly(List.of("x"), List.of());
    }

    @Test
    void truncateDropsRowsAndPendingElements() {
        ArrayColumn a = create("Array(Nullable(Int32))");
        for (int r = 0; r < 3; r++) {
            a.elements().appendLong(r);
            a.elements().appendNull();
            a.endArray();
        }
        a.elements().appendLong(99); // pending, never closed
        a.truncate(1);
        a.elements().appendLong(5);
        a.endArray();

        assertThat(values(a)).containsExactly(Arrays.asList(0L, null), List.of(5L));
        assertThat(a.elements().rows()).isEqualTo(3);
    }

    @Test
    void mapHasTheBytesOfAnArrayOfTuples() {
        MapColumn m = create("Map(String, Nullable(UInt16))");
        ArrayColumn a = create("Array(Tuple(String, Nullable(UInt16)))");
        TupleColumn t = (TupleColumn) a.elements();
        String[][] rows = {{"a", "1", "b", null}, {}, {"c", "3"}};
        for (String[] kv : rows) {
            for (int i = 0; i < kv.length; i += 2) {
                m.keys().appendString(kv[i]);
                t.element(0).appendString(kv[i]);
                if (kv[i + 1] == null) {
                    m.values().appendNull();
                    t.element(1).appendNull();
                } else {
                    m.values().appendLong(Long.parseLong(kv[i + 1]));
                    t.element(1).appendLong(Long.parseLong(kv[i + 1]));
                }
            }
            m.endMap();
            a.endArray();
        }
        assertThat(encode(m)).isEqualTo(encode(a));
        Column decoded = ColumnTestSupport.decode("Map(String, Nullable(UInt16))", encode(m), 3);
        assertThat(values(decoded)).isEqualTo(values(m));
    }

    @Test
    void mapRowNeedsAsManyValuesAsKeys() {
        MapColumn m = create("Map(String, String)");
        m.keys().appendString("k");
        assertThatThrownBy(m::endMap)
                .isInstanceOf(ColumnValueException.class)
                .hasMessageContaining("1 keys but 0 values");
        assertThatThrownBy(m::appendDefault).isInstanceOf(ColumnValueException.class);
        assertThatThrownBy(() -> m.writeData(new WireOutput(16)))
                .isInstanceOf(IllegalStateException.class);
        m.abortMap();
        m.appendDefault();
        assertThat(m.rows()).isEqualTo(1);
        assertThat(m.keys().rows()).isZero();
    }

    @Test
    void tupleAppendDefaultCompletesAPartialRow() {
        TupleColumn t = create("Tuple(a String, b UInt8, c Array(String))");
        t.element(0).appendString("x");
        t.appendDefault(); // b and c get their defaults
        t.appendDefault(); // a whole default row
        assertThat(values(t))
                .containsExactly(List.of("x", 0L, List.of()), List.of("", 0L, List.of()));
        assertThat(t.element(2).name()).isEqualTo("c.c");
    }

    @Test
    void tupleWithUnevenElementsCannotBeEncoded() {
        TupleColumn t = create("Tuple(String, UInt8)");
        t.element(0).appendString("only half");
        assertThatThrownBy(() -> t.writeData(new WireOutput(16)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("different row counts");
        t.truncate(0);
        assertThat(encodeData(t)).isEmpty();
    }

    @Test
    void tupleTruncateTakesBackAHalfAppendedRow() {
        TupleColumn t = create("Tuple(String, UInt8)");
        t.element(0).appendString("a");
        t.element(1).appendLong(1);
        t.element(1).appendLong(2); // element 1 ahead of element 0
        t.truncate(1);
        assertThat(t.element(1).rows()).isEqualTo(1);
        assertThat(values(t)).containsExactly(List.of("a", 1L));
    }

    @Test
    void nullableWritesTheNullMapThenPlaceholders() {
        NullableColumn n = create("Nullable(Int16)");
        n.appendLong(-2);
        n.appendNull();
        n.appendLong(3);

        assertThat(hex(encodeData(n))).isEqualTo("00 01 00 fe ff 00 00 03 00");
    }

    @Test
    void markNotNullNeedsExactlyOneInnerValue() {
        NullableColumn n = create("Nullable(Decimal(9, 2))");
        assertThatThrownBy(n::markNotNull).isInstanceOf(IllegalStateException.class);
        ((DecimalColumn) n.inner()).appendUnscaled(150);
        n.markNotNull();
        assertThat(n.getString(0)).isEqualTo("1.50");
        assertThat(n.isNull(0)).isFalse();
    }

    @Test
    void nullableOfCompositeTypesIsRejectedAtCreation() {
        for (String type :
                List.of(
                        "Nullable(Array(String))",
                        "Nullable(Map(String, String))",
                        "Nullable(Tuple(String))",
                        "Nullable(LowCardinality(String))",
                        "Nullable(Nullable(String))")) {
            assertThatThrownBy(() -> ColumnFactory.create("c", type))
                    .as(type)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unsupported type")
                    .hasMessageContaining("column c");
        }
    }

    @Test
    void decreasingOrHugeOffsetsAreWireExceptions() {
        WireOutput decreasing = new WireOutput(32).writeInt64(3).writeInt64(2);
        assertThatThrownBy(
                        () ->
                                ColumnFactory.create("c", "Array(UInt8)")
                                        .readData(WireInput.of(decreasing.toByteArray()), 2))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("offsets decrease");

        WireOutput negative = new WireOutput(32).writeInt64(-1);
        assertThatThrownBy(
                        () ->
                                ColumnFactory.create("c", "Array(UInt8)")
                                        .readData(WireInput.of(negative.toByteArray()), 1))
                .isInstanceOf(WireException.class);

        for (long huge : new long[] {1L << 40, Long.MAX_VALUE}) {
            WireOutput out = new WireOutput(32).writeInt64(huge);
            assertThatThrownBy(
                            () ->
                                    ColumnFactory.create("c", "Map(String, String)")
                                            .readData(WireInput.of(out.toByteArray()), 1))
                    .isInstanceOf(WireException.class)
                    .hasMessageContaining("array elements");
        }
    }

    @Test
    void decodingAppendsAfterExistingRows() {
        ArrayColumn a = create("Array(String)");
        a.elements().appendString("first");
        a.endArray();
        ArrayColumn other = create("Array(String)");
        other.elements().appendString("x");
        other.elements().appendString("y");
        other.endArray();

        a.readData(WireInput.of(encodeData(other)), 1);

        assertThat(values(a)).containsExactly(List.of("first"), List.of("x", "y"));
        assertThat(hex(Arrays.copyOf(encodeData(a), 16)))
                .isEqualTo("01 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00");
    }
}
