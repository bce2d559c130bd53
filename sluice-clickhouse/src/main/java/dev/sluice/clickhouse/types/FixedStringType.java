package dev.sluice.clickhouse.types;

/** {@code FixedString(N)}: N bytes per row, shorter values NUL-padded. */
public record FixedStringType(int length) implements ClickHouseType {
    public FixedStringType {
        if (length <= 0) {
            throw new IllegalArgumentException("FixedString length must be positive: " + length);
        }
    }

    @Override
    public String typeName() {
        return "FixedString(" + length + ")";
    }
}
