package dev.sluice.clickhouse.types;

/** {@code DateTime64(p[, 'tz'])}: Int64 ticks of 10^-p seconds since the epoch. */
public record DateTime64Type(int precision, String timezone) implements ClickHouseType {
    public DateTime64Type {
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("DateTime64 precision must be 0..9: " + precision);
        }
    }

    @Override
    public String typeName() {
        return timezone == null
                ? "DateTime64(" + precision + ")"
                : "DateTime64(" + precision + ", " + TypeParser.quote(timezone) + ")";
    }
}
