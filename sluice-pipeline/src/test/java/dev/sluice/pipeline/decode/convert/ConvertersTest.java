package dev.sluice.pipeline.decode.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.clickhouse.types.TypeParser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every conversion from text, numbers, booleans and NULL, with its edges and its errors. */
class ConvertersTest {

    /** The value {@code text} becomes in a column of {@code type}. */
    static Object text(String type, String text) {
        Column c = ColumnFactory.create("c", type);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        Converters.forType(TypeParser.parse(type)).text(c, b, 0, b.length);
        assertThat(c.rows()).isEqualTo(1);
        return c.getObject(0);
    }

    static Object number(String type, String text) {
        Column c = ColumnFactory.create("c", type);
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        Converters.forType(TypeParser.parse(type)).number(c, b, 0, b.length);
        return c.getObject(0);
    }

    /** The reason {@code text} is refused; the column must be left without a row. */
    static String textError(String type, String text) {
        Column c = ColumnFactory.create("c", type);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        try {
            Converters.forType(TypeParser.parse(type)).text(c, b, 0, b.length);
        } catch (ConversionException | ColumnValueException e) {
            assertThat(c.rows()).as("no row after a refusal").isZero();
            return e.getMessage();
        }
        throw new AssertionError(text + " was accepted as " + c.getObject(0));
    }

    static long seconds(String iso) {
        return java.time.Instant.parse(iso).getEpochSecond();
    }

    @Test
    void integersAcceptSignsAndEdgesAndRefuseOverflow() {
        assertThat(text("Int8", "-128")).isEqualTo(-128L);
        assertThat(text("Int8", "+127")).isEqualTo(127L);
        assertThat(text("UInt8", "255")).isEqualTo(255L);
        assertThat(text("Int64", "-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(text("Int64", "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(text("UInt64", "18446744073709551615"))
                .isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(text("UInt32", "")).as("empty is 0, as in ClickHouse").isEqualTo(0L);
        assertThat(text("Int32", "5.0")).as("integral decimals").isEqualTo(5L);
        assertThat(text("Int32", "1e3")).isEqualTo(1000L);
        assertThat(textError("UInt8", "300")).contains("value 300 is out of range");
        assertThat(textError("UInt32", "-5")).contains("value -5 is out of range");
        assertThat(textError("Int64", "9223372036854775808")).contains("out of range");
        assertThat(textError("UInt64", "18446744073709551616")).contains("out of range");
        assertThat(textError("Int32", "5.5")).contains("'5.5' is not an integer");
        assertThat(textError("Int32", "abc")).contains("'abc' is not an integer");
        assertThat(textError("Int32", "-")).contains("is not an integer");
        assertThat(textError("Int32", " 5")).contains("is not an integer");
        assertThat(textError("Int32", "0x10")).contains("is not an integer");
        assertThat(textError("Int32", "1e999999999")).contains("is not an integer");
    }

    @Test
    void wideIntegers() {
        assertThat(text("Int128", "-170141183460469231731687303715884105728"))
                .isEqualTo(new BigInteger("-170141183460469231731687303715884105728"));
        assertThat(
                        text(
                                "UInt256",
                                "115792089237316195423570985008687907853269984665640564039457584007913129639935"))
                .isEqualTo(BigInteger.TWO.pow(256).subtract(BigInteger.ONE));
        assertThat(text("UInt128", "42")).isEqualTo(BigInteger.valueOf(42));
        assertThat(textError("UInt128", "-1")).contains("out of range");
        assertThat(textError("Int128", "170141183460469231731687303715884105728"))
                .contains("out of range");
    }

    @Test
    void floats() {
        assertThat(text("Float64", "1.5")).isEqualTo(1.5);
        assertThat(text("Float64", "-0.1e-3")).isEqualTo(-0.1e-3);
        assertThat(text("Float64", ".5")).isEqualTo(0.5);
        assertThat(text("Float64", "1.")).isEqualTo(1.0);
        assertThat(text("Float64", "")).isEqualTo(0.0);
        assertThat(text("Float64", "inf")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(text("Float64", "-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat((Double) text("Float64", "nan")).isNaN();
        assertThat((Double) text("Float64", "-nan")).isNaN();
        assertThat(text("Float64", "4.9e-324")).isEqualTo(Double.MIN_VALUE);
        assertThat(text("Float64", "1.7976931348623157e308")).isEqualTo(Double.MAX_VALUE);
        assertThat(text("Float64", "0.30000000000000004")).isEqualTo(0.1 + 0.2);
        assertThat(text("Float32", "3.4028235e38")).isEqualTo(Float.MAX_VALUE);
        assertThat(textError("Float32", "1e39")).contains("out of range");
        assertThat(textError("Float64", "1.5x")).contains("'1.5x' is not a number");
        assertThat(textError("Float64", "0x1p3")).contains("is not a number");
        assertThat(textError("Float64", "1d")).contains("is not a number");
        assertThat(textError("Float64", "e5")).contains("is not a number");
    }

    @Test
    void decimalsAreExact() {
        assertThat(text("Decimal(9, 2)", "1.2")).isEqualTo(new BigDecimal("1.20"));
        assertThat(text("Decimal(9, 2)", "-0.01")).isEqualTo(new BigDecimal("-0.01"));
        assertThat(text("Decimal(9, 2)", "1.230")).isEqualTo(new BigDecimal("1.23"));
        assertThat(text("Decimal(9, 2)", "1e2")).isEqualTo(new BigDecimal("100.00"));
        assertThat(text("Decimal(9, 2)", "")).isEqualTo(new BigDecimal("0.00"));
        assertThat(text("Decimal(9, 2)", "9999999.99")).isEqualTo(new BigDecimal("9999999.99"));
        assertThat(text("Decimal(18, 8)", "0.00000001")).isEqualTo(new BigDecimal("0.00000001"));
        assertThat(text("Decimal(38, 10)", "-9999999999999999999999999999.9999999999"))
                .isEqualTo(new BigDecimal("-9999999999999999999999999999.9999999999"));
        assertThat(text("Decimal(76, 0)", "1" + "0".repeat(75)))
                .isEqualTo(new BigDecimal("1" + "0".repeat(75)));
        assertThat(number("Decimal(20, 18)", "0.123456789012345678"))
                .as("no trip through double")
                .isEqualTo(new BigDecimal("0.123456789012345678"));
        assertThat(textError("Decimal(9, 2)", "1.234"))
                .contains("value 1.234 has more than 2 fractional digits");
        assertThat(textError("Decimal(9, 2)", "99999999.99")).contains("out of range");
        assertThat(textError("Decimal(9, 2)", "12a")).contains("is not a decimal number");
        assertThat(textError("Decimal(9, 2)", ".")).contains("is not a decimal number");
    }

    @Test
    void boolsAndStrings() {
        assertThat(text("Bool", "true")).isEqualTo(1L);
        assertThat(text("Bool", "FALSE")).isEqualTo(0L);
        assertThat(text("Bool", "1")).isEqualTo(1L);
        assertThat(textError("Bool", "yes")).contains("is not a boolean");
        assertThat(text("String", "naïve\0\t")).isEqualTo("naïve\0\t");
        assertThat(text("String", "")).isEqualTo("");
        assertThat(text("FixedString(4)", "ab")).isEqualTo(new byte[] {'a', 'b', 0, 0});
        assertThat(text("FixedString(4)", "abcd"))
                .isEqualTo("abcd".getBytes(StandardCharsets.US_ASCII));
        assertThat(textError("FixedString(4)", "abcde")).contains("does not fit at most 4 bytes");
        Column c = ColumnFactory.create("c", "String");
        Converters.forType(TypeParser.parse("String")).bool(c, true);
        Converters.forType(TypeParser.parse("String")).integer(c, -42);
        assertThat(c.getObject(0)).isEqualTo("true");
        assertThat(c.getObject(1)).isEqualTo("-42");
    }

    @Test
    void dates() {
        assertThat(text("Date", "2024-02-29")).isEqualTo(19782L);
        assertThat(text("Date", "1970-01-01")).isEqualTo(0L);
        assertThat(text("Date", "2149-06-06")).isEqualTo(65535L);
        assertThat(text("Date", "2024-1-5")).as("one-digit month and day").isEqualTo(19727L);
        assertThat(text("Date", "19782")).as("digits are days").isEqualTo(19782L);
        assertThat(text("Date32", "1900-01-01")).isEqualTo(-25567L);
        assertThat(textError("Date", "2149-06-07")).contains("outside the range of Date");
        assertThat(textError("Date", "1969-12-31")).contains("outside the range of Date");
        assertThat(textError("Date", "2023-02-29")).contains("is not a date");
        assertThat(textError("Date", "2024-13-01")).contains("is not a date");
        assertThat(textError("Date", "")).contains("is not a date");
        assertThat(textError("Date", "20240101")).contains("is not a date");
    }

    @Test
    void dateTimesFromTextInUtcOrWithOffsets() {
        assertThat(text("DateTime", "2024-01-02 03:04:05"))
                .isEqualTo(seconds("2024-01-02T03:04:05Z"));
        assertThat(text("DateTime", "2024-01-02T03:04:05Z"))
                .isEqualTo(seconds("2024-01-02T03:04:05Z"));
        assertThat(text("DateTime", "2024-01-02T03:04:05.999+02:00"))
                .as("fractions are cut, offsets applied")
                .isEqualTo(seconds("2024-01-02T01:04:05Z"));
        assertThat(text("DateTime", "2024-01-02T03:04-0130"))
                .isEqualTo(seconds("2024-01-02T04:34:00Z"));
        assertThat(text("DateTime", "2024-01-02")).isEqualTo(seconds("2024-01-02T00:00:00Z"));
        assertThat(text("DateTime", "1700000000"))
                .as("digits are epoch seconds")
                .isEqualTo(1700000000L);
        assertThat(text("DateTime", "1700000000.9")).isEqualTo(1700000000L);
        assertThat(text("DateTime", "1970-01-01 00:00:00")).isEqualTo(0L);
        assertThat(text("DateTime", "2106-02-07 06:28:15")).isEqualTo(4294967295L);
        assertThat(textError("DateTime", "2106-02-07 06:28:16"))
                .contains("outside the range of DateTime");
        assertThat(textError("DateTime", "1969-12-31 23:59:59")).contains("outside the range");
        assertThat(textError("DateTime", "2024-01-02 24:00:00")).contains("is not a DateTime");
        assertThat(textError("DateTime", "2024-02-30 00:00:00")).contains("is not a DateTime");
        assertThat(textError("DateTime", "2024-01-02 03:04:05 UTC")).contains("is not a DateTime");
        assertThat(textError("DateTime", "")).contains("empty value");
        assertThat(textError("DateTime", "soon")).contains("'soon' is not a DateTime");
    }

    @Test
    void dateTimeTextWithoutOffsetIsInTheColumnsZone() {
        assertThat(text("DateTime('Asia/Kolkata')", "2024-01-02 05:30:00"))
                .isEqualTo(seconds("2024-01-02T00:00:00Z"));
        assertThat(text("DateTime('Europe/Berlin')", "2024-07-01 02:00:00"))
                .as("summer time")
                .isEqualTo(seconds("2024-07-01T00:00:00Z"));
        assertThat(text("DateTime('Europe/Berlin')", "2024-07-01T02:00:00Z"))
                .as("an explicit offset wins")
                .isEqualTo(seconds("2024-07-01T02:00:00Z"));
    }

    @Test
    void dateTime64TakesTicksFromIntegersAndSecondsFromFractions() {
        long s = seconds("2024-01-02T03:04:05Z");
        assertThat(text("DateTime64(3)", "2024-01-02 03:04:05.123456")).isEqualTo(s * 1000 + 123);
        assertThat(text("DateTime64(6, 'UTC')", "2024-01-02T03:04:05.1Z"))
                .isEqualTo(s * 1_000_000 + 100_000);
        assertThat(text("DateTime64(9)", "2024-01-02 03:04:05.123456789"))
                .isEqualTo(s * 1_000_000_000L + 123456789);
        assertThat(number("DateTime64(3)", "1700000000123"))
                .as("integer = ticks")
                .isEqualTo(1700000000123L);
        assertThat(number("DateTime64(3)", "1700000000.5"))
                .as("fraction = seconds")
                .isEqualTo(1700000000500L);
        assertThat(number("DateTime64(3)", "-1.5")).isEqualTo(-1500L);
        assertThat(number("DateTime64(0)", "-1.5")).as("cut toward the past").isEqualTo(-2L);
        assertThat(number("DateTime64(3)", "1.7e9")).isEqualTo(1700000000000L);
        assertThat(text("DateTime64(3)", "1900-01-01 00:00:00")).isEqualTo(-2208988800000L);
        assertThat(textError("DateTime64(3)", "2300-01-01 00:00:00")).contains("outside the range");
    }

    @Test
    void uuidsAndAddresses() {
        String u = "550e8400-e29b-41d4-a716-446655440000";
        assertThat(text("UUID", u)).isEqualTo(UUID.fromString(u));
        assertThat(text("UUID", u.toUpperCase())).isEqualTo(UUID.fromString(u));
        assertThat(text("UUID", "ffffffff-ffff-ffff-ffff-ffffffffffff"))
                .isEqualTo(new UUID(-1, -1));
        assertThat(textError("UUID", "550e8400e29b41d4a716446655440000")).contains("is not a UUID");
        assertThat(textError("UUID", "550e8400-e29b-41d4-a716-44665544000g"))
                .contains("is not a UUID");
        assertThat(text("IPv4", "192.168.0.1")).isEqualTo(0xC0A80001L);
        assertThat(text("IPv4", "255.255.255.255")).isEqualTo(0xFFFFFFFFL);
        assertThat(number("IPv4", "3232235521")).isEqualTo(0xC0A80001L);
        assertThat(textError("IPv4", "256.0.0.1")).contains("is not an IPv4 address");
        assertThat(textError("IPv4", "1.2.3")).contains("is not an IPv4 address");
        assertThat(ipv6("::")).isEqualTo("00000000000000000000000000000000");
        assertThat(ipv6("::1")).isEqualTo("00000000000000000000000000000001");
        assertThat(ipv6("2001:db8::ff00:42:8329")).isEqualTo("20010db8000000000000ff0000428329");
        assertThat(ipv6("1:2:3:4:5:6:7:8")).isEqualTo("00010002000300040005000600070008");
        assertThat(ipv6("::ffff:1.2.3.4")).isEqualTo("00000000000000000000ffff01020304");
        assertThat(ipv6("1.2.3.4")).as("IPv4 maps").isEqualTo("00000000000000000000ffff01020304");
        assertThat(ipv6("fe80::")).isEqualTo("fe800000000000000000000000000000");
        for (String bad : List.of(":", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "1:", "g::")) {
            assertThat(textError("IPv6", bad)).as(bad).contains("is not an IPv6 address");
        }
    }

    private static String ipv6(String text) {
        byte[] b = (byte[]) text("IPv6", text);
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    @Test
    void enumsByNameOrValue() {
        String type = "Enum8('a' = -128, 'b c' = 0, 'é' = 127)";
        assertThat(text(type, "a")).isEqualTo("a");
        assertThat(text(type, "b c")).isEqualTo("b c");
        assertThat(text(type, "é")).isEqualTo("é");
        assertThat(text(type, "127")).as("a number that is no name").isEqualTo("é");
        assertThat(number(type, "-128")).isEqualTo("a");
        assertThat(textError(type, "A")).contains("'A' is not a name of Enum8");
        assertThat(textError(type, "5")).contains("not one of the enum's values");
        assertThat(textError("Enum16('x' = 1000)", "")).contains("is not a name");
    }

    @Test
    void nullableAndLowCardinality() {
        Column c = ColumnFactory.create("c", "Nullable(Decimal(9, 2))");
        Converter conv = Converters.forType(TypeParser.parse("Nullable(Decimal(9, 2))"));
        byte[] b = "1.5".getBytes(StandardCharsets.US_ASCII);
        conv.text(c, b, 0, 3);
        conv.nul(c);
        assertThat(conv.nullable()).isTrue();
        assertThat(c.getObject(0)).isEqualTo(new BigDecimal("1.50"));
        assertThat(c.getObject(1)).isNull();
        assertThat(text("LowCardinality(String)", "x")).isEqualTo("x");
        assertThat(text("LowCardinality(Nullable(String))", "x")).isEqualTo("x");
        Column lc = ColumnFactory.create("c", "LowCardinality(Nullable(String))");
        Converters.forType(TypeParser.parse("LowCardinality(Nullable(String))")).nul(lc);
        assertThat(lc.getObject(0)).isNull();
        assertThat(text("LowCardinality(Nullable(Date))", "2024-01-01")).isEqualTo(19723L);
        Column plain = ColumnFactory.create("c", "Int32");
        assertThatThrownBy(() -> Converters.forType(TypeParser.parse("Int32")).nul(plain))
                .isInstanceOf(ColumnValueException.class)
                .hasMessageContaining("not Nullable");
    }

    @Test
    void arraysTuplesAndMapsFromText() {
        assertThat(text("Array(Int32)", "[]")).isEqualTo(List.of());
        assertThat(text("Array(Int32)", " [ 1 , -2,3 ] ")).isEqualTo(List.of(1L, -2L, 3L));
        assertThat(text("Array(String)", "['a','b\\'c','d\\\\e','\\x41']"))
                .isEqualTo(List.of("a", "b'c", "d\\e", "A"));
        assertThat(text("Array(String)", "[\"a,b\"]"))
                .as("double quotes too")
                .isEqualTo(List.of("a,b"));
        assertThat(text("Array(Nullable(String))", "['x',NULL,null]"))
                .isEqualTo(Arrays.asList("x", null, null));
        assertThat(text("Array(Int32)", "[NULL]")).as("NULL is the default").isEqualTo(List.of(0L));
        assertThat(text("Array(Array(String))", "[[],['a',']'],['[']]"))
                .isEqualTo(List.of(List.of(), List.of("a", "]"), List.of("[")));
        assertThat(text("Array(DateTime)", "['2024-01-01 00:00:00',1700000000]"))
                .isEqualTo(List.of(1704067200L, 1700000000L));
        assertThat(text("Tuple(Int8, String)", "(1,'a')")).isEqualTo(List.of(1L, "a"));
        assertThat(text("Tuple(Int8, Array(String))", "( -1 , ['x'] )"))
                .isEqualTo(List.of(-1L, List.of("x")));
        assertThat(text("Map(String, UInt8)", "{'a':1, 'b' : 2}"))
                .isEqualTo(Map.of("a", 1L, "b", 2L));
        assertThat(text("Map(String, Array(UInt8))", "{}")).isEqualTo(Map.of());
        assertThat(textError("Array(Int32)", "[1,2")).contains("expected ',' or ']'");
        assertThat(textError("Array(Int32)", "1,2")).contains("expected '['");
        assertThat(textError("Array(Int32)", "[1,,2]")).contains("a value is missing");
        assertThat(textError("Array(Int32)", "[1] x")).contains("unexpected text");
        assertThat(textError("Array(UInt8)", "[1,300]")).contains("value 300 is out of range");
        assertThat(textError("Array(String)", "['a]")).contains("not closed");
        assertThat(textError("Tuple(Int8, String)", "(1)")).contains("expected ','");
        assertThat(textError("Tuple(Int8, String)", "(1,'a',2)")).contains("expected ')'");
    }

    @Test
    void computedValuesConvertByTargetType() {
        Column date = ColumnFactory.create("d", "Date");
        Column dt = ColumnFactory.create("t", "DateTime");
        Column dt64 = ColumnFactory.create("t", "DateTime64(3)");
        Column s = ColumnFactory.create("s", "String");
        Converters.forType(TypeParser.parse("Date")).dateTime(date, 86400 * 3 + 5);
        Converters.forType(TypeParser.parse("DateTime")).date(dt, 2);
        Converters.forType(TypeParser.parse("DateTime64(3)")).dateTime(dt64, 7);
        Converters.forType(TypeParser.parse("String")).dateTime(s, 1704067200L);
        Converters.forType(TypeParser.parse("String")).date(s, 0);
        assertThat(date.getObject(0)).isEqualTo(3L);
        assertThat(dt.getObject(0)).isEqualTo(2 * 86400L);
        assertThat(dt64.getObject(0)).isEqualTo(7000L);
        assertThat(s.getObject(0)).isEqualTo("2024-01-01 00:00:00");
        assertThat(s.getObject(1)).isEqualTo("1970-01-01");
    }

    @Test
    void nothingHasNoConverter() {
        assertThatThrownBy(() -> Converters.forType(TypeParser.parse("Nothing")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
