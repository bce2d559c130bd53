package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.ClickHouseType;
import java.math.BigInteger;

/**
 * Integers of 1, 2, 4 or 8 bytes with an allowed range: (U)Int8..64, and the types stored as
 * integers (Bool, Date, Date32, DateTime, DateTime64, IPv4, Enum).
 */
public class IntColumn extends FixedWidthColumn {
    private final boolean signed;
    private final long min;
    private final long max;

    /**
     * @param min smallest allowed value
     * @param max largest allowed value; for UInt64 pass -1 (all 64 bits) with {@code signed} false
     */
    public IntColumn(
            String name, ClickHouseType type, int width, boolean signed, long min, long max) {
        super(name, type, width);
        this.signed = signed;
        this.min = min;
        this.max = max;
    }

    /** The natural range of a {@code width}-byte integer. */
    public static IntColumn natural(String name, ClickHouseType type, int width, boolean signed) {
        long min;
        long max;
        if (signed) {
            min = width == 8 ? Long.MIN_VALUE : -(1L << (width * 8 - 1));
            max = width == 8 ? Long.MAX_VALUE : (1L << (width * 8 - 1)) - 1;
        } else {
            min = 0;
            max = width == 8 ? -1 : (1L << (width * 8)) - 1;
        }
        return new IntColumn(name, type, width, signed, min, max);
    }

    private boolean isFullUnsigned64() {
        return !signed && width == 8 && max == -1;
    }

    @Override
    public void appendLong(long value) {
        boolean ok = isFullUnsigned64() ? value >= 0 : value >= min && value <= max;
        if (!ok) {
            throw outOfRange(Long.toString(value));
        }
        put(value);
    }

    @Override
    public void appendUnsignedLong(long bits) {
        if (isFullUnsigned64()) {
            put(bits);
        } else {
            super.appendUnsignedLong(bits);
        }
    }

    @Override
    public void appendBigInteger(BigInteger value) {
        if (isFullUnsigned64() && value.signum() >= 0 && value.bitLength() <= 64) {
            put(value.longValue());
            return;
        }
        if (value.bitLength() >= 64) {
            throw outOfRange(value.toString());
        }
        appendLong(value.longValue());
    }

    @Override
    public void appendDouble(double value) {
        // Only integral values convert losslessly; anything else is a type error, not a rounding.
        if (value != Math.rint(value) || Double.isInfinite(value)) {
            throw reject("the non-integral number " + value);
        }
        if (value >= 0x1p63 && isFullUnsigned64() && value < 0x1p64) {
            put(new java.math.BigDecimal(value).toBigInteger().longValue());
            return;
        }
        if (value < -0x1p63 || value >= 0x1p63) {
            throw outOfRange(Double.toString(value));
        }
        appendLong((long) value);
    }

    /** Stores a value already checked against the range. */
    protected final void put(long value) {
        switch (width) {
            case 1 -> putByte((int) value);
            case 2 -> putShort((int) value);
            case 4 -> putInt((int) value);
            default -> putLong(value);
        }
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return rawLong(row, signed);
    }

    @Override
    public double getDouble(int row) {
        long v = getLong(row);
        return isFullUnsigned64() && v < 0 ? (double) (v >>> 1) * 2.0 + (v & 1) : v;
    }

    @Override
    public String getString(int row) {
        long v = getLong(row);
        return isFullUnsigned64() ? Long.toUnsignedString(v) : Long.toString(v);
    }

    @Override
    public Object getObject(int row) {
        long v = getLong(row);
        if (isFullUnsigned64() && v < 0) {
            return new BigInteger(Long.toUnsignedString(v));
        }
        return v;
    }
}
