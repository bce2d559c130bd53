package dev.sluice.clickhouse.column;

import static dev.sluice.clickhouse.column.ColumnTestSupport.encode;
import static dev.sluice.clickhouse.column.ColumnTestSupport.encodeData;
import static dev.sluice.clickhouse.column.ColumnTestSupport.hex;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values at and beyond the edges of each type. An accepted value must come back unchanged from a
 * round trip; a rejected one must throw {@link ColumnValueException} naming the column, type, row
 * and value, and leave the column exactly as it was.
 */
class ColumnValueRangeTest {

    static final BigInteger TWO = BigInteger.TWO;

    static BigInteger pow2(int n) {
        return TWO.pow(n);
    }

    static Arguments ok(String type, Consumer<Column> append, Object expected) {
        return Arguments.of(type, append, expected);
    }

    static Arguments bad(String type, Consumer<Column> append, String valueInMessage) {
        return Arguments.of(type, append, valueInMessage);
    }

    static long day(int y, int m, int d) {
        return LocalDate.of(y, m, d).toEpochDay();
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                ok("Int8", c -> c.appendLong(127), 127L),
                ok("Int8", c -> c.appendLong(-128), -128L),
                ok("Int16", c -> c.appendLong(-32768), -32768L),
                ok("Int32", c -> c.appendLong(Integer.MIN_VALUE), (long) Integer.MIN_VALUE),
                ok("Int32", c -> c.appendDouble(-3.0), -3L),
                ok("Int64", c -> c.appendLong(Long.MIN_VALUE), Long.MIN_VALUE),
                ok(
                        "Int64",
                        c -> c.appendBigInteger(BigInteger.valueOf(Long.MAX_VALUE)),
                        Long.MAX_VALUE),
                ok("UInt8", c -> c.appendLong(255), 255L),
                ok("UInt16", c -> c.appendLong(65535), 65535L),
                ok("UInt32", c -> c.appendLong(4294967295L), 4294967295L),
                ok("UInt32", c -> c.appendUnsignedLong(4294967295L), 4294967295L),
                ok("UInt64", c -> c.appendUnsignedLong(-1L), pow2(64).subtract(BigInteger.ONE)),
                ok("UInt64", c -> c.appendUnsignedLong(Long.MIN_VALUE), pow2(63)),
                ok(
                        "UInt64",
                        c -> c.appendBigInteger(pow2(64).subtract(BigInteger.ONE)),
                        pow2(64).subtract(BigInteger.ONE)),
                ok("UInt64", c -> c.appendDouble(0x1p63), pow2(63)),
                ok("UInt64", c -> c.appendLong(Long.MAX_VALUE), Long.MAX_VALUE),
                ok(
                        "Int128",
                        c -> c.appendBigInteger(pow2(127).subtract(BigInteger.ONE)),
                        pow2(127).subtract(BigInteger.ONE)),
                ok("Int128", c -> c.appendBigInteger(pow2(127).negate()), pow2(127).negate()),
                ok("Int128", c -> c.appendLong(-1), BigInteger.ONE.negate()),
                ok("Int128", c -> c.appendUnsignedLong(-1L), pow2(64).subtract(BigInteger.ONE)),
                ok(
                        "Int128",
                        c -> ((BigIntColumn) c).appendInt128(0, Long.MIN_VALUE),
                        pow2(127).negate()),
                ok(
                        "UInt128",
                        c -> c.appendBigInteger(pow2(128).subtract(BigInteger.ONE)),
                        pow2(128).subtract(BigInteger.ONE)),
                ok("UInt128", c -> c.appendUnsignedLong(-1L), pow2(64).subtract(BigInteger.ONE)),
                ok("Int256", c -> c.appendBigInteger(pow2(255).negate()), pow2(255).negate()),
                ok(
                        "Int256",
                        c -> c.appendBigInteger(pow2(255).subtract(BigInteger.ONE)),
                        pow2(255).subtract(BigInteger.ONE)),
                ok(
                        "UInt256",
                        c -> c.appendBigInteger(pow2(256).subtract(BigInteger.ONE)),
                        pow2(256).subtract(BigInteger.ONE)),
                ok("Bool", c -> c.appendBoolean(true), 1L),
                ok(
                        "Decimal(38, 10)",
                        c ->
                                c.appendBigDecimal(
                                        new BigDecimal("-99999999999999999999999999.9999999999")),
                        new BigDecimal("-99999999999999999999999999.9999999999")),
                ok(
                        "Decimal(38, 10)",
                        c ->
                                c.appendBigDecimal(
                                        new BigDecimal("-9999999999999999999999999999.9999999999")),
                        new BigDecimal("-9999999999999999999999999999.9999999999")),
                ok(
                        "Decimal(38, 10)",
                        c ->
                                c.appendBigDecimal(
                                        new BigDecimal("9999999999999999999999999999.9999999999")),
                        new BigDecimal("9999999999999999999999999999.9999999999")),
                ok(
                        "Decimal(9, 2)",
                        c -> c.appendBigDecimal(new BigDecimal("-9999999.99")),
                        new BigDecimal("-9999999.99")),
                ok(
                        "Decimal(9, 2)",
                        c -> c.appendBigDecimal(new BigDecimal("1.5")),
                        new BigDecimal("1.50")),
                ok("Decimal(9, 2)", c -> c.appendDouble(0.1), new BigDecimal("0.10")),
                ok("Decimal(9, 2)", c -> c.appendLong(-9999999), new BigDecimal("-9999999.00")),
                ok(
                        "Decimal(9, 2)",
                        c -> ((DecimalColumn) c).appendUnscaled(-999_999_999),
                        new BigDecimal("-9999999.99")),
                ok(
                        "Decimal(18, 0)",
                        c -> c.appendLong(999_999_999_999_999_999L),
                        new BigDecimal("999999999999999999")),
                ok(
                        "Decimal(76, 0)",
                        c ->
                                c.appendBigInteger(
                                        BigInteger.TEN.pow(76).subtract(BigInteger.ONE).negate()),
                        new BigDecimal(BigInteger.TEN.pow(76).subtract(BigInteger.ONE).negate())),
                ok(
                        "Decimal(76, 38)",
                        c -> ((DecimalColumn) c).appendUnscaled(-5),
                        new BigDecimal(BigInteger.valueOf(-5), 38)),
                ok("Date", c -> c.appendLong(day(2149, 6, 6)), 65535L),
                ok("Date", c -> c.appendLong(0), 0L),
                ok("Date32", c -> c.appendLong(day(1900, 1, 1)), day(1900, 1, 1)),
                ok("Date32", c -> c.appendLong(day(2299, 12, 31)), day(2299, 12, 31)),
                ok(
                        "DateTime",
                        c -> c.appendLong(Instant.parse("2106-02-07T06:28:15Z").getEpochSecond()),
                        4294967295L),
                ok("DateTime64(3)", c -> c.appendLong(-1), -1L),
                ok("Enum8('a' = 1, 'b' = 2)", c -> c.appendLong(2), "b"),
                ok("Enum8('a' = 1, 'b' = 2)", c -> c.appendString("a"), "a"),
                ok("Enum16('neg' = -1000, 'pos' = 1000)", c -> c.appendString("neg"), "neg"),
                ok("Enum16('neg' = -1000, 'pos' = 1000)", Column::appendDefault, "neg"),
                ok("FixedString(3)", c -> c.appendString("é"), "0xc3a900"),
                ok("FixedString(3)", c -> c.appendString("abc"), "0x616263"),
                ok("Float32", c -> c.appendDouble(Float.MAX_VALUE), Float.MAX_VALUE),
                ok("Float32", c -> c.appendDouble(Double.NaN), Float.NaN),
                ok(
                        "Float32",
                        c -> c.appendDouble(Double.POSITIVE_INFINITY),
                        Float.POSITIVE_INFINITY),
                ok(
                        "Float32",
                        c -> c.appendDouble(Double.NEGATIVE_INFINITY),
                        Float.NEGATIVE_INFINITY),
                ok("Float32", c -> c.appendDouble(-0.0), -0.0f),
                ok("Float32", c -> c.appendDouble(1e-50), 0.0f), // underflow rounds, it is no error
                ok("Float64", c -> c.appendDouble(Double.NaN), Double.NaN),
                ok(
                        "Float64",
                        c -> c.appendDouble(Double.NEGATIVE_INFINITY),
                        Double.NEGATIVE_INFINITY),
                ok("Float64", c -> c.appendDouble(Double.MIN_VALUE), Double.MIN_VALUE),
                ok("Float64", c -> c.appendLong(1L << 53), 0x1p53),
                ok("BFloat16", c -> c.appendDouble(Double.NaN), Float.NaN),
                ok(
                        "BFloat16",
                        c -> c.appendDouble(Double.POSITIVE_INFINITY),
                        Float.POSITIVE_INFINITY),
                ok("BFloat16", c -> c.appendDouble(-2.5), -2.5f),
                ok("Nullable(UInt64)", Column::appendNull, null),
                ok(
                        "Nullable(UInt64)",
                        c -> c.appendUnsignedLong(-1L),
                        pow2(64).subtract(BigInteger.ONE)),
                ok("LowCardinality(Nullable(String))", Column::appendNull, null),
                ok("Nothing", Column::appendNull, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void acceptedValuesRoundTrip(String type, Consumer<Column> append, Object expected) {
        Column c = ColumnFactory.create("price", type);
        append.accept(c);
        assertThat(c.rows()).isEqualTo(1);
        assertThat(ColumnTestSupport.normalize(c.getObject(0))).isEqualTo(expected);

        Column decoded = ColumnTestSupport.decode(type, encode(c), 1);
        assertThat(values(decoded)).containsExactly(expected);
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                bad("Int8", c -> c.appendLong(128), "128"),
                bad("Int8", c -> c.appendLong(-129), "-129"),
                bad("Int16", c -> c.appendLong(32768), "32768"),
                bad("Int32", c -> c.appendLong(1L << 31), "2147483648"),
                bad("Int32", c -> c.appendBigInteger(pow2(40)), "1099511627776"),
                bad("Int32", c -> c.appendDouble(1.5), "1.5"),
                bad("Int32", c -> c.appendDouble(Double.NaN), "NaN"),
                bad("Int32", c -> c.appendDouble(Double.POSITIVE_INFINITY), "Infinity"),
                bad("Int64", c -> c.appendBigInteger(pow2(63)), "9223372036854775808"),
                bad("Int64", c -> c.appendUnsignedLong(-1L), "18446744073709551615"),
                bad("Int64", c -> c.appendDouble(0x1p63), "9.223372036854776E18"),
                bad("UInt8", c -> c.appendLong(256), "256"),
                bad("UInt8", c -> c.appendLong(-1), "-1"),
                bad("UInt16", c -> c.appendLong(65536), "65536"),
                bad("UInt32", c -> c.appendLong(4294967296L), "4294967296"),
                bad("UInt32", c -> c.appendUnsignedLong(-1L), "18446744073709551615"),
                bad("UInt64", c -> c.appendLong(-1), "-1"),
                bad("UInt64", c -> c.appendBigInteger(pow2(64)), "18446744073709551616"),
                bad("UInt64", c -> c.appendBigInteger(BigInteger.ONE.negate()), "-1"),
                bad("UInt64", c -> c.appendDouble(0x1p64), "1.8446744073709552E19"),
                bad("Int128", c -> c.appendBigInteger(pow2(127)), pow2(127).toString()),
                bad(
                        "Int128",
                        c -> c.appendBigInteger(pow2(127).negate().subtract(BigInteger.ONE)),
                        "-" + pow2(127).add(BigInteger.ONE)),
                bad("UInt128", c -> c.appendBigInteger(pow2(128)), pow2(128).toString()),
                bad("UInt128", c -> c.appendLong(-1), "-1"),
                bad("UInt128", c -> c.appendBigInteger(BigInteger.ONE.negate()), "-1"),
                bad("Int256", c -> c.appendBigInteger(pow2(255)), pow2(255).toString()),
                bad("UInt256", c -> c.appendBigInteger(pow2(256)), pow2(256).toString()),
                bad("UInt256", c -> ((BigIntColumn) c).appendInt128(1, 2), "128-bit"),
                bad("Bool", c -> c.appendLong(2), "2"),
                bad(
                        "Decimal(38, 10)",
                        c ->
                                c.appendBigDecimal(
                                        new BigDecimal(
                                                "-99999999999999999999999999999.9999999999")),
                        "-99999999999999999999999999999.9999999999"),
                bad(
                        "Decimal(38, 10)",
                        c -> c.appendBigDecimal(new BigDecimal("0.12345678901")),
                        "0.12345678901"),
                bad(
                        "Decimal(9, 2)",
                        c -> c.appendBigDecimal(new BigDecimal("10000000")),
                        "10000000"),
                bad(
                        "Decimal(9, 2)",
                        c -> c.appendBigDecimal(new BigDecimal("-10000000.00")),
                        "-10000000.00"),
                bad("Decimal(9, 2)", c -> c.appendBigDecimal(new BigDecimal("1.005")), "1.005"),
                bad(
                        "Decimal(9, 2)",
                        c -> ((DecimalColumn) c).appendUnscaled(1_000_000_000),
                        "10000000.00"),
                bad("Decimal(9, 2)", c -> c.appendDouble(Double.NaN), "NaN"),
                bad("Decimal(9, 2)", c -> c.appendLong(Long.MIN_VALUE), "-9223372036854775808"),
                bad(
                        "Decimal(18, 0)",
                        c -> c.appendLong(1_000_000_000_000_000_000L),
                        "1000000000000000000"),
                bad(
                        "Decimal(76, 0)",
                        c -> c.appendBigInteger(BigInteger.TEN.pow(76)),
                        BigInteger.TEN.pow(76).toString()),
                bad("Date", c -> c.appendLong(65536), "65536"),
                bad("Date", c -> c.appendLong(-1), "-1"),
                bad(
                        "Date32",
                        c -> c.appendLong(day(1900, 1, 1) - 1),
                        Long.toString(day(1900, 1, 1) - 1)),
                bad(
                        "Date32",
                        c -> c.appendLong(day(2299, 12, 31) + 1),
                        Long.toString(day(2299, 12, 31) + 1)),
                bad("DateTime", c -> c.appendLong(4294967296L), "4294967296"),
                bad("DateTime", c -> c.appendLong(-1), "-1"),
                bad("DateTime('UTC')", c -> c.appendLong(1L << 40), Long.toString(1L << 40)),
                bad("Enum8('a' = 1, 'b' = 2)", c -> c.appendString("c"), "'c'"),
                bad("Enum8('a' = 1, 'b' = 2)", c -> c.appendLong(3), "3"),
                bad("Enum8('a' = 1, 'b' = 2)", c -> c.appendLong(1000), "1000"),
                bad(
                        "Enum8('a' = 1, 'b' = 2)",
                        c -> c.appendLong(Long.MIN_VALUE),
                        "-9223372036854775808"),
                bad("Enum16('neg' = -1000)", c -> c.appendLong(1000), "1000"),
                bad("FixedString(3)", c -> c.appendString("abcd"), "4 bytes"),
                bad("FixedString(3)", c -> c.appendString("日本"), "6 bytes"),
                bad("IPv6", c -> c.appendBytes(new byte[15]), "15 bytes"),
                bad("UUID", c -> c.appendString("not-a-uuid"), "'not-a-uuid'"),
                bad("UUID", c -> c.appendString("1-2-3-4-5"), "'1-2-3-4-5'"),
                bad("Float32", c -> c.appendDouble(1e39), "1.0E39"),
                bad("Float32", c -> c.appendDouble(-Double.MAX_VALUE), "-1.7976931348623157E308"),
                bad("BFloat16", c -> c.appendDouble(1e39), "1.0E39"),
                bad("BFloat16", c -> c.appendDouble(3.4e38), "3.4E38"),
                // wrong kinds
                bad("Int32", c -> c.appendString("5"), "'5'"),
                bad("Int8", Column::appendNull, "NULL"),
                bad("String", c -> c.appendLong(5), "5"),
                bad("String", c -> c.appendDouble(2.5), "2.5"),
                bad("String", c -> c.appendUuid(1, 2), "UUID"),
                bad("Float64", c -> c.appendString("x"), "'x'"),
                bad("Float64", c -> c.appendBigDecimal(new BigDecimal("1.25")), "1.25"),
                bad("UUID", c -> c.appendLong(1), "1"),
                bad("Date", c -> c.appendString("2020-01-01"), "'2020-01-01'"),
                bad("Nothing", c -> c.appendLong(0), "0"),
                bad("Array(UInt8)", c -> c.appendLong(1), "1"),
                bad("Map(String, String)", c -> c.appendString("k"), "'k'"),
                bad("Tuple(String, UInt8)", c -> c.appendString("k"), "'k'"),
                // wrappers: the inner type's check, and nothing appended
                bad("Nullable(Int8)", c -> c.appendLong(200), "200"),
                bad(
                        "Nullable(Decimal(9, 2))",
                        c -> c.appendBigDecimal(new BigDecimal("0.001")),
                        "0.001"),
                bad("LowCardinality(UInt8)", c -> c.appendLong(300), "300"),
                bad("LowCardinality(String)", Column::appendNull, "NULL"),
                bad("LowCardinality(FixedString(2))", c -> c.appendString("abc"), "3 bytes"),
                bad("LowCardinality(Nullable(Date))", c -> c.appendLong(-5), "-5"),
                bad("SimpleAggregateFunction(max, UInt8)", c -> c.appendLong(256), "256"));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("rejected")
    void rejectedValuesNameColumnTypeRowAndValueAndChangeNothing(
            String type, Consumer<Column> append, String value) {
        Column c = ColumnFactory.create("price", type);
        c.appendDefault();
        c.appendDefault();
        byte[] before = encode(c);
        List<Object> valuesBefore = values(c);

        ColumnValueException e =
                catchThrowableOfType(ColumnValueException.class, () -> append.accept(c));

        assertThat(e).as("exception").isNotNull();
        assertThat(e.column()).isEqualTo("price");
        assertThat(e.type()).isEqualTo(c.type().typeName());
        assertThat(e.row()).isEqualTo(2);
        assertThat(e)
                .hasMessageContaining("column price (" + c.type().typeName() + "), row 2: ")
                .hasMessageContaining(value);
        assertThat(c.rows()).isEqualTo(2);
        assertThat(encode(c)).isEqualTo(before);
        assertThat(values(c)).isEqualTo(valuesBefore);
        // and the column still works
        c.appendDefault();
        assertThat(c.rows()).isEqualTo(3);
    }

    @Test
    void rejectedArrayElementNamesTheElementColumnAndLeavesTheArrayUsable() {
        ArrayColumn a = (ArrayColumn) ColumnFactory.create("tags", "Array(UInt8)");
        a.elements().appendLong(1);
        a.endArray();
        a.elements().appendLong(2);

        ColumnValueException e =
                catchThrowableOfType(
                        ColumnValueException.class, () -> a.elements().appendLong(256));

        assertThat(e.column()).isEqualTo("tags.element");
        assertThat(e).hasMessageContaining("256");
        a.abortArray();
        a.elements().appendLong(3);
        a.endArray();
        assertThat(values(a)).containsExactly(List.of(1L), List.of(3L));
    }

    @Test
    @org.junit.jupiter.api.Timeout(5)
    void decimalsWithHugeExponentsAreRejectedWithoutBuildingThem() {
        Column c = ColumnFactory.create("p", "Decimal(18, 2)");
        assertThat(
                        catchThrowableOfType(
                                ColumnValueException.class,
                                () -> c.appendBigDecimal(new BigDecimal("1E+999999999"))))
                .hasMessageEndingWith("value 1E+999999999 is out of range");
        assertThat(
                        catchThrowableOfType(
                                ColumnValueException.class,
                                () -> c.appendBigDecimal(new BigDecimal("-1E-999999999"))))
                .hasMessageContaining("-1E-999999999 has more than 2 fractional digits");
        c.appendBigDecimal(new BigDecimal("0E+999999999"));
        c.appendBigDecimal(new BigDecimal("1.50000000000000000000000000000000000000000000000000"));
        c.appendBigDecimal(new BigDecimal("5E+15"));
        assertThat(values(c))
                .containsExactly(
                        new BigDecimal("0.00"),
                        new BigDecimal("1.50"),
                        new BigDecimal("5000000000000000.00"));
    }

    @Test
    void uuidIsTwoLittleEndianHalvesMostSignificantFirst() {
        Column c = ColumnFactory.create("id", "UUID");
        c.appendString("550e8400-e29b-41d4-a716-446655440000");
        UUID u = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
        c.appendUuid(u.getMostSignificantBits(), u.getLeastSignificantBits());

        String one = "d4 41 9b e2 00 84 0e 55 00 00 44 55 66 44 16 a7";
        assertThat(hex(encodeData(c))).isEqualTo(one + " " + one);
        Column decoded = ColumnTestSupport.decode("UUID", encodeData(c), 2);
        assertThat(decoded.getString(0)).isEqualTo("550e8400-e29b-41d4-a716-446655440000");
        assertThat(decoded.getObject(1)).isEqualTo(u);
    }

    @Test
    void ipv4IsTheNumericAddressLittleEndian() {
        Column c = ColumnFactory.create("ip", "IPv4");
        c.appendLong(0xC0A8_0001L); // 192.168.0.1
        assertThat(hex(encodeData(c))).isEqualTo("01 00 a8 c0");
    }

    @Test
    void bfloat16RoundsToNearestEvenAndKeepsNaNQuiet() {
        Column c = ColumnFactory.create("x", "BFloat16");
        c.appendDouble(1.0); // 0x3F80_0000
        c.appendDouble(Float.intBitsToFloat(0x3F80_8000)); // halfway, even below: down
        c.appendDouble(Float.intBitsToFloat(0x3F81_8000)); // halfway, odd below: up
        c.appendDouble(Float.intBitsToFloat(0x3F80_8001)); // above halfway: up
        c.appendDouble(Float.intBitsToFloat(0x7F80_0001)); // a signalling NaN
        c.appendDouble(Float.intBitsToFloat(0x7F7F_0000)); // the largest BFloat16
        assertThat(hex(encodeData(c))).isEqualTo("80 3f 80 3f 82 3f 81 3f c0 7f 7f 7f");
        assertThat(c.getDouble(4)).isNaN();
    }

    @Test
    void float32KeepsNaNAndInfinityBitsThroughARoundTrip() {
        Column c = ColumnFactory.create("x", "Float32");
        c.appendDouble(Double.NaN);
        c.appendDouble(Double.POSITIVE_INFINITY);
        c.appendDouble(Double.NEGATIVE_INFINITY);
        c.appendDouble(-0.0);
        assertThat(hex(encodeData(c))).isEqualTo("00 00 c0 7f 00 00 80 7f 00 00 80 ff 00 00 00 80");
    }

    @Test
    void dateTimeRangeEndsAtTheLastUInt32Second() {
        Column c = ColumnFactory.create("t", "DateTime");
        c.appendLong(Instant.parse("2106-02-07T06:28:15Z").getEpochSecond());
        assertThat(hex(encodeData(c))).isEqualTo("ff ff ff ff");
        assertThat(LocalDate.ofEpochDay(65535)).isEqualTo(LocalDate.of(2149, 6, 6));
    }
}
