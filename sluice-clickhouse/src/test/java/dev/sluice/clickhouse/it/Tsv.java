package dev.sluice.clickhouse.it;

import dev.sluice.clickhouse.types.ArrayType;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TupleType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Renders expected values the way {@code clickhouse-client ... FORMAT TabSeparated} prints them, so
 * tests can compare the server's own text output with what was inserted.
 */
final class Tsv {
    private Tsv() {}

    /** Splits TSV output into rows of raw (still escaped) fields. */
    static List<String[]> parse(String output) {
        List<String[]> rows = new ArrayList<>();
        for (String line : output.split("\n", -1)) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /** The TSV text of a top-level value of {@code type}. */
    static String field(ClickHouseType type, Object value) {
        if (value == null) {
            return "\\N";
        }
        ClickHouseType t = unwrap(type);
        if (t == SimpleType.STRING || t instanceof dev.sluice.clickhouse.types.EnumType) {
            return escape((String) value);
        }
        if (t == SimpleType.UUID) {
            return value.toString();
        }
        if (t instanceof dev.sluice.clickhouse.types.FixedStringType) {
            return escape(new String((byte[]) value, StandardCharsets.UTF_8));
        }
        return nested(type, value);
    }

    /** The text of a value inside an Array or Tuple: strings quoted. */
    private static String nested(ClickHouseType type, Object value) {
        if (value == null) {
            return "NULL";
        }
        ClickHouseType t = unwrap(type);
        if (t instanceof ArrayType a) {
            List<?> list = (List<?>) value;
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i > 0 ? "," : "").append(nested(a.element(), list.get(i)));
            }
            return sb.append(']').toString();
        }
        if (t instanceof TupleType tt) {
            List<?> list = (List<?>) value;
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i > 0 ? "," : "").append(nested(tt.elements().get(i), list.get(i)));
            }
            return sb.append(')').toString();
        }
        if (t == SimpleType.STRING || t instanceof dev.sluice.clickhouse.types.EnumType) {
            return "'" + escapeQuoted((String) value) + "'";
        }
        if (t == SimpleType.UUID) {
            return "'" + value + "'";
        }
        if (t == SimpleType.DATE) {
            return "'" + LocalDate.ofEpochDay((Long) value) + "'";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof UUID) {
            return value.toString();
        }
        return value.toString();
    }

    static ClickHouseType unwrap(ClickHouseType type) {
        ClickHouseType t = type;
        while (true) {
            if (t instanceof NullableType n) {
                t = n.inner();
            } else if (t instanceof LowCardinalityType lc) {
                t = lc.inner();
            } else {
                return t;
            }
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\\' -> sb.append("\\\\");
                case '\0' -> sb.append("\\0");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\r' -> sb.append("\\r");
                case '\'' -> sb.append("\\'");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String escapeQuoted(String s) {
        return escape(s);
    }
}
