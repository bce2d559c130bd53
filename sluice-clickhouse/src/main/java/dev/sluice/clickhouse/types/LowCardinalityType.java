package dev.sluice.clickhouse.types;

/**
 * {@code LowCardinality(T)}: a dictionary of distinct values plus one index per row. T may be
 * {@code Nullable}; the dictionary itself holds the non-nullable inner type.
 */
public record LowCardinalityType(ClickHouseType inner) implements ClickHouseType {
    @Override
    public String typeName() {
        return "LowCardinality(" + inner.typeName() + ")";
    }

    @Override
    public boolean isNullable() {
        return inner.isNullable();
    }

    /** The type of the dictionary's keys: the inner type without {@code Nullable}. */
    public ClickHouseType dictionaryType() {
        return inner instanceof NullableType n ? n.inner() : inner;
    }
}
