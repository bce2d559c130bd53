package dev.sluice.clickhouse.format;

import static dev.sluice.clickhouse.format.FormatTestSupport.block;
import static dev.sluice.clickhouse.format.FormatTestSupport.col;
import static dev.sluice.clickhouse.format.FormatTestSupport.list;
import static dev.sluice.clickhouse.format.FormatTestSupport.map;
import static dev.sluice.clickhouse.format.FormatTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Text per format and type, written down from ClickHouse's format definitions (the serializeText*
 * methods and WriteHelpers.h escaping): each row of a one-column block, with the row framing.
 */
class TextFormatGoldenTest {
    private static final UUID U = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
    private static final BigInteger U64_MAX = new BigInteger("18446744073709551615");
    private static final String ENUM = "Enum8('a' = -128, 'b\\'c' = 1, 'z' = 127)";

    private static Arguments g(
            TextFormat f, String type, java.util.List<Object> values, String expected) {
        return Arguments.of(f, type, values, expected);
    }

    static Stream<Arguments> tsv() {
        TextFormat f = Formats.TAB_SEPARATED;
        return Stream.of(
                g(f, "UInt8", list(0L, 255L), "0\n255\n"),
                g(f, "Int8", list(-128L, 127L), "-128\n127\n"),
                g(f, "Int16", list(-32768L, 32767L), "-32768\n32767\n"),
                g(f, "UInt16", list(65535L), "65535\n"),
                g(f, "Int32", list((long) Integer.MIN_VALUE), "-2147483648\n"),
                g(f, "UInt32", list(4294967295L), "4294967295\n"),
                g(
                        f,
                        "Int64",
                        list(Long.MIN_VALUE, Long.MAX_VALUE),
                        "-9223372036854775808\n9223372036854775807\n"),
                g(f, "UInt64", list(U64_MAX, 0L, 10L), "18446744073709551615\n0\n10\n"),
                g(
                        f,
                        "Float64",
                        list(
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                -0.0,
                                0.1,
                                1e-7),
                        "nan\ninf\n-inf\n-0\n0.1\n1e-7\n"),
                g(f, "Float32", list(1.5f, Float.MAX_VALUE, Float.NaN), "1.5\n3.4028235e38\nnan\n"),
                g(
                        f,
                        "Decimal(9, 4)",
                        list(
                                new BigDecimal("-0.0001"),
                                new BigDecimal("12345.6789"),
                                BigDecimal.ZERO),
                        "-0.0001\n12345.6789\n0.0000\n"),
                g(
                        f,
                        "Decimal(18, 0)",
                        list(new BigDecimal("-999999999999999999")),
                        "-999999999999999999\n"),
                g(
                        f,
                        "Decimal(38, 10)",
                        list(
                                new BigDecimal("-9999999999999999999999999999.9999999999"),
                                new BigDecimal("0.0000000001")),
                        "-9999999999999999999999999999.9999999999\n0.0000000001\n"),
                g(
                        f,
                        "Decimal(76, 2)",
                        list(new BigDecimal("-" + "9".repeat(74) + ".99")),
                        "-" + "9".repeat(74) + ".99\n"),
                g(
                        f,
                        "Int128",
                        list(BigInteger.ONE.shiftLeft(127).negate(), -1L),
                        "-170141183460469231731687303715884105728\n-1\n"),
                g(
                        f,
                        "UInt256",
                        list(BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), 0L),
                        BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE) + "\n0\n"),
                g(
                        f,
                        "String",
                        list("", "a\tb\nc\\d'e\0\b\f\r", "naïve 日本"),
                        "\na\\tb\\nc\\\\d\\'e\\0\\b\\f\\r\nnaïve 日本\n"),
                g(f, "FixedString(4)", list("ab", "a\tcd"), "ab\\0\\0\na\\tcd\n"),
                g(f, "Date", list(0L, 49672L, 59L), "1970-01-01\n2105-12-31\n1970-03-01\n"),
                g(f, "Date32", list(-25567L, 120529L), "1900-01-01\n2299-12-31\n"),
                g(f, "DateTime", list(0L, 1L, 4294967295L), "0000000000\n0000000001\n4294967295\n"),
                g(f, "DateTime('Asia/Tokyo')", list(1_700_000_000L), "1700000000\n"),
                g(
                        f,
                        "DateTime64(3)",
                        list(Instant.ofEpochMilli(1500), Instant.ofEpochMilli(0)),
                        "0000000001.500\n0000000000.000\n"),
                g(f, "UUID", list(U), "550e8400-e29b-41d4-a716-446655440000\n"),
                g(f, ENUM, list("b'c", "a"), "b\\'c\na\n"),
                g(f, "Enum16('x' = -1000, 'y' = 1000)", list("y"), "y\n"),
                g(f, "Bool", list(true, false), "true\nfalse\n"),
                g(f, "IPv4", list(0x01020304L, 0xFFFFFFFFL), "1.2.3.4\n255.255.255.255\n"),
                g(
                        f,
                        "IPv6",
                        list(
                                new byte[] {
                                    0x20,
                                    0x01,
                                    0x0d,
                                    (byte) 0xb8,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    1
                                }),
                        "2001:db8:0:0:0:0:0:1\n"),
                g(f, "Nullable(String)", list(null, "x", "\\N"), "\\N\nx\n\\\\N\n"),
                g(f, "Nullable(Float64)", list(Double.NaN, null), "nan\n\\N\n"),
                g(f, "Array(String)", list(list("a'b", "c\td"), list()), "['a\\'b','c\\td']\n[]\n"),
                g(f, "Array(Nullable(Int32))", list(list(1L, null, -3L)), "[1,NULL,-3]\n"),
                g(
                        f,
                        "Array(Nullable(Float64))",
                        list(list(Double.NaN, null, 1.5)),
                        "[-nan,NULL,1.5]\n"),
                g(
                        f,
                        "Array(Float64)",
                        list(list(Double.NaN, Double.NEGATIVE_INFINITY)),
                        "[nan,-inf]\n"),
                g(f, "Array(Array(UInt8))", list(list(list(1L, 2L), list())), "[[1,2],[]]\n"),
                g(f, "Array(Date)", list(list(1L)), "['1970-01-02']\n"),
                g(f, "Array(DateTime)", list(list(1L, 4294967295L)), "[1,4294967295]\n"),
                g(f, "Array(UUID)", list(list(U)), "['550e8400-e29b-41d4-a716-446655440000']\n"),
                g(f, "Array(" + ENUM + ")", list(list("b'c")), "['b\\'c']\n"),
                g(f, "Array(FixedString(2))", list(list("a")), "['a\\0']\n"),
                g(
                        f,
                        "Tuple(String, Int64)",
                        list(list("x'y", Long.MIN_VALUE)),
                        "('x\\'y',-9223372036854775808)\n"),
                g(f, "Tuple(a String, b Nullable(UInt8))", list(list("x", null)), "('x',NULL)\n"),
                g(f, "LowCardinality(String)", list("k", "k\tv", "k"), "k\nk\\tv\nk\n"),
                g(f, "LowCardinality(Nullable(String))", list(null, "k", null), "\\N\nk\n\\N\n"),
                g(f, "Array(LowCardinality(String))", list(list("x", "y", "x")), "['x','y','x']\n"),
                g(
                        f,
                        "Map(String, UInt8)",
                        list(map("a", 1L, "b'", 2L), map()),
                        "{'a':1,'b\\'':2}\n{}\n"),
                g(f, "Nothing", list((Object) null), "\\N\n"));
    }

    static Stream<Arguments> csv() {
        TextFormat f = Formats.CSV;
        return Stream.of(
                g(
                        f,
                        "String",
                        list("", "a\"b,c\nd", "x'y\\"),
                        "\"\"\n\"a\"\"b,c\nd\"\n\"x'y\\\"\n"),
                g(f, "Nullable(String)", list(null, "\\N"), "\\N\n\"\\N\"\n"),
                g(f, "FixedString(3)", list("a\"\0"), "\"a\"\"\0\"\n"),
                g(f, "Int64", list(-1L), "-1\n"),
                g(f, "UInt64", list(U64_MAX), "18446744073709551615\n"),
                g(f, "Float64", list(Double.NaN, Double.POSITIVE_INFINITY, 2.5), "nan\ninf\n2.5\n"),
                g(f, "Decimal(18, 2)", list(new BigDecimal("-1.50")), "-1.50\n"),
                g(f, "Date", list(0L), "\"1970-01-01\"\n"),
                g(f, "DateTime", list(7L), "0000000007\n"),
                g(f, "UUID", list(U), "\"550e8400-e29b-41d4-a716-446655440000\"\n"),
                g(f, ENUM, list("b'c"), "\"b'c\"\n"),
                g(
                        f,
                        "Array(String)",
                        list(list("a\"b", "c"), list()),
                        "\"['a\"\"b','c']\"\n\"[]\"\n"),
                g(f, "Array(Nullable(Float64))", list(list(Double.NaN, null)), "\"[-nan,NULL]\"\n"),
                g(f, "Tuple(String, Int64)", list(list("x\"", -1L)), "\"x\"\"\",-1\n"),
                g(
                        f,
                        "Map(String, Array(String))",
                        list(map("k", list("\""))),
                        "\"{'k':['\"\"']}\"\n"),
                g(f, "LowCardinality(Nullable(String))", list(null, "v"), "\\N\n\"v\"\n"));
    }

    static Stream<Arguments> values() {
        TextFormat f = Formats.VALUES;
        return Stream.of(
                g(f, "String", list("it's", "a\tb"), "('it\\'s'),('a\\tb')"),
                g(f, "Nullable(Int32)", list(null, 5L), "(NULL),(5)"),
                g(f, "Float64", list(Double.NaN, Double.NEGATIVE_INFINITY), "(nan),(-inf)"),
                g(f, "Nullable(Float64)", list(Double.NaN), "(-nan)"),
                g(f, "Date", list(0L), "('1970-01-01')"),
                g(f, "DateTime", list(1L), "(1)"),
                g(f, "UUID", list(U), "('550e8400-e29b-41d4-a716-446655440000')"),
                g(f, ENUM, list("b'c"), "('b\\'c')"),
                g(f, "FixedString(2)", list("a"), "('a\\0')"),
                g(f, "Array(Nullable(String))", list(list("x", null)), "(['x',NULL])"),
                g(f, "Tuple(String, Int64)", list(list("x", 1L)), "(('x',1))"),
                g(f, "Decimal(9, 3)", list(new BigDecimal("-1.5")), "(-1.500)"));
    }

    static Stream<Arguments> json() {
        TextFormat f = Formats.JSON_EACH_ROW;
        TextFormat bare = Formats.JSON_EACH_ROW.withQuoted64BitIntegers(false);
        return Stream.of(
                g(f, "UInt8", list(255L), "{\"c\":255}\n"),
                g(f, "Int64", list(-1L), "{\"c\":\"-1\"}\n"),
                g(bare, "Int64", list(-1L), "{\"c\":-1}\n"),
                g(f, "UInt64", list(U64_MAX), "{\"c\":\"18446744073709551615\"}\n"),
                g(bare, "UInt64", list(U64_MAX), "{\"c\":18446744073709551615}\n"),
                g(f, "UInt32", list(4294967295L), "{\"c\":4294967295}\n"),
                g(f, "Int128", list(-1L), "{\"c\":\"-1\"}\n"),
                g(
                        f,
                        "Float64",
                        list(
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                1e-300),
                        "{\"c\":\"nan\"}\n{\"c\":\"inf\"}\n{\"c\":\"-inf\"}\n{\"c\":1e-300}\n"),
                g(f, "Decimal(38, 10)", list(new BigDecimal("-1.5")), "{\"c\":-1.5000000000}\n"),
                g(
                        f,
                        "String",
                        list("q\"b\\s/\n\t\u0001\u001f\u007f\u2028\u2029é"),
                        "{\"c\":\"q\\\"b\\\\s/\\n\\t\\u0001\\u001F\u007f\\u2028\\u2029é\"}\n"),
                g(f, "FixedString(2)", list("a"), "{\"c\":\"a\\u0000\"}\n"),
                g(f, "Date", list(49672L), "{\"c\":\"2105-12-31\"}\n"),
                g(f, "DateTime", list(0L, 4294967295L), "{\"c\":0}\n{\"c\":4294967295}\n"),
                g(f, "UUID", list(U), "{\"c\":\"550e8400-e29b-41d4-a716-446655440000\"}\n"),
                g(f, ENUM, list("b'c"), "{\"c\":\"b'c\"}\n"),
                g(f, "Bool", list(true), "{\"c\":true}\n"),
                g(
                        f,
                        "Nullable(Float64)",
                        list(null, Double.NaN),
                        "{\"c\":null}\n{\"c\":\"nan\"}\n"),
                g(f, "Array(Nullable(Int32))", list(list(1L, null)), "{\"c\":[1,null]}\n"),
                g(f, "Array(Int64)", list(list(1L, -2L)), "{\"c\":[\"1\",\"-2\"]}\n"),
                g(
                        f,
                        "Array(Array(String))",
                        list(list(list("a"), list())),
                        "{\"c\":[[\"a\"],[]]}\n"),
                g(f, "Tuple(String, Int64)", list(list("x", 2L)), "{\"c\":[\"x\",\"2\"]}\n"),
                g(
                        f,
                        "Tuple(a String, b UInt8)",
                        list(list("x", 2L)),
                        "{\"c\":{\"a\":\"x\",\"b\":2}}\n"),
                g(f, "Map(String, UInt64)", list(map("k", 1L)), "{\"c\":{\"k\":\"1\"}}\n"),
                g(f, "Map(UInt8, String)", list(map(1L, "v")), "{\"c\":{\"1\":\"v\"}}\n"),
                g(
                        f,
                        "LowCardinality(Nullable(String))",
                        list(null, "v"),
                        "{\"c\":null}\n{\"c\":\"v\"}\n"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource({"tsv", "csv", "values", "json"})
    void golden(TextFormat format, String type, java.util.List<Object> values, String expected) {
        assertThat(text(format, type, values.toArray())).isEqualTo(expected);
    }

    @Test
    void rowsOfSeveralColumns() {
        var b =
                block(
                        col("id", "UInt32", 1L, 2L),
                        col("s", "Nullable(String)", "x", null),
                        col("t", "Tuple(String, Int8)", list("p", 1L), list("q", -1L)));
        assertThat(text(Formats.TAB_SEPARATED, b)).isEqualTo("1\tx\t('p',1)\n2\t\\N\t('q',-1)\n");
        assertThat(text(Formats.CSV, b)).isEqualTo("1,\"x\",\"p\",1\n2,\\N,\"q\",-1\n");
        assertThat(text(Formats.VALUES, b)).isEqualTo("(1,'x',('p',1)),(2,NULL,('q',-1))");
        assertThat(text(Formats.JSON_EACH_ROW, b))
                .isEqualTo(
                        "{\"id\":1,\"s\":\"x\",\"t\":[\"p\",1]}\n{\"id\":2,\"s\":null,\"t\":[\"q\",-1]}\n");
        assertThat(text(Formats.JSON_COMPACT_EACH_ROW, b))
                .isEqualTo("[1,\"x\",[\"p\",1]]\n[2,null,[\"q\",-1]]\n");
    }

    @Test
    void headers() {
        var b = block(col("a\tb", "UInt8", 1L), col("c\"d", "String", "x"));
        assertThat(text(Formats.TAB_SEPARATED_WITH_NAMES, b)).isEqualTo("a\\tb\tc\"d\n1\tx\n");
        assertThat(text(Formats.TAB_SEPARATED_WITH_NAMES_AND_TYPES, b))
                .isEqualTo("a\\tb\tc\"d\nUInt8\tString\n1\tx\n");
        assertThat(text(Formats.CSV_WITH_NAMES, b)).isEqualTo("\"a\tb\",\"c\"\"d\"\n1,\"x\"\n");
        assertThat(text(Formats.JSON_EACH_ROW, b)).isEqualTo("{\"a\\tb\":1,\"c\\\"d\":\"x\"}\n");
    }

    @Test
    void emptyBlockIsEmptyBodyOrJustTheHeader() {
        var b = block(col("a", "UInt8"));
        assertThat(text(Formats.TAB_SEPARATED, b)).isEmpty();
        assertThat(text(Formats.VALUES, b)).isEmpty();
        assertThat(text(Formats.TAB_SEPARATED_WITH_NAMES_AND_TYPES, b)).isEqualTo("a\nUInt8\n");
    }
}
