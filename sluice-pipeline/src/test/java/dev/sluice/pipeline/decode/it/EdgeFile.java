package dev.sluice.pipeline.decode.it;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes rows of values in each input format, the way a producer would: the same rows become a TSV,
 * CSV or NDJSON file. Values: null, Long, BigInteger, Double, BigDecimal, String (text of any type:
 * strings, dates, UUIDs, enum names), List (an array), {@link Tup} (a tuple), {@link #EMPTY} (an
 * empty field; {@code ""} in JSON) and {@link Quoted} (a number that JSON gets as a string).
 */
final class EdgeFile {
    /** A tuple value. */
    record Tup(List<Object> items) {}

    /** A 64-bit integer written as a JSON string (a plain number in TSV and CSV). */
    record Quoted(Object number) {}

    /** An empty field. */
    static final Object EMPTY = new Object();

    private EdgeFile() {}

    static byte[] tsv(List<String> names, List<Object[]> rows, boolean header) {
        StringBuilder sb = new StringBuilder();
        if (header) {
            sb.append(String.join("\t", names.stream().map(EdgeFile::tsvEscape).toList()))
                    .append('\n');
        }
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 ? "" : "\t").append(tsvField(row[i]));
            }
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] csv(List<String> names, List<Object[]> rows, boolean header) {
        StringBuilder sb = new StringBuilder();
        if (header) {
            sb.append(String.join(",", names.stream().map(EdgeFile::csvQuote).toList()))
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
        try {
            for (Object[] row : rows) {
                try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
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

    private static String number(Object v) {
        return switch (v) {
            case Double d when d.isNaN() -> "nan";
            case Double d when d.isInfinite() -> d > 0 ? "inf" : "-inf";
            case BigDecimal d -> d.toPlainString();
            case Quoted q -> number(q.number());
            default -> v.toString();
        };
    }

    private static boolean isNumber(Object v) {
        return v instanceof Long
                || v instanceof BigInteger
                || v instanceof Double
                || v instanceof BigDecimal
                || v instanceof Quoted;
    }

    private static String tsvField(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (v == EMPTY) {
            return "";
        }
        if (isNumber(v)) {
            return number(v);
        }
        if (v instanceof String s) {
            return tsvEscape(s);
        }
        return quoted(v); // arrays and tuples: no second layer of escaping
    }

    private static String csvField(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (v == EMPTY) {
            return "";
        }
        if (isNumber(v)) {
            return number(v);
        }
        if (v instanceof String s) {
            return csvQuote(s);
        }
        return csvQuote(quoted(v));
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
            return "(" + String.join(",", t.items().stream().map(EdgeFile::quoted).toList()) + ")";
        }
        List<?> list = (List<?>) v;
        return "[" + String.join(",", list.stream().map(EdgeFile::quoted).toList()) + "]";
    }

    static String tsvEscape(String s) {
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
            case Quoted q -> g.writeString(number(q.number()));
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
            default -> {
                if (v != EMPTY) {
                    throw new IllegalArgumentException("no JSON for " + v);
                }
                g.writeString("");
            }
        }
    }
}
