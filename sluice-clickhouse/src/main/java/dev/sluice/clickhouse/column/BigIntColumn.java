package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.ClickHouseType;
import java.math.BigInteger;

/** Int128, UInt128, Int256 and UInt256. */
public final class BigIntColumn extends FixedWidthColumn {
    private final boolean signed;

    public BigIntColumn(String name, ClickHouseType type, int width, boolean signed) {
        super(name, type, width);
        this.signed = signed;
    }

    @Override
    public void appendLong(long value) {
        if (!signed && value < 0) {
            throw outOfRange(Long.toString(value));
        }
        int off = reserve(1);
        WideIntegers.putLong(data, off, width, value, signed);
        rows++;
    }

    @Override
    public void appendUnsignedLong(long bits) {
        int off = reserve(1);
        WideIntegers.putLong(data, off, width, bits, false);
        rows++;
    }

    @Override
    public void appendBigInteger(BigInteger value) {
        if (!WideIntegers.fits(value, width * 8, signed)) {
            throw outOfRange(value.toString());
        }
        int off = reserve(1);
        WideIntegers.put(data, off, width, value);
        rows++;
    }

    /** Appends a 128-bit value from its two halves, without allocating (width 16 only). */
    public void appendInt128(long low, long high) {
        if (width != 16) {
            throw reject("a 128-bit value");
        }
        int off = reserve(1);
        LONG_LE.set(data, off, low);
        LONG_LE.set(data, off + 8, high);
        rows++;
    }

    public BigInteger getBigInteger(int row) {
        checkRow(row);
        return WideIntegers.get(data, row * width, width, signed);
    }

    @Override
    public long getLong(int row) {
        return getBigInteger(row).longValueExact();
    }

    @Override
    public String getString(int row) {
        return getBigInteger(row).toString();
    }

    @Override
    public Object getObject(int row) {
        return getBigInteger(row);
    }
}
