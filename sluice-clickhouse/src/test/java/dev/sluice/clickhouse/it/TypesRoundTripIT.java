package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TypeParser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every type the 18.16 server has, with edge values, inserted through the native writer and read
 * back twice: as text by {@code clickhouse-client ... FORMAT TabSeparated} and as Native blocks by
 * our reader. Each value must come back unchanged, in each compression method.
 */
class TypesRoundTripIT {

    /** One column under test: its type and the value of each row (row i of every column). */
    private record Case(String name, String type, List<Object> values) {
        ClickHouseType parsed() {
            return TypeParser.parse(type);
        }
    }

    private static final int ROWS = 12;

    private static List<Object> rows(Object... edge) {
        // Pad with the last value so that every column has ROWS rows.
        List<Object> out = new ArrayList<>(Arrays.asList(edge));
        while (out.size() < ROWS) {
            out.add(edge[out.size() % edge.length]);
        }
        return out;
    }

    private static long days(String date) {
        return LocalDate.parse(date).toEpochDay();
    }

    private static long seconds(String dateTime) {
        return LocalDateTime.parse(dateTime).toEpochSecond(ZoneOffset.UTC);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("i8", "Int8", rows(0L, -128L, 127L, -1L, 1L)));
        c.add(new Case("i16", "Int16", rows(0L, -32768L, 32767L)));
        c.add(
                new Case(
                        "i32",
                        "Int32",
                        rows(0L, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE)));
        c.add(new Case("i64", "Int64", rows(0L, Long.MIN_VALUE, Long.MAX_VALUE)));
        c.add(new Case("u8", "UInt8", rows(0L, 255L, 1L)));
        c.add(new Case("u16", "UInt16", rows(0L, 65535L)));
        c.add(new Case("u32", "UInt32", rows(0L, 4294967295L)));
        c.add(
                new Case(
                        "u64",
                        "UInt64",
                        rows(0L, Long.MAX_VALUE, new BigInteger("18446744073709551615"))));
        c.add(
                new Case(
                        "f32",
                        "Float32",
                        rows(
                                0.0f,
                                Float.MAX_VALUE,
                                -Float.MAX_VALUE,
                                Float.MIN_VALUE,
                                Float.NaN,
                                Float.POSITIVE_INFINITY,
                                Float.NEGATIVE_INFINITY,
                                -1.5f)));
        c.add(
                new Case(
                        "f64",
                        "Float64",
                        rows(
                                0.0,
                                Double.MAX_VALUE,
                                -Double.MAX_VALUE,
                                Double.MIN_VALUE,
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                0.1,
                                1e-7)));
        c.add(
                new Case(
                        "s",
                        "String",
                        rows(
                                "",
                                "plain",
                                "naïve café 日本語 🦀",
                                "nul\0inside",
                                "tab\there",
                                "new\nline",
                                "back\\slash 'quote'",
                                "x".repeat(300))));
        c.add(new Case("fs", "FixedString(8)", rows(bytes(""), bytes("12345678"), bytes("ab\0c"))));
        c.add(
                new Case(
                        "d",
                        "Date",
                        rows(days("1970-01-01"), days("2105-12-31"), days("2000-02-29"))));
        c.add(
                new Case(
                        "dt",
                        "DateTime",
                        rows(
                                seconds("1970-01-01T00:00:00"),
                                seconds("2105-12-31T23:59:59"),
                                seconds("2024-02-29T12:34:56"))));
        c.add(
                new Case(
                        "dec32",
                        "Decimal(9, 4)",
                        rows(
                                new BigDecimal("0.0000"),
                                new BigDecimal("-99999.9999"),
                                new BigDecimal("99999.9999"),
                                new BigDecimal("-0.0001"))));
        c.add(
                new Case(
                        "dec64",
                        "Decimal(18, 8)",
                        rows(
                                new BigDecimal("-9999999999.99999999"),
                                new BigDecimal("9999999999.99999999"),
                                new BigDecimal("1.00000000"))));
        c.add(
                new Case(
                        "dec128",
                        "Decimal(38, 10)",
                        rows(
                                new BigDecimal("-9999999999999999999999999999.9999999999"),
                                new BigDecimal("9999999999999999999999999999.9999999999"),
                                new BigDecimal("-0.0000000001"),
                                new BigDecimal("0E-10"))));
        c.add(
                new Case(
                        "uuid",
                        "UUID",
                        rows(
                                UUID.fromString("550e8400-e29b-41d4-a716-446655440000"),
                                new UUID(0, 0),
                                new UUID(-1, -1))));
        c.add(new Case("e8", "Enum8('a' = -128, 'b' = 0, 'c\\'d' = 127)", rows("a", "b", "c'd")));
        c.add(
                new Case(
                        "e16",
                        "Enum16('lo' = -32768, 'mid' = 1, 'hi' = 32767)",
                        rows("lo", "mid", "hi")));
        List<Object> nullableInts = rows(null, 1L, -2L, null, 5L);
        nullableInts.set(ROWS - 1, null); // NULL first, middle and last
        c.add(new Case("ni", "Nullable(Int32)", nullableInts));
        List<Object> nullableStrings = rows(null, "", "x", null, "日本");
        nullableStrings.set(ROWS - 1, null);
        c.add(new Case("ns", "Nullable(String)", nullableStrings));
        c.add(
                new Case(
                        "ai",
                        "Array(Int32)",
                        rows(List.of(), List.of(1L), List.of(-1L, 2147483647L, -2147483648L))));
        c.add(
                new Case(
                        "aas",
                        "Array(Array(String))",
                        rows(
                                List.of(),
                                List.of(List.of()),
                                List.of(List.of("a", "b\tc"), List.of(), List.of("it's")))));
        c.add(
                new Case(
                        "ans",
                        "Array(Nullable(String))",
                        rows(List.of(), Arrays.asList(null, "x", null))));
        c.add(
                new Case(
                        "t",
                        "Tuple(String, Int64)",
                        rows(List.of("", 0L), List.of("x'y", Long.MIN_VALUE))));
        c.add(new Case("lc", "LowCardinality(String)", rows("", "a", "b", "a", "ü")));
        List<Object> lcNull = rows(null, "a", "", null, "b");
        lcNull.set(ROWS - 1, null);
        c.add(new Case("lcn", "LowCardinality(Nullable(String))", lcNull));
        c.add(
                new Case(
                        "alc",
                        "Array(LowCardinality(String))",
                        rows(List.of(), List.of("x", "y", "x"))));
        return c;
    }

    private static byte[] bytes(String s) {
        byte[] raw = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return Arrays.copyOf(raw, 8); // FixedString pads with NULs
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void everyTypeSurvivesTheRoundTrip(CompressionMethod compression) {
        List<Case> cases = cases();
        String table = TestServer.newTable("types_" + compression.name().toLowerCase());
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (row UInt32");
        for (Case c : cases) {
            ddl.append(", ").append(c.name()).append(' ').append(c.type());
        }
        ddl.append(") ENGINE = MergeTree ORDER BY row");

        try (NativeConnection conn = TestServer.connect(b -> b.compression(compression))) {
            conn.execute(ddl.toString(), Map.of("allow_experimental_low_cardinality_type", "1"));
            InsertResult result;
            try (Insert insert = conn.insert(table, List.of(), Map.of())) {
                // The server's header describes every column with its exact type.
                assertThat(insert.block().columnCount()).isEqualTo(cases.size() + 1);
                for (int r = 0; r < ROWS; r++) {
                    insert.column("row").appendLong(r);
                    for (Case c : cases) {
                        ColumnValues.append(insert.column(c.name()), c.values().get(r));
                    }
                    insert.endRow();
                }
                result = insert.finish();
            }
            assertThat(result.rows()).isEqualTo(ROWS);
            assertThat(result.blocks()).isEqualTo(1);

            // 1. Our reader: values come back as the same Java objects.
            List<List<Object>> read = conn.queryRows("SELECT * FROM " + table + " ORDER BY row");
            assertThat(read).hasSize(ROWS);
            for (int r = 0; r < ROWS; r++) {
                for (int i = 0; i < cases.size(); i++) {
                    Case c = cases.get(i);
                    assertSameValue(c, r, read.get(r).get(i + 1), c.values().get(r));
                }
            }
        }

        // 2. The server's own text output, field by field.
        StringBuilder select = new StringBuilder("SELECT row");
        for (Case c : cases) {
            select.append(", ")
                    .append(
                            c.type().equals("DateTime")
                                    ? "toUnixTimestamp(" + c.name() + ")"
                                    : c.name());
        }
        select.append(" FROM ").append(table).append(" ORDER BY row FORMAT TabSeparated");
        List<String[]> tsv = Tsv.parse(TestServer.clickhouseClient(select.toString()));
        assertThat(tsv).hasSize(ROWS);
        for (int r = 0; r < ROWS; r++) {
            String[] fields = tsv.get(r);
            assertThat(fields).hasSize(cases.size() + 1);
            assertThat(fields[0]).isEqualTo(Integer.toString(r));
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                Object expected = c.values().get(r);
                String actual = fields[i + 1];
                String where = c.name() + " " + c.type() + " row " + r;
                ClickHouseType t = Tsv.unwrap(c.parsed());
                if (t == SimpleType.FLOAT32 || t == SimpleType.FLOAT64) {
                    double want = ((Number) expected).doubleValue();
                    double got = parseClickHouseFloat(actual);
                    if (Double.isNaN(want)) {
                        assertThat(got).as(where).isNaN();
                    } else if (t == SimpleType.FLOAT32) {
                        assertThat((float) got).as(where).isEqualTo((float) want);
                    } else {
                        assertThat(got).as(where).isEqualTo(want);
                    }
                } else if (t == SimpleType.DATE) {
                    // ClickHouse prints day 0 as the "zero date".
                    long day = (Long) expected;
                    String text = day == 0 ? "0000-00-00" : LocalDate.ofEpochDay(day).toString();
                    assertThat(actual).as(where).isEqualTo(text);
                } else {
                    assertThat(actual).as(where).isEqualTo(Tsv.field(c.parsed(), expected));
                }
            }
        }
    }

    private static void assertSameValue(Case c, int row, Object actual, Object expected) {
        String where = c.name() + " " + c.type() + " row " + row;
        if (expected instanceof byte[] b) {
            assertThat((byte[]) actual).as(where).isEqualTo(b);
        } else if (expected instanceof Float f) {
            if (f.isNaN()) {
                assertThat((Float) actual).as(where).isNaN();
            } else {
                assertThat(actual).as(where).isEqualTo(f);
            }
        } else if (expected instanceof Double d && d.isNaN()) {
            assertThat((Double) actual).as(where).isNaN();
        } else if (expected instanceof Long l && actual instanceof BigInteger bi) {
            assertThat(bi).as(where).isEqualTo(BigInteger.valueOf(l));
        } else {
            assertThat(actual).as(where).isEqualTo(expected);
        }
    }

    private static double parseClickHouseFloat(String s) {
        return switch (s) {
            case "nan", "-nan" -> Double.NaN;
            case "inf", "+inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }
}
