package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A table with a column of every type ClickHouse 18.16 has, and rows of edge values for it, written
 * the way a producer writes them as NDJSON, CSV or TSV, so that the same file can go to {@code
 * sluice load} and to {@code clickhouse-client ... FORMAT X}.
 *
 * <p>Values: null (NULL), Long, BigInteger, Double, BigDecimal, String (the text of any type:
 * strings, dates, UUIDs, enum names), List (an array) and {@link Tup} (a tuple). Every value here
 * is one both readers take the same way; the inputs they read differently on purpose
 * (docs/formats.md) stay out and are tested on their own.
 */
final class EdgeValues {
    /** A tuple value. */
    record Tup(List<Object> items) {}

    /** A column: its name and type. */
    record Col(String name, String type) {}

    static final List<Col> COLUMNS =
            List.of(
                    new Col("key", "UInt32"),
                    new Col("i8", "Int8"),
                    new Col("i16", "Int16"),
                    new Col("i32", "Int32"),
                    new Col("i64", "Int64"),
                    new Col("u8", "UInt8"),
                    new Col("u16", "UInt16"),
                    new Col("u32", "UInt32"),
                    new Col("u64", "UInt64"),
                    new Col("f32", "Float32"),
                    new Col("f64", "Float64"),
                    new Col("d32", "Decimal(9, 4)"),
                    new Col("d64", "Decimal(18, 8)"),
                    new Col("d128", "Decimal(38, 10)"),
                    new Col("s", "String"),
                    new Col("fs", "FixedString(8)"),
                    new Col("d", "Date"),
                    new Col("dt", "DateTime"),
                    new Col("dtk", "DateTime('Asia/Kolkata')"),
                    new Col("uuid", "UUID"),
                    new Col("e8", "Enum8('a' = -128, 'b' = 0, 'c d' = 127)"),
                    new Col("e16", "Enum16('lo' = -32768, 'hi' = 32767)"),
                    new Col("ns", "Nullable(String)"),
                    new Col("ni", "Nullable(Int32)"),
                    new Col("nd", "Nullable(Date)"),
                    new Col("as", "Array(String)"),
                    new Col("ani", "Array(Nullable(Int32))"),
                    new Col("aai", "Array(Array(Int64))"),
                    new Col("lc", "LowCardinality(String)"),
                    new Col("lcn", "LowCardinality(Nullable(String))"),
                    new Col("t", "Tuple(String, Int64)"));

    /** Every character TSV escapes, CSV quotes or JSON escapes, and some that need none. */
    static final String NASTY =
            "tab\there new\nline back\\slash quote' dq\" nul\0 cr\r comma, semi; end";

    private EdgeValues() {}

    /** The columns a format can express: a CSV Tuple is read differently by 18.16. */
    static List<Col> columns(boolean csv) {
        return csv ? COLUMNS.stream().filter(c -> !c.name().equals("t")).toList() : COLUMNS;
    }

    static String ddl(List<Col> columns) {
        return columns.stream()
                .map(c -> c.name() + " " + c.type())
                .collect(Collectors.joining(", "));
    }

    static List<String> names(List<Col> columns) {
        return columns.stream().map(Col::name).toList();
    }

    /**
     * The rows, in {@link #COLUMNS} order; NULLs in the first, a middle and the last row. JSON has
     * no NaN or infinity, so its float rows hold ordinary values there.
     */
    static List<Object[]> rows(boolean json) {
        List<Object[]> rows = new ArrayList<>();
        // minimums, NULL first
        rows.add(
                row(
                        1L,
                        -128L,
                        -32768L,
                        (long) Integer.MIN_VALUE,
                        Long.MIN_VALUE,
                        0L,
                        0L,
                        0L,
                        0L,
                        (double) -Float.MAX_VALUE,
                        -Double.MAX_VALUE,
                        new BigDecimal("-99999.9999"),
                        new BigDecimal("-9999999999.99999999"),
                        new BigDecimal("-9999999999999999999999999999.9999999999"),
                        "",
                        "",
                        "1970-01-01",
                        "1970-01-01 00:00:00",
                        "1970-01-01 05:30:00",
                        "00000000-0000-0000-0000-000000000000",
                        "a",
                        "lo",
                        null,
                        null,
                        null,
                        List.of(),
                        List.of(),
                        List.of(),
                        "",
                        null,
                        new Tup(List.of("", Long.MIN_VALUE))));
        // maximums and UTF-8
        rows.add(
                row(
                        2L,
                        127L,
                        32767L,
                        (long) Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        255L,
                        65535L,
                        4294967295L,
                        new BigInteger("18446744073709551615"),
                        (double) Float.MAX_VALUE,
                        Double.MAX_VALUE,
                        new BigDecimal("99999.9999"),
                        new BigDecimal("9999999999.99999999"),
                        new BigDecimal("9999999999999999999999999999.9999999999"),
                        "naïve café 日本語 🦀",
                        "12345678",
                        "2105-12-31",
                        "2105-12-31 23:59:59",
                        "2105-12-31 23:59:59",
                        "ffffffff-ffff-ffff-ffff-ffffffffffff",
                        "c d",
                        "hi",
                        "日本",
                        Integer.MAX_VALUE + 0L,
                        "2105-12-31",
                        List.of("a", "b,c", "it's", "[x]", "NULL", "日本"),
                        Arrays.asList((long) Integer.MAX_VALUE, null, (long) Integer.MIN_VALUE),
                        List.of(List.of(Long.MAX_VALUE, Long.MIN_VALUE), List.of()),
                        "y",
                        "z",
                        new Tup(List.of("max", Long.MAX_VALUE))));
        // the characters every format escapes or quotes, NULL in the middle
        rows.add(
                row(
                        3L,
                        -1L,
                        -1L,
                        -1L,
                        -1L,
                        1L,
                        1L,
                        1L,
                        new BigInteger("9223372036854775808"),
                        1.5,
                        0.1,
                        new BigDecimal("-0.0001"),
                        new BigDecimal("-1.5"),
                        new BigDecimal("-0.0000000001"),
                        NASTY,
                        "ab\0c",
                        "2024-02-29",
                        "2024-02-29 12:34:56",
                        "2024-02-29 12:34:56",
                        "550E8400-E29B-41D4-A716-446655440000",
                        "b",
                        "hi",
                        null,
                        null,
                        null,
                        List.of(NASTY, "\\N", ""),
                        Arrays.asList(null, null),
                        List.of(List.of(-1L)),
                        NASTY,
                        NASTY,
                        new Tup(List.of(NASTY, -5L))));
        // the smallest Float32, the smallest normal Float64 (18.16 reads subnormals as 0)
        rows.add(
                row(
                        4L,
                        4L,
                        4L,
                        4L,
                        4L,
                        4L,
                        4L,
                        4L,
                        4L,
                        (double) Float.MIN_VALUE,
                        2.2250738585072014E-308,
                        new BigDecimal("12345.6789"),
                        new BigDecimal("-12345678.12345678"),
                        new BigDecimal("-12345678901234567890.0123456789"),
                        "four",
                        "x",
                        "2000-01-01",
                        "2000-01-01 00:00:00",
                        "2000-01-01 00:00:00",
                        "123e4567-e89b-12d3-a456-426614174000",
                        "a",
                        "lo",
                        "four",
                        4L,
                        "2000-01-01",
                        List.of("4"),
                        List.of(4L),
                        List.of(List.of(4L), List.of(4L, 4L)),
                        "x",
                        "x",
                        new Tup(List.of("4", 4L))));
        rows.add(
                row(
                        5L,
                        5L,
                        5L,
                        5L,
                        5L,
                        5L,
                        5L,
                        5L,
                        5L,
                        json ? 1e-7 : Double.POSITIVE_INFINITY,
                        json ? 123456.789 : Double.NaN,
                        new BigDecimal("1"),
                        new BigDecimal("-1"),
                        new BigDecimal("1"),
                        "five",
                        "x",
                        "2000-01-01",
                        "2000-01-01 00:00:00",
                        "2000-01-01 00:00:00",
                        "123e4567-e89b-12d3-a456-426614174000",
                        "b",
                        "hi",
                        "five",
                        5L,
                        "2000-01-01",
                        List.of(),
                        Arrays.asList(5L, null),
                        List.of(),
                        "",
                        "",
                        new Tup(List.of("", 5L))));
        // NULL last
        rows.add(
                row(
                        6L,
                        6L,
                        6L,
                        6L,
                        6L,
                        6L,
                        6L,
                        6L,
                        6L,
                        json ? -2.5 : Double.NEGATIVE_INFINITY,
                        json ? -1e300 : Double.NEGATIVE_INFINITY,
                        new BigDecimal("2"),
                        new BigDecimal("2"),
                        new BigDecimal("2"),
                        "six",
                        "x",
                        "2000-01-01",
                        "2000-01-01 00:00:00",
                        "2000-01-01 00:00:00",
                        "123e4567-e89b-12d3-a456-426614174000",
                        "a",
                        "lo",
                        null,
                        null,
                        null,
                        List.of(),
                        List.of(),
                        List.of(),
                        "",
                        null,
                        new Tup(List.of("", 6L))));
        return rows;
    }

    private static Object[] row(Object... values) {
        if (values.length != COLUMNS.size()) {
            throw new IllegalArgumentException(values.length + " values");
        }
        return values;
    }

    /** The rows restricted to {@code columns}, in that order. */
    static List<Object[]> project(List<Object[]> rows, List<Col> columns) {
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : rows) {
            Object[] p = new Object[columns.size()];
            for (int i = 0; i < p.length; i++) {
                p[i] = r[COLUMNS.indexOf(columns.get(i))];
            }
            out.add(p);
        }
        return out;
    }

    // ---- Writers ----

    static byte[] tsv(List<String> header, List<Object[]> rows) {
        StringBuilder sb = new StringBuilder();
        if (header != null) {
            sb.append(String.join("\t", header)).append('\n');
        }
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 ? "" : "\t").append(tsvField(row[i]));
            }
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] csv(List<String> header, List<Object[]> rows) {
        StringBuilder sb = new StringBuilder();
        if (header != null) {
            sb.append(String.join(",", header.stream().map(EdgeValues::csvQuote).toList()))
                    .append('\n');
        }
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 ? "" : ",").append(csvField(row[i]));
            }
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] ndjson(List<String> names, List<Object[]> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonFactory factory = new JsonFactory();
        try {
            for (Object[] row : rows) {
                try (JsonGenerator g = factory.createGenerator(out)) {
                    g.writeStartObject();
                    for (int i = 0; i < row.length; i++) {
                        g.writeFieldName(names.get(i));
                        json(g, row[i]);
                    }
                    g.writeEndObject();
                }
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static boolean isNumber(Object v) {
        return v instanceof Long
                || v instanceof BigInteger
                || v instanceof Double
                || v instanceof BigDecimal;
    }

    private static String number(Object v) {
        return switch (v) {
            case Double d when d.isNaN() -> "nan";
            case Double d when d.isInfinite() -> d > 0 ? "inf" : "-inf";
            case BigDecimal d -> d.toPlainString();
            default -> v.toString();
        };
    }

    private static String tsvField(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (isNumber(v)) {
            return number(v);
        }
        if (v instanceof String s) {
            return tsvEscape(s);
        }
        return quoted(v); // arrays and tuples in their quoted form, without a second escaping
    }

    private static String csvField(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (isNumber(v)) {
            return number(v);
        }
        return csvQuote(v instanceof String s ? s : quoted(v));
    }

    /** The text form of a value inside an array or tuple. */
    private static String quoted(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (isNumber(v)) {
            return number(v);
        }
        if (v instanceof String s) {
            StringBuilder sb = new StringBuilder("'");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '\\' -> sb.append("\\\\");
                    case '\'' -> sb.append("\\'");
                    case '\t' -> sb.append("\\t");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\0' -> sb.append("\\0");
                    default -> sb.append(c);
                }
            }
            return sb.append('\'').toString();
        }
        if (v instanceof Tup t) {
            return "("
                    + String.join(",", t.items().stream().map(EdgeValues::quoted).toList())
                    + ")";
        }
        return "["
                + String.join(",", ((List<?>) v).stream().map(EdgeValues::quoted).toList())
                + "]";
    }

    private static String tsvEscape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String csvQuote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static void json(JsonGenerator g, Object v) throws IOException {
        switch (v) {
            case null -> g.writeNull();
            case Long l -> g.writeNumber(l);
            case BigInteger b -> g.writeNumber(b);
            case Double d -> g.writeNumber(d);
            case BigDecimal d -> g.writeNumber(d.toPlainString());
            case String s -> g.writeString(s);
            case Tup t -> {
                g.writeStartArray();
                for (Object o : t.items()) {
                    json(g, o);
                }
                g.writeEndArray();
            }
            case List<?> list -> {
                g.writeStartArray();
                for (Object o : list) {
                    json(g, o);
                }
                g.writeEndArray();
            }
            default -> throw new IllegalArgumentException("no JSON for " + v);
        }
    }
}
