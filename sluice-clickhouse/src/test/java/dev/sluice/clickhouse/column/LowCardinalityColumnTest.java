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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LowCardinalityColumnTest {

    private static LowCardinalityColumn lc(String type) {
        return (LowCardinalityColumn) ColumnFactory.create("tag", type);
    }

    /** The chunk flags word: index width code | HasAdditionalKeys | NeedUpdateDictionary. */
    private static long flags(Column c) {
        return WireInput.of(encodeData(c)).readInt64();
    }

    @Test
    void sameValueGetsTheSameKey() {
        LowCardinalityColumn c = lc("LowCardinality(String)");
        for (String s : List.of("b", "a", "b", "b", "c", "a")) {
            c.appendString(s);
        }
        assertThat(c.dictionary().rows()).isEqualTo(3);
        assertThat(List.of(c.index(0), c.index(1), c.index(2), c.index(3), c.index(4), c.index(5)))
                .containsExactly(0, 1, 0, 0, 2, 1);
        assertThat(values(c)).containsExactly("b", "a", "b", "b", "c", "a");
    }

    @Test
    void deduplicatesByStoredBytesForEveryKeyKind() {
        LowCardinalityColumn fixed = lc("LowCardinality(FixedString(4))");
        fixed.appendString("ab");
        fixed.appendBytes(new byte[] {'a', 'b', 0, 0}); // the same value once padded
        fixed.appendString("abc");
        assertThat(fixed.dictionary().rows()).isEqualTo(2);

        LowCardinalityColumn ints = lc("LowCardinality(UInt64)");
        ints.appendLong(5);
        ints.appendUnsignedLong(5);
        ints.appendDouble(5.0);
        ints.appendUnsignedLong(-1L);
        assertThat(ints.dictionary().rows()).isEqualTo(2);
        assertThat(values(ints))
                .containsExactly(5L, 5L, 5L, new java.math.BigInteger("18446744073709551615"));
    }

    @Test
    void smallDictionaryEncodesExactly() {
        LowCardinalityColumn c = lc("LowCardinality(String)");
        for (String s : List.of("x", "y", "x")) {
            c.appendString(s);
        }
        assertThat(hex(encode(c)))
                .isEqualTo(
                        "01 00 00 00 00 00 00 00" // prefix: key version 1
                                + " 00 06 00 00 00 00 00 00" // UInt8 indexes, 0x600
                                + " 02 00 00 00 00 00 00 00 01 78 01 79" // 2 keys
                                + " 03 00 00 00 00 00 00 00 00 01 00"); // 3 rows
    }

    @ParameterizedTest(name = "{0} distinct values: width code {1}")
    @CsvSource({"1, 0", "256, 0", "257, 1", "65536, 1", "65537, 2", "70000, 2"})
    void indexWidthGrowsWithTheDictionary(int distinct, int code) {
        LowCardinalityColumn c = lc("LowCardinality(UInt32)");
        for (int i = 0; i < distinct; i++) {
            c.appendLong(i);
        }
        c.appendLong(distinct - 1); // one repeat

        assertThat(flags(c)).isEqualTo(0x600L | code);
        byte[] bytes = encodeData(c);
        long keysEnd = 16 + 4L * distinct;
        int indexBytes = 1 << code;
        assertThat(bytes).hasSize((int) (keysEnd + 8 + (long) (distinct + 1) * indexBytes));
        Column decoded = ColumnTestSupport.decode("LowCardinality(UInt32)", encode(c), c.rows());
        assertThat(decoded.getLong(distinct)).isEqualTo(distinct - 1);
        assertThat(decoded.getLong(distinct / 2)).isEqualTo(distinct / 2);
        assertThat(encodeData(decoded)).isEqualTo(bytes);
    }

    @Test
    void nullableKeyZeroCountsTowardsTheIndexWidth() {
        LowCardinalityColumn c = lc("LowCardinality(Nullable(UInt16))");
        for (int i = 0; i < 255; i++) {
            c.appendLong(i);
        }
        assertThat(flags(c) & 0xFF).isZero(); // NULL + 255 keys = 256
        c.appendLong(255);
        assertThat(flags(c) & 0xFF).isEqualTo(1);
    }

    @Test
    void nullableKeyZeroIsNullInFirstMiddleAndLastRows() {
        LowCardinalityColumn c = lc("LowCardinality(Nullable(String))");
        c.appendNull();
        c.appendString("a");
        c.appendNull();
        c.appendString(""); // the default value is a value, not NULL
        c.appendString("a");
        c.appendNull();

        assertThat(hex(encodeData(c)))
                .isEqualTo(
                        "00 06 00 00 00 00 00 00"
                                + " 03 00 00 00 00 00 00 00 00 01 61 00" // NULL placeholder, a, ""
                                + " 06 00 00 00 00 00 00 00 00 01 00 02 01 00");
        Column decoded = ColumnTestSupport.decode("LowCardinality(Nullable(String))", encode(c), 6);
        assertThat(values(decoded)).containsExactly(null, "a", null, "", "a", null);
        assertThat(decoded.isNull(3)).isFalse();
        assertThat(decoded.isNull(5)).isTrue();
    }

    @Test
    void allNullColumnStillSendsThePlaceholderKey() {
        LowCardinalityColumn c = lc("LowCardinality(Nullable(String))");
        c.appendNull();
        c.appendDefault();
        assertThat(hex(encodeData(c)))
                .isEqualTo(
                        "00 06 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00"
                                + " 02 00 00 00 00 00 00 00 00 00");
    }

    @Test
    void arrayOfLowCardinalityWithOnlyEmptyArraysWritesThePrefixButNoDictionary() {
        ArrayColumn a = (ArrayColumn) ColumnFactory.create("tags", "Array(LowCardinality(String))");
        a.appendDefault();
        a.endArray();
        a.appendDefault();

        assertThat(hex(encode(a)))
                .isEqualTo(
                        "01 00 00 00 00 00 00 00" // LowCardinality prefix
                                + " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
                                + " 00 00 00 00 00 00 00 00"); // three empty offsets, no keys
        Column decoded = ColumnTestSupport.decode("Array(LowCardinality(String))", encode(a), 3);
        assertThat(values(decoded)).containsExactly(List.of(), List.of(), List.of());
    }

    @Test
    void decodesSeveralChunksIntoOneDictionary() {
        WireOutput out = new WireOutput(64);
        out.writeInt64(1); // key version
        out.writeInt64(0x600); // chunk 1: UInt8 indexes
        out.writeInt64(2).writeString("a").writeString("b");
        out.writeInt64(3).writeByte(0).writeByte(1).writeByte(0);
        out.writeInt64(0x601); // chunk 2: UInt16 indexes, its own keys
        out.writeInt64(2).writeString("c").writeString("a");
        out.writeInt64(3).writeInt16(1).writeInt16(0).writeInt16(1);
        out.writeInt64(0x603); // chunk 3: UInt64 indexes
        out.writeInt64(1).writeString("b");
        out.writeInt64(1).writeInt64(0);

        LowCardinalityColumn c =
                (LowCardinalityColumn)
                        ColumnTestSupport.decode("LowCardinality(String)", out.toByteArray(), 7);

        assertThat(values(c)).containsExactly("a", "b", "a", "a", "c", "a", "b");
        assertThat(c.dictionary().rows()).isEqualTo(3);
        assertThat(c.index(3)).isEqualTo(c.index(0));
    }

    @Test
    void decodesNullableChunksWhereEachKeyZeroIsNull() {
        WireOutput out = new WireOutput(64);
        out.writeInt64(1);
        out.writeInt64(0x600);
        out.writeInt64(3).writeString("").writeString("").writeString("x"); // server layout
        out.writeInt64(3).writeByte(0).writeByte(1).writeByte(2);
        out.writeInt64(0x600);
        out.writeInt64(2).writeString("").writeString("x");
        out.writeInt64(2).writeByte(1).writeByte(0);

        Column c =
                ColumnTestSupport.decode("LowCardinality(Nullable(String))", out.toByteArray(), 5);

        assertThat(values(c)).containsExactly(null, "", "x", "x", null);
    }

    @Test
    void resetStartsANewDictionary() {
        LowCardinalityColumn c = lc("LowCardinality(Nullable(String))");
        c.appendString("old");
        c.appendString("older");
        c.reset();
        c.appendString("new");
        assertThat(c.index(0)).isEqualTo(1);
        assertThat(c.dictionary().rows()).isEqualTo(2);
        assertThat(values(c)).containsExactly("new");
    }

    @Test
    void truncateKeepsKeysButRowsAreGone() {
        LowCardinalityColumn c = lc("LowCardinality(String)");
        c.appendString("keep");
        c.appendString("drop");
        c.truncate(1);
        c.appendString("drop");
        c.appendString("keep");
        assertThat(values(c)).containsExactly("keep", "drop", "keep");
        assertThat(c.dictionary().rows()).isEqualTo(2);
        assertThat(values(ColumnTestSupport.decode("LowCardinality(String)", encode(c), 3)))
                .containsExactly("keep", "drop", "keep");
    }

    @Test
    void aRejectedValueNamesTheRowNotTheDictionarySize() {
        LowCardinalityColumn c = lc("LowCardinality(UInt8)");
        for (int i = 0; i < 1000; i++) {
            c.appendLong(7);
        }
        assertThatThrownBy(() -> c.appendLong(300))
                .isInstanceOf(ColumnValueException.class)
                .hasMessage(
                        "column tag (LowCardinality(UInt8)), row 1000: value 300 is out of range");
        assertThat(c.rows()).isEqualTo(1000);
        assertThat(c.dictionary().rows()).isEqualTo(1);
    }

    @Test
    void manyDistinctStringsSurviveRehashing() {
        LowCardinalityColumn c = lc("LowCardinality(String)");
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 20_000; i++) {
                c.appendString("v" + i);
            }
        }
        assertThat(c.dictionary().rows()).isEqualTo(20_000);
        assertThat(c.index(20_000 + 1234)).isEqualTo(c.index(1234));
    }

    static List<byte[]> malformed() {
        return List.of(
                hex("02 00 00 00 00 00 00 00"), // unknown key version
                hex("01 00 00 00 00 00 00 00  00 07 00 00 00 00 00 00"), // global dictionary
                hex("01 00 00 00 00 00 00 00  00 04 00 00 00 00 00 00"), // no additional keys
                hex("01 00 00 00 00 00 00 00  04 06 00 00 00 00 00 00"), // index type 4
                // index 1 of one key
                hex(
                        "01 00 00 00 00 00 00 00  00 06 00 00 00 00 00 00  01 00 00 00 00 00 00 00"
                                + " 01 61  01 00 00 00 00 00 00 00  01"),
                // two rows where one is expected
                hex(
                        "01 00 00 00 00 00 00 00  00 06 00 00 00 00 00 00  01 00 00 00 00 00 00 00"
                                + " 01 61  02 00 00 00 00 00 00 00  00 00"),
                // a negative key count
                hex("01 00 00 00 00 00 00 00  00 06 00 00 00 00 00 00  ff ff ff ff ff ff ff ff"));
    }

    @Test
    void malformedInputIsAWireException() {
        for (byte[] bytes : malformed()) {
            Column c = ColumnFactory.create("tag", "LowCardinality(String)");
            WireInput in = WireInput.of(bytes);
            assertThatThrownBy(
                            () -> {
                                c.readPrefix(in);
                                c.readData(in, 1);
                            })
                    .as(hex(bytes))
                    .isInstanceOf(WireException.class)
                    .hasMessageContaining("tag");
        }
    }

    @Test
    void lowCardinalityOfCompositeTypesIsRejectedAtCreation() {
        for (String type :
                List.of(
                        "LowCardinality(Array(String))",
                        "LowCardinality(Tuple(String))",
                        "LowCardinality(Nothing)")) {
            assertThatThrownBy(() -> ColumnFactory.create("c", type))
                    .as(type)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unsupported type");
        }
    }

    @Test
    void encodingTwiceGivesTheSameBytes() {
        LowCardinalityColumn c = lc("LowCardinality(String)");
        c.appendString("a");
        assertThat(Arrays.equals(encode(c), encode(c))).isTrue();
    }
}
