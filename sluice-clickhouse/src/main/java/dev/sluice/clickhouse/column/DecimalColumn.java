package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.DecimalType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Decimal(P, S): the unscaled value (value × 10^S) as a 4, 8, 16 or 32-byte integer. Values with
 * more than S fractional digits or more than P digits are rejected rather than rounded.
 */
public final class DecimalColumn extends FixedWidthColumn {
    private final int precision;
    private final int scale;
    private final BigInteger limit; // 10^P: |unscaled| must be below it
    private final long longLimit; // 10^P when P <= 18, else Long.MAX_VALUE

    public DecimalColumn(String name, DecimalType type) {
        super(name, type, type.byteWidth());
        this.precision = type.precision();
        this.scale = type.scale();
        this.limit = BigInteger.TEN.pow(precision);
        this.longLimit = precision <= 18 ? limit.longValueExact() : Long.MAX_VALUE;
    }

    /** Appends value × 10^-scale given as its unscaled integer. */
    public void appendUnscaled(long unscaled) {
        if (precision <= 18 && (unscaled >= longLimit || unscaled <= -longLimit)) {
            throw outOfRange(BigDecimal.valueOf(unscaled, scale).toPlainString());
        }
        switch (width) {
            case 4 -> putInt((int) unscaled);
            case 8 -> putLong(unscaled);
            default -> {
                int off = reserve(1);
                WideIntegers.putLong(data, off, width, unscaled, true);
                rows++;
            }
        }
    }

    public void appendUnscaled(BigInteger unscaled) {
        if (unscaled.abs().compareTo(limit) >= 0) {
            throw outOfRange(new BigDecimal(unscaled, scale).toPlainString());
        }
        if (width <= 8) {
            appendUnscaled(unscaled.longValue());
            return;
        }
        int off = reserve(1);
        WideIntegers.put(data, off, width, unscaled);
        rows++;
    }

    @Override
    public void appendBigDecimal(BigDecimal value) {
        if (value.signum() == 0) {
            appendUnscaled(0L);
            return;
        }
        // Check digit counts before rescaling: setScale on 1E+999999999 or 1E-999999999 would
        // build a power of ten with a billion digits.
        BigDecimal v = value;
        if (v.scale() > scale) {
            v = v.stripTrailingZeros();
            if (v.scale() > scale) {
                throw invalid(
                        "value "
                                + describe(value)
                                + " has more than "
                                + scale
                                + " fractional digits");
            }
        }
        if (v.precision() - v.scale() > precision - scale) {
            throw outOfRange(describe(value));
        }
        BigInteger unscaled = v.setScale(scale).unscaledValue();
        if (unscaled.abs().compareTo(limit) >= 0) {
            throw outOfRange(describe(value));
        }
        appendUnscaled(unscaled);
    }

    /** The value as given, in plain notation unless that would be absurdly long. */
    private static String describe(BigDecimal value) {
        return Math.abs((long) value.scale()) <= 100 ? value.toPlainString() : value.toString();
    }

    @Override
    public void appendLong(long value) {
        appendBigDecimal(BigDecimal.valueOf(value));
    }

    @Override
    public void appendBigInteger(BigInteger value) {
        appendBigDecimal(new BigDecimal(value));
    }

    @Override
    public void appendDouble(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw reject("the number " + value);
        }
        appendBigDecimal(new BigDecimal(Double.toString(value)).stripTrailingZeros());
    }

    public BigDecimal getBigDecimal(int row) {
        checkRow(row);
        int off = row * width;
        BigInteger unscaled =
                switch (width) {
                    case 4 -> BigInteger.valueOf((int) INT_LE.get(data, off));
                    case 8 -> BigInteger.valueOf((long) LONG_LE.get(data, off));
                    default -> WideIntegers.get(data, off, width, true);
                };
        return new BigDecimal(unscaled, scale);
    }

    @Override
    public double getDouble(int row) {
        return getBigDecimal(row).doubleValue();
    }

    @Override
    public String getString(int row) {
        return getBigDecimal(row).toPlainString();
    }

    @Override
    public Object getObject(int row) {
        return getBigDecimal(row);
    }
}
