package dev.sluice.clickhouse.column;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Appends plain Java objects to columns: the convenient, allocating path for tests, tools and small
 * inserts. Hot paths call the typed appends on {@link Column} directly.
 *
 * <p>Accepted: null, Long/Integer/Short/Byte, BigInteger, Double/Float, BigDecimal, Boolean,
 * String, byte[], UUID, LocalDate (days), Instant (seconds, or ticks for DateTime64), List (an
 * Array row or a Tuple), Map (a Map row).
 */
public final class ColumnValues {
    private ColumnValues() {}

    public static void append(Column column, Object value) {
        switch (value) {
            case null -> column.appendNull();
            case Long v -> column.appendLong(v);
            case Integer v -> column.appendLong(v);
            case Short v -> column.appendLong(v);
            case Byte v -> column.appendLong(v);
            case BigInteger v -> column.appendBigInteger(v);
            case Double v -> column.appendDouble(v);
            case Float v -> column.appendDouble(v);
            case BigDecimal v -> column.appendBigDecimal(v);
            case Boolean v -> column.appendBoolean(v);
            case String v -> column.appendString(v);
            case byte[] v -> column.appendBytes(v);
            case UUID v ->
                    column.appendUuid(v.getMostSignificantBits(), v.getLeastSignificantBits());
            case LocalDate v -> column.appendLong(v.toEpochDay());
            case Instant v -> appendInstant(column, v);
            case List<?> v -> appendList(column, v);
            case Map<?, ?> v -> appendMap(column, v);
            default ->
                    throw new ColumnValueException(
                            column.name(),
                            column.type().typeName(),
                            column.rows(),
                            "cannot store a " + value.getClass().getName());
        }
    }

    private static void appendInstant(Column column, Instant v) {
        Column target = column instanceof NullableColumn n ? n.inner() : column;
        if (target.type() instanceof dev.sluice.clickhouse.types.DateTime64Type t) {
            BigInteger ticks =
                    BigInteger.valueOf(v.getEpochSecond())
                            .multiply(BigInteger.TEN.pow(t.precision()))
                            .add(
                                    BigInteger.valueOf(v.getNano())
                                            .divide(BigInteger.TEN.pow(9 - t.precision())));
            column.appendBigInteger(ticks);
        } else {
            column.appendLong(v.getEpochSecond());
        }
    }

    private static void appendList(Column column, List<?> values) {
        if (column instanceof ArrayColumn a) {
            try {
                for (Object v : values) {
                    append(a.elements(), v);
                }
            } catch (RuntimeException e) {
                a.abortArray();
                throw e;
            }
            a.endArray();
        } else if (column instanceof TupleColumn t) {
            if (values.size() != t.size()) {
                throw new ColumnValueException(
                        column.name(),
                        column.type().typeName(),
                        column.rows(),
                        "tuple of " + values.size() + " values for " + t.size() + " elements");
            }
            int row = t.rows();
            try {
                for (int i = 0; i < values.size(); i++) {
                    append(t.element(i), values.get(i));
                }
            } catch (RuntimeException e) {
                t.truncate(row);
                throw e;
            }
        } else {
            throw new ColumnValueException(
                    column.name(), column.type().typeName(), column.rows(), "cannot store a list");
        }
    }

    private static void appendMap(Column column, Map<?, ?> values) {
        if (!(column instanceof MapColumn m)) {
            throw new ColumnValueException(
                    column.name(), column.type().typeName(), column.rows(), "cannot store a map");
        }
        try {
            for (Map.Entry<?, ?> e : values.entrySet()) {
                append(m.keys(), e.getKey());
                append(m.values(), e.getValue());
            }
        } catch (RuntimeException e) {
            m.abortMap();
            throw e;
        }
        m.endMap();
    }
}
