package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TypeParser;
import java.time.ZoneId;

/**
 * The type of an expression's value as the evaluator tracks it: the ClickHouse type the server
 * would infer, reduced to how the value is held in a {@link ValueVector}.
 *
 * <ul>
 *   <li>{@link Kind#INT}: (U)Int8..64 in {@code longs}; {@code bits} and {@code signed} say which.
 *       UInt64 values above {@code Long.MAX_VALUE} are held as their 64 bits (negative longs).
 *   <li>{@link Kind#FLOAT}: Float32 or Float64 in {@code doubles} (Float32 values exactly).
 *   <li>{@link Kind#DATE}: day number in {@code longs}; {@link Kind#DATETIME}: epoch seconds in
 *       {@code longs}, in {@code zone} (the column's, else the server's).
 *   <li>{@link Kind#STRING}, {@link Kind#FIXED_STRING}: bytes in {@code bytes[starts[i], ends[i])}.
 *   <li>{@link Kind#ORDERED}: a column the evaluator only compares (Decimal, Enum, DateTime64): an
 *       order-preserving signed long in {@code longs}; no function takes it.
 *   <li>{@link Kind#NULL}: the NULL literal.
 * </ul>
 *
 * @param chType the ClickHouse type, without Nullable
 * @param nullable values may be NULL ({@code nulls} of the vector)
 */
public record ValueType(
        Kind kind, int bits, boolean signed, ZoneId zone, ClickHouseType chType, boolean nullable) {

    public enum Kind {
        INT,
        FLOAT,
        DATE,
        DATETIME,
        STRING,
        FIXED_STRING,
        ORDERED,
        NULL
    }

    public static final ValueType UINT8 = integer(8, false);
    public static final ValueType UINT16 = integer(16, false);
    public static final ValueType UINT32 = integer(32, false);
    public static final ValueType UINT64 = integer(64, false);
    public static final ValueType FLOAT32 =
            new ValueType(Kind.FLOAT, 32, true, null, SimpleType.FLOAT32, false);
    public static final ValueType FLOAT64 =
            new ValueType(Kind.FLOAT, 64, true, null, SimpleType.FLOAT64, false);
    public static final ValueType STRING =
            new ValueType(Kind.STRING, 0, false, null, SimpleType.STRING, false);
    public static final ValueType DATE =
            new ValueType(Kind.DATE, 16, false, null, SimpleType.DATE, false);
    public static final ValueType NULL =
            new ValueType(Kind.NULL, 0, false, null, SimpleType.NOTHING, true);

    /** (U)Int{bits}. */
    public static ValueType integer(int bits, boolean signed) {
        SimpleType t =
                switch (bits) {
                    case 8 -> signed ? SimpleType.INT8 : SimpleType.UINT8;
                    case 16 -> signed ? SimpleType.INT16 : SimpleType.UINT16;
                    case 32 -> signed ? SimpleType.INT32 : SimpleType.UINT32;
                    case 64 -> signed ? SimpleType.INT64 : SimpleType.UINT64;
                    default -> throw new IllegalArgumentException("integer of " + bits + " bits");
                };
        return new ValueType(Kind.INT, bits, signed, null, t, false);
    }

    public static ValueType floating(int bits) {
        return bits == 32 ? FLOAT32 : FLOAT64;
    }

    /** DateTime in {@code zone}; {@code declared} is the zone the type names, or null. */
    public static ValueType dateTime(ZoneId zone, String declared) {
        return new ValueType(Kind.DATETIME, 32, false, zone, new DateTimeType(declared), false);
    }

    public ValueType withNullable(boolean n) {
        return n == nullable ? this : new ValueType(kind, bits, signed, zone, chType, n);
    }

    public boolean isInteger() {
        return kind == Kind.INT;
    }

    /** Integers, floats, dates and times: what arithmetic takes. */
    public boolean isNumber() {
        return kind == Kind.INT || kind == Kind.FLOAT;
    }

    public boolean isStringLike() {
        return kind == Kind.STRING || kind == Kind.FIXED_STRING;
    }

    /** The server's name of this type, Nullable included. */
    public String typeName() {
        if (kind == Kind.NULL) {
            return "Nullable(Nothing)"; // what the server calls the type of NULL
        }
        String base = chType.typeName();
        return nullable && kind != Kind.NULL ? "Nullable(" + base + ")" : base;
    }

    /** The ClickHouse type, Nullable included. */
    public ClickHouseType clickHouseType() {
        return nullable && kind != Kind.NULL ? new NullableType(chType) : chType;
    }

    /** Parses a type name for casts; see {@link TypeParser}. */
    static ClickHouseType parseType(String name) {
        return TypeParser.parse(name);
    }

    @Override
    public String toString() {
        return typeName();
    }
}
