package dev.sluice.clickhouse.types;

/**
 * {@code Decimal(P, S)}: the value times 10^S as a two's complement integer of 4, 8, 16 or 32
 * bytes, chosen by P. {@code Decimal32(S)} and friends parse to the same type.
 */
public record DecimalType(int precision, int scale) implements ClickHouseType {
    public static final int MAX_PRECISION = 76;

    public DecimalType {
        if (precision < 1 || precision > MAX_PRECISION) {
            throw new IllegalArgumentException("Decimal precision must be 1..76: " + precision);
        }
        if (scale < 0 || scale > precision) {
            throw new IllegalArgumentException(
                    "Decimal scale must be 0.." + precision + ": " + scale);
        }
    }

    /** Bytes per value on the wire. */
    public int byteWidth() {
        if (precision <= 9) {
            return 4;
        }
        if (precision <= 18) {
            return 8;
        }
        if (precision <= 38) {
            return 16;
        }
        return 32;
    }

    @Override
    public String typeName() {
        return "Decimal(" + precision + ", " + scale + ")";
    }
}
