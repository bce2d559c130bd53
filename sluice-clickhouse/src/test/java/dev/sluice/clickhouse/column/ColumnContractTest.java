package dev.sluice.clickhouse.column;

import static dev.sluice.clickhouse.column.ColumnTestSupport.encode;
import static dev.sluice.clickhouse.column.ColumnTestSupport.encodeData;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same set of checks for every column type (STYLE.md): round trip, zero rows, short read and
 * EOF, reset, truncate, defaults. Rows are random but seeded, and built through the public append
 * API only. Golden bytes are in {@link ColumnGoldenTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ColumnContractTest {

    static List<String> types() {
        return List.of(
                "Int8",
                "Int16",
                "Int32",
                "Int64",
                "UInt8",
                "UInt16",
                "UInt32",
                "UInt64",
                "Int128",
                "Int256",
                "UInt128",
                "UInt256",
                "Float32",
                "Float64",
                "BFloat16",
                "Bool",
                "String",
                "FixedString(5)",
                "Date",
                "Date32",
                "DateTime",
                "DateTime('Europe/Amsterdam')",
                "DateTime64(3)",
                "DateTime64(9, 'UTC')",
                "Decimal(9, 2)",
                "Decimal(18, 18)",
                "Decimal(38, 10)",
                "Decimal(76, 0)",
                "Enum8('a' = -128, 'b' = 0, 'c' = 127)",
                "Enum16('x' = -32768, 'y\\'q' = 32767)",
                "UUID",
                "IPv4",
                "IPv6",
                "Nothing",
                "JSON",
                "SimpleAggregateFunction(sum, UInt64)",
                "Nullable(String)",
                "Nullable(Int32)",
                "Nullable(Decimal(18, 4))",
                "Nullable(FixedString(2))",
                "Nullable(Nothing)",
                "Array(String)",
                "Array(Nullable(UInt8))",
                "Array(Array(Int16))",
                "Array(FixedString(3))",
                "Array(LowCardinality(String))",
                "Array(LowCardinality(Nullable(String)))",
                "Tuple(String, Int64)",
                "Tuple(a Nullable(String), b Array(UInt8), c LowCardinality(String))",
                "Map(String, UInt64)",
                "Map(LowCardinality(String), Array(Nullable(Float64)))",
                "Nested(a UInt8, b String)",
                "LowCardinality(String)",
                "LowCardinality(Nullable(String))",
                "LowCardinality(FixedString(3))",
                "LowCardinality(UInt64)",
                "LowCardinality(Nullable(Date))");
    }

    private static Column build(String type, long seed, int rows) {
        Column c = ColumnFactory.create("c", type);
        RandomRows.append(c, new Random(seed), rows);
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void roundTripsRandomRows(String type) {
        for (long seed = 1; seed <= 5; seed++) {
            int rows = 1 + new Random(seed).nextInt(300);
            Column original = build(type, seed, rows);
            byte[] bytes = encode(original);

            Column decoded = ColumnTestSupport.decode(type, bytes, rows);

            assertThat(decoded.rows()).isEqualTo(rows);
            assertThat(values(decoded)).isEqualTo(values(original));
            assertThat(encode(decoded)).isEqualTo(bytes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void decodesFromAReaderThatReturnsOneByteAtATime(String type) {
        Column original = build(type, 7, 120);
        byte[] bytes = encode(original);

        Column decoded =
                ColumnTestSupport.decode(type, ColumnTestSupport.trickle(bytes), original.rows());

        assertThat(values(decoded)).isEqualTo(values(original));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void encodesTheSameBytesIntoASmallDrainingBuffer(String type) {
        Column c = build(type, 9, 200);
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        WireOutput out = new WireOutput(16, (buf, off, len) -> sink.write(buf, off, len));
        c.writePrefix(out);
        c.writeData(out);
        out.flush();

        assertThat(sink.toByteArray()).isEqualTo(encode(c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void zeroRowsEncodeNoDataAndDecodeWithoutReading(String type) {
        Column empty = ColumnFactory.create("c", type);
        assertThat(encodeData(empty)).isEmpty();
        assertThat(empty.dataBytes()).isZero();

        Column decoded = ColumnFactory.create("c", type);
        decoded.readData(WireInput.of(new byte[0]), 0);
        assertThat(decoded.rows()).isZero();
        assertThat(encodeData(decoded)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void everyTruncationOfTheInputIsAWireException(String type) {
        Column original = build(type, 11, 25);
        byte[] bytes = encode(original);
        assertThat(bytes).isNotEmpty();

        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] shorter = Arrays.copyOf(bytes, cut);
            Column c = ColumnFactory.create("c", type);
            WireInput in = WireInput.of(shorter);
            assertThatThrownBy(
                            () -> {
                                c.readPrefix(in);
                                c.readData(in, 25);
                            })
                    .as("cut at %d of %d", cut, bytes.length)
                    .isInstanceOf(WireException.class)
                    .hasMessageContaining("end of stream");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void emptyInputIsAWireException(String type) {
        Column c = ColumnFactory.create("c", type);
        WireInput in = WireInput.of(new byte[0]);
        assertThatThrownBy(
                        () -> {
                            c.readPrefix(in);
                            c.readData(in, 50);
                        })
                .isInstanceOf(WireException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void aCorruptRowCountEndsAtTheEndOfInputNotInAHugeAllocation(String type) {
        // Valid bytes for 10 rows, read as if the block had two billion: buffers must grow with
        // the input, so this is a WireException and not an OutOfMemoryError.
        byte[] bytes = encode(build(type, 51, 10));
        Column c = ColumnFactory.create("c", type);
        WireInput in = WireInput.of(bytes);
        assertThatThrownBy(
                        () -> {
                            c.readPrefix(in);
                            c.readData(in, Integer.MAX_VALUE - 16);
                        })
                .isInstanceOf(WireException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void resetKeepsCapacityAndTheNextBatchEncodesLikeAFreshColumn(String type) {
        Column reused = build(type, 21, 500);
        Object storage = storage(reused);
        reused.reset();
        assertThat(reused.rows()).isZero();
        assertThat(encodeData(reused)).isEmpty();
        if (storage != null) {
            assertThat(storage(reused)).isSameAs(storage);
        }

        RandomRows.append(reused, new Random(22), 40);
        Column fresh = build(type, 22, 40);

        assertThat(encode(reused)).isEqualTo(encode(fresh));
        assertThat(values(reused)).isEqualTo(values(fresh));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void truncateUndoesAppends(String type) {
        Column c = build(type, 31, 30);
        RandomRows.append(c, new Random(32), 17);
        c.truncate(30);
        assertThat(c.rows()).isEqualTo(30);
        RandomRows.append(c, new Random(33), 5);

        Column expected = build(type, 31, 30);
        RandomRows.append(expected, new Random(33), 5);

        assertThat(values(c)).isEqualTo(values(expected));
        if (!type.contains("LowCardinality")) {
            assertThat(encode(c)).isEqualTo(encode(expected));
        }
        // LowCardinality keeps dictionary keys of truncated rows: the bytes may differ, the
        // decoded values may not.
        Column decoded = ColumnTestSupport.decode(type, encode(c), c.rows());
        assertThat(values(decoded)).isEqualTo(values(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void truncateOutsideTheRowsIsRejected(String type) {
        Column c = build(type, 41, 3);
        assertThatThrownBy(() -> c.truncate(4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> c.truncate(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(c.rows()).isEqualTo(3);
        c.truncate(0);
        assertThat(c.rows()).isZero();
        assertThat(encodeData(c)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void defaultsRoundTrip(String type) {
        Column c = ColumnFactory.create("c", type);
        for (int i = 0; i < 3; i++) {
            c.appendDefault();
        }
        Column decoded = ColumnTestSupport.decode(type, encode(c), 3);
        assertThat(values(decoded)).isEqualTo(values(c));
    }

    /** The array that must survive reset(), where a column exposes it. */
    private static Object storage(Column c) {
        if (c instanceof FixedWidthColumn f) {
            return f.rawData();
        }
        if (c instanceof StringColumn s) {
            return s.rawBytes();
        }
        if (c instanceof NullableColumn n) {
            return storage(n.inner());
        }
        if (c instanceof ArrayColumn a) {
            return storage(a.elements());
        }
        if (c instanceof LowCardinalityColumn lc) {
            return storage(lc.dictionary());
        }
        return null;
    }
}
