package dev.sluice.clickhouse.block;

import static dev.sluice.clickhouse.column.ColumnTestSupport.hex;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NativeBlockCodecTest {
    static final String BLOCK_INFO = "01 00 02 ff ff ff ff 00";

    static byte[] write(Block b, int revision) {
        WireOutput out = new WireOutput(64);
        NativeBlockCodec.write(b, out, revision);
        return out.toByteArray();
    }

    static NativeBlockCodec.Decoded read(byte[] bytes, int revision) {
        WireInput in = WireInput.of(bytes);
        NativeBlockCodec.Decoded d = NativeBlockCodec.read(in, revision);
        assertThat(in.atEnd()).as("block fully consumed").isTrue();
        return d;
    }

    static Block int8Block() {
        Column x = ColumnFactory.create("x", "Int8");
        x.appendLong(1);
        x.appendLong(-1);
        return Block.of(List.of(x));
    }

    @ParameterizedTest
    @ValueSource(ints = {54412, 54460, 54480})
    void theEmptyBlockIsBlockInfoAndTwoZeros(int revision) {
        WireOutput out = new WireOutput(16);
        NativeBlockCodec.writeEmpty(out, revision);
        assertThat(hex(out.toByteArray())).isEqualTo("01 00 02 ff ff ff ff 00 00 00");
        assertThat(write(Block.of(List.of()), revision)).isEqualTo(out.toByteArray());

        NativeBlockCodec.Decoded d = read(out.toByteArray(), revision);
        assertThat(d.block().columnCount()).isZero();
        assertThat(d.block().rows()).isZero();
        assertThat(d.info()).isEqualTo(new NativeBlockCodec.Info(false, -1));
    }

    @Test
    void httpRevisionZeroHasNoBlockInfoAndNoCustomSerializationByte() {
        byte[] bytes = write(int8Block(), 0);
        assertThat(hex(bytes)).isEqualTo("01 02 01 78 04 49 6e 74 38 01 ff");
        assertThat(values(read(bytes, 0).block().column(0))).containsExactly(1L, -1L);

        WireOutput empty = new WireOutput(16);
        NativeBlockCodec.writeEmpty(empty, 0);
        assertThat(hex(empty.toByteArray())).isEqualTo("00 00");
    }

    @Test
    void revision54412HasBlockInfoButNoCustomSerializationByte() {
        byte[] bytes = write(int8Block(), 54412);
        assertThat(hex(bytes)).isEqualTo(BLOCK_INFO + " 01 02 01 78 04 49 6e 74 38 01 ff");
        assertThat(values(read(bytes, 54412).block().column("x"))).containsExactly(1L, -1L);
    }

    @ParameterizedTest
    @ValueSource(ints = {54454, 54460})
    void fromRevision54454EachColumnHasACustomSerializationByte(int revision) {
        byte[] bytes = write(int8Block(), revision);
        assertThat(hex(bytes)).isEqualTo(BLOCK_INFO + " 01 02 01 78 04 49 6e 74 38 00 01 ff");
        assertThat(values(read(bytes, revision).block().column(0))).containsExactly(1L, -1L);
    }

    @Test
    void readingAtTheWrongRevisionFails() {
        byte[] bytes = write(int8Block(), 54460);
        assertThatThrownBy(() -> read(bytes, 0)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void zeroRowsWriteHeadersOnlyEvenForLowCardinality() {
        Column lc = ColumnFactory.create("t", "LowCardinality(String)");
        Column json = ColumnFactory.create("j", "JSON");
        byte[] bytes = write(Block.of(List.of(lc, json)), 54460);

        assertThat(hex(bytes))
                .isEqualTo(
                        BLOCK_INFO
                                + " 02 00"
                                + " 01 74 16 4c 6f 77 43 61 72 64 69 6e 61 6c 69 74 79 28 53 74 72"
                                + " 69 6e 67 29 00"
                                + " 01 6a 04 4a 53 4f 4e 00");
        Block decoded = read(bytes, 54460).block();
        assertThat(decoded.rows()).isZero();
        assertThat(decoded.typeNames()).containsExactly("LowCardinality(String)", "JSON");
    }

    @Test
    void eachColumnCarriesItsOwnPrefixBeforeItsData() {
        Column a = ColumnFactory.create("a", "LowCardinality(String)");
        a.appendString("v");
        Column b = ColumnFactory.create("b", "UInt8");
        b.appendLong(7);
        byte[] bytes = write(Block.of(List.of(a, b)), 0);

        assertThat(hex(bytes))
                .isEqualTo(
                        "02 01"
                                + " 01 61 16 4c 6f 77 43 61 72 64 69 6e 61 6c 69 74 79 28 53 74 72"
                                + " 69 6e 67 29"
                                + " 01 00 00 00 00 00 00 00" // a: prefix
                                + " 00 06 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01 76"
                                + " 01 00 00 00 00 00 00 00 00" // a: data
                                + " 01 62 05 55 49 6e 74 38 07"); // b
        Block decoded = read(bytes, 0).block();
        assertThat(decoded.column("a").getString(0)).isEqualTo("v");
        assertThat(decoded.column("b").getLong(0)).isEqualTo(7);
    }

    @Test
    void headerTypeNamesAreSentAsTheServerSpelledThem() {
        Block header =
                Block.forHeader(
                        List.of("price", "at"), List.of("Decimal32(2)", "DateTime64(3,'UTC')"));
        header.column(0).appendLong(5);
        header.column(1).appendLong(0);
        byte[] bytes = write(header, 54460);

        Block decoded = read(bytes, 54460).block();
        assertThat(decoded.typeNames()).containsExactly("Decimal32(2)", "DateTime64(3,'UTC')");
        assertThat(decoded.column("price").getString(0)).isEqualTo("5.00");
        assertThat(Block.of(header.columns()).typeNames())
                .containsExactly("Decimal(9, 2)", "DateTime64(3, 'UTC')");
    }

    @Test
    void columnsOfDifferentLengthsCannotBeWritten() {
        Column x = ColumnFactory.create("x", "UInt8");
        Column y = ColumnFactory.create("y", "String");
        x.appendLong(1);
        Block b = Block.of(List.of(x, y));
        assertThatThrownBy(() -> write(b, 54460))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("column y has 0 rows but x has 1");
    }

    @Test
    void resetAndTruncateApplyToEveryColumn() {
        Column x = ColumnFactory.create("x", "UInt8");
        ArrayColumn y = (ArrayColumn) ColumnFactory.create("y", "Array(String)");
        Block b = Block.of(List.of(x, y));
        for (int i = 0; i < 3; i++) {
            x.appendLong(i);
            y.elements().appendString("s" + i);
            y.endArray();
        }
        x.appendLong(9); // a record that failed half-way
        b.truncate(3);
        assertThat(b.rows()).isEqualTo(3);
        b.truncate(1);
        assertThat(values(read(write(b, 54460), 54460).block().column("y")))
                .containsExactly(List.of("s0"));
        b.reset();
        assertThat(b.rows()).isZero();
        // BlockInfo 8, counts 2, "x" UInt8 + custom byte 9, "y" Array(String) + custom byte 17
        assertThat(write(b, 54460)).hasSize(36);
    }

    @Test
    void blockInfoFieldsAreDecoded() {
        byte[] bytes = hex("01 01 02 de 07 00 00 00 00 00");
        assertThat(read(bytes, 54460).info()).isEqualTo(new NativeBlockCodec.Info(true, 2014));
    }

    @Test
    void blockInfoOutOfOrderBucketsAreSkipped() {
        byte[] bytes = hex("01 00 02 ff ff ff ff 03 02 01 00 00 00 02 00 00 00 00 00 00");
        assertThat(read(bytes, 54480).block().columnCount()).isZero();
    }

    @Test
    void unknownBlockInfoFieldIsAWireException() {
        assertThatThrownBy(() -> read(hex("04 00 00 00"), 54460))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("BlockInfo field 4");
    }

    @Test
    void customSerializationIsRefusedByName() {
        byte[] bytes = write(int8Block(), 54460);
        bytes[8 + 2 + 2 + 5] = 1; // the has_custom byte of column x
        assertThatThrownBy(() -> read(bytes, 54460))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("column x (Int8)")
                .hasMessageContaining("custom serialization");
    }

    @Test
    void unsupportedTypesNameTheColumn() {
        byte[] bytes = hex("01 01 01 70 05 50 6f 69 6e 74");
        assertThatThrownBy(() -> read(bytes, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported type Point in column p");
    }

    @Test
    void absurdCountsAreWireExceptions() {
        // 2^32 columns; then one column, two billion rows of UInt64 with 8 bytes present.
        assertThatThrownBy(() -> read(hex("80 80 80 80 10 00"), 0))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("column count");
        byte[] rows = hex("01 ef ff ff ff 07 01 61 06 55 49 6e 74 36 34 01 02 03 04 05 06 07 08");
        assertThatThrownBy(() -> read(rows, 0)).isInstanceOf(WireException.class);
    }

    @Test
    void aHugeNameLengthIsAWireExceptionNotAnAllocation() {
        // One column whose name claims 1 GiB.
        byte[] bytes = hex("01 01 80 80 80 80 04 61 62");
        assertThatThrownBy(() -> read(bytes, 0)).isInstanceOf(WireException.class);
    }
}
