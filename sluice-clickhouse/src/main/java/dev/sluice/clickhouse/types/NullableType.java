package dev.sluice.clickhouse.types;

/** {@code Nullable(T)}: a null map byte per row, then T's data with placeholders for NULLs. */
public record NullableType(ClickHouseType inner) implements ClickHouseType {
    @Override
    public String typeName() {
        return "Nullable(" + inner.typeName() + ")";
    }

    @Override
    public boolean isNullable() {
        return true;
    }
}
