package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.pipeline.decode.TargetColumns;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * The DEFAULT values the client computes for the rows of a batch that lack a column which other
 * rows have: a column cannot be left out of an INSERT for some rows only, so for those rows the
 * value the server would have computed is written instead of the type's zero. Literals, casts of
 * literals, {@code now()} and {@code today()} are computed; any other expression is reported by
 * {@link #unsupported(int)} and the batch fails if it needs one.
 *
 * <p>One instance per pipeline thread: {@code now()} and {@code today()} cache their value for the
 * current second, so filling a row allocates nothing (property 6).
 */
public final class ClientDefaults {
    private static final DateTimeFormatter DATE_TIME =
            new DateTimeFormatterBuilder()
                    .appendPattern("uuuu-MM-dd HH:mm:ss")
                    .optionalStart()
                    .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
                    .optionalEnd()
                    .toFormatter();

    /** A column's default, computed per row. */
    private abstract static class Filler {
        abstract Object value(long nowMillis);
    }

    private static final class Constant extends Filler {
        private final Object value;

        Constant(Object value) {
            this.value = value;
        }

        @Override
        Object value(long nowMillis) {
            return value;
        }
    }

    /** {@code now()} or {@code today()}: a date or a time, recomputed when the second changes. */
    private static final class Clocked extends Filler {
        private final boolean today;
        private final boolean dateColumn;
        private final ZoneId zone;
        private long second = Long.MIN_VALUE;
        private Object value;

        Clocked(boolean today, boolean dateColumn, ZoneId zone) {
            this.today = today;
            this.dateColumn = dateColumn;
            this.zone = zone;
        }

        @Override
        Object value(long nowMillis) {
            long s = Math.floorDiv(nowMillis, 1000);
            if (s != second) {
                Instant now = Instant.ofEpochSecond(s);
                LocalDate date = LocalDate.ofInstant(now, zone);
                value = dateColumn ? date : today ? date.atStartOfDay(zone).toInstant() : now;
                second = s;
            }
            return value;
        }
    }

    private final Filler[] fillers;
    private final String[] unsupported;

    private ClientDefaults(Filler[] fillers, String[] unsupported) {
        this.fillers = fillers;
        this.unsupported = unsupported;
    }

    /**
     * The client defaults of {@code columns}.
     *
     * @param serverZone the server's time zone, for {@code today()} and DateTime text without one
     */
    public static ClientDefaults of(TargetColumns columns, ZoneId serverZone) {
        int n = columns.size();
        Filler[] fillers = new Filler[n];
        String[] unsupported = new String[n];
        for (int i = 0; i < n; i++) {
            TableSchema.Column c = columns.columns().get(i);
            if (c.defaultKind() != TableSchema.DefaultKind.DEFAULT
                    || c.defaultExpression() == null
                    || c.defaultExpression().isEmpty()) {
                continue; // the type's default, which the decoder appended, is the server's too
            }
            DefaultExpression e = DefaultExpression.parse(c.defaultExpression());
            try {
                fillers[i] = filler(c, e, serverZone);
                check(c, fillers[i]);
            } catch (RuntimeException ex) {
                fillers[i] = null;
                unsupported[i] =
                        "column "
                                + c.name()
                                + " has DEFAULT "
                                + c.defaultExpression()
                                + ", which sluice cannot compute"
                                + (ex.getMessage() == null ? "" : " (" + ex.getMessage() + ")");
            }
        }
        return new ClientDefaults(fillers, unsupported);
    }

    private static Filler filler(TableSchema.Column c, DefaultExpression e, ZoneId serverZone) {
        ClickHouseType type = base(c.type());
        ZoneId zone = zoneOf(type, serverZone);
        boolean dateColumn = type == SimpleType.DATE || type == SimpleType.DATE32;
        return switch (e.kind()) {
            case NULL -> new Constant(null);
            case NOW -> new Clocked(false, dateColumn, zone);
            case TODAY -> new Clocked(true, dateColumn, zone);
            case NUMBER -> new Constant(number(e.literal(), type));
            case STRING -> new Constant(text(e.literal(), type, zone));
            case UNSUPPORTED ->
                    throw new IllegalArgumentException(
                            "only literals, casts of literals, now() and today() are computed"
                                    + " client-side");
        };
    }

    /** Appends the default once into a scratch column, so a bad one fails at start-up. */
    private static void check(TableSchema.Column c, Filler f) {
        Column scratch = ColumnFactory.create(c.name(), c.typeName());
        ColumnValues.append(scratch, f.value(0));
    }

    private static ClickHouseType base(ClickHouseType t) {
        while (true) {
            if (t instanceof NullableType n) {
                t = n.inner();
            } else if (t instanceof LowCardinalityType l) {
                t = l.inner();
            } else {
                return t;
            }
        }
    }

    private static ZoneId zoneOf(ClickHouseType type, ZoneId serverZone) {
        String tz =
                type instanceof DateTimeType d
                        ? d.timezone()
                        : type instanceof DateTime64Type d64 ? d64.timezone() : null;
        return tz == null ? serverZone : ZoneId.of(tz);
    }

    private static Object number(String literal, ClickHouseType type) {
        if (type == SimpleType.STRING) {
            return literal;
        }
        boolean integral =
                literal.indexOf('.') < 0 && literal.indexOf('e') < 0 && literal.indexOf('E') < 0;
        if (type instanceof DecimalType) {
            return new BigDecimal(literal);
        }
        if (integral) {
            BigInteger v = new BigInteger(literal);
            return v.bitLength() < 64 ? (Object) v.longValue() : v;
        }
        return Double.parseDouble(literal);
    }

    private static Object text(String literal, ClickHouseType type, ZoneId zone) {
        if (type == SimpleType.DATE || type == SimpleType.DATE32) {
            return LocalDate.parse(literal);
        }
        if (type instanceof DateTimeType || type instanceof DateTime64Type) {
            return LocalDateTime.parse(literal, DATE_TIME).atZone(zone).toInstant();
        }
        return literal;
    }

    /** True when the client computes column {@code index}'s default. */
    public boolean computes(int index) {
        return fillers[index] != null;
    }

    /**
     * Why column {@code index}'s DEFAULT cannot be computed here, or null when it can / has none.
     */
    public String unsupported(int index) {
        return unsupported[index];
    }

    /**
     * Replaces the value just appended to {@code column} (the type's default, standing for an
     * absent field) with the column's DEFAULT.
     */
    public void fill(int index, Column column, long nowMillis) {
        column.truncate(column.rows() - 1);
        ColumnValues.append(column, fillers[index].value(nowMillis));
    }

    /** The zone a server reports in its Hello; UTC when it reports none. */
    public static ZoneId serverZone(String serverTimezone) {
        return serverTimezone == null || serverTimezone.isEmpty()
                ? ZoneOffset.UTC
                : ZoneId.of(serverTimezone);
    }
}
