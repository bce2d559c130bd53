package dev.sluice.pipeline.writer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.Converters;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Appends plain Java values to one column with the meaning the pipeline's decoders give the same
 * values in JSON (docs/formats.md): a string is parsed as the column's type reads text (dates,
 * UUIDs, enum names, numbers), an integer counts seconds for DateTime and ticks for DateTime64, an
 * {@link Instant} or {@link Date} is a moment, a {@link LocalDate} a day, a {@link LocalDateTime}
 * wall-clock time in the column's time zone. Lists and maps fill Array, Tuple and Map columns
 * (their elements as {@link ColumnValues} takes them) or, for a String column, are stored as their
 * JSON text. One per column of a {@link Rows}; not thread-safe.
 */
final class ObjectValue {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Converter converter;
    private final SimpleType base;

    ObjectValue(ClickHouseType type) {
        this.converter = Converters.forType(type);
        this.base = baseOf(type);
    }

    /** True when the column holds NULL. */
    boolean nullable() {
        return converter.nullable();
    }

    /**
     * Appends {@code value} (never null: the caller decides between NULL and DEFAULT).
     *
     * @throws RuntimeException the converter's or the column's reason, without appending
     */
    void append(Column c, Object value) {
        switch (value) {
            case String s -> text(c, s);
            case Long v -> converter.integer(c, v);
            case Integer v -> converter.integer(c, v);
            case Short v -> converter.integer(c, v);
            case Byte v -> converter.integer(c, v);
            case Double v -> converter.floating(c, v);
            case Float v -> converter.floating(c, v);
            case BigDecimal v -> number(c, v.toPlainString());
            case BigInteger v -> number(c, v.toString());
            case Boolean v -> converter.bool(c, v);
            case byte[] v -> converter.text(c, v, 0, v.length);
            case Character v -> text(c, v.toString());
            case Instant v -> moment(c, v);
            case Date v -> moment(c, v.toInstant());
            case LocalDate v -> converter.date(c, Math.toIntExact(v.toEpochDay()));
            case LocalDateTime v -> text(c, v.toString());
            case UUID v -> text(c, v.toString());
            case InetAddress v -> text(c, v.getHostAddress());
            case Enum<?> v -> text(c, v.name());
            case Map<?, ?> v -> composite(c, v);
            case Collection<?> v -> composite(c, List.copyOf(v));
            case Object[] v -> composite(c, List.of(v));
            default ->
                    throw new IllegalArgumentException(
                            "cannot store a " + value.getClass().getName());
        }
    }

    private void text(Column c, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        converter.text(c, b, 0, b.length);
    }

    private void number(Column c, String digits) {
        byte[] b = digits.getBytes(StandardCharsets.US_ASCII);
        converter.number(c, b, 0, b.length);
    }

    private void moment(Column c, Instant v) {
        if (base == SimpleType.DATE || base == SimpleType.DATE32) {
            converter.date(c, Math.toIntExact(Math.floorDiv(v.getEpochSecond(), 86_400L)));
        } else {
            text(c, v.toString()); // ISO-8601 in UTC: DateTime and DateTime64 parse it exactly
        }
    }

    private void composite(Column c, Object value) {
        if (converter.takesJsonText()) {
            try {
                text(c, JSON.writeValueAsString(value));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("cannot write it as JSON: " + e.getMessage(), e);
            }
            return;
        }
        ColumnValues.append(c, value instanceof Map<?, ?> m ? m : (List<?>) value);
    }

    private static SimpleType baseOf(ClickHouseType type) {
        ClickHouseType t = type;
        while (true) {
            if (t instanceof NullableType n) {
                t = n.inner();
            } else if (t instanceof LowCardinalityType lc) {
                t = lc.inner();
            } else {
                break;
            }
        }
        return t instanceof SimpleType s ? s : null;
    }
}
