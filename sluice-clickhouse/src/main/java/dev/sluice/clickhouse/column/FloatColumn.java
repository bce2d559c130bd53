package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.ClickHouseType;

/** Float32, Float64 and BFloat16 (the upper 16 bits of a Float32, rounded to nearest even). */
public final class FloatColumn extends FixedWidthColumn {

    public FloatColumn(String name, ClickHouseType type, int width) {
        super(name, type, width);
        if (width != 2 && width != 4 && width != 8) {
            throw new IllegalArgumentException("float width " + width);
        }
    }

    @Override
    public void appendDouble(double value) {
        switch (width) {
            case 8 -> putLong(Double.doubleToRawLongBits(value));
            case 4 -> {
                float f = (float) value;
                if (Float.isInfinite(f) && !Double.isInfinite(value)) {
                    throw outOfRange(Double.toString(value));
                }
                putInt(Float.floatToRawIntBits(f));
            }
            default -> {
                int bits = toBFloat16((float) value);
                // Like Float32: a finite value that rounds to infinity does not fit.
                if ((bits & 0x7FFF) == 0x7F80 && !Double.isInfinite(value)) {
                    throw outOfRange(Double.toString(value));
                }
                putShort(bits);
            }
        }
    }

    @Override
    public void appendLong(long value) {
        appendDouble(value);
    }

    static int toBFloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return (bits >>> 16) | 0x40; // keep it a quiet NaN after truncation
        }
        int roundingBias = 0x7FFF + ((bits >>> 16) & 1);
        return (bits + roundingBias) >>> 16;
    }

    @Override
    public double getDouble(int row) {
        checkRow(row);
        int off = row * width;
        return switch (width) {
            case 8 -> Double.longBitsToDouble((long) LONG_LE.get(data, off));
            case 4 -> Float.intBitsToFloat((int) INT_LE.get(data, off));
            default -> Float.intBitsToFloat(((short) SHORT_LE.get(data, off) & 0xFFFF) << 16);
        };
    }

    @Override
    public String getString(int row) {
        return width == 8
                ? Double.toString(getDouble(row))
                : Float.toString((float) getDouble(row));
    }

    @Override
    public Object getObject(int row) {
        return width == 8 ? (Object) getDouble(row) : (Object) (float) getDouble(row);
    }
}
