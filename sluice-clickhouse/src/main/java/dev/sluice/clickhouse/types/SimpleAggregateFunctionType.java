package dev.sluice.clickhouse.types;

/** {@code SimpleAggregateFunction(f, T)}: stored and sent exactly as T. */
public record SimpleAggregateFunctionType(String function, ClickHouseType inner)
        implements ClickHouseType {
    @Override
    public String typeName() {
        return "SimpleAggregateFunction(" + function + ", " + inner.typeName() + ")";
    }

    @Override
    public ClickHouseType wireType() {
        return inner.wireType();
    }

    @Override
    public boolean isNullable() {
        return inner.isNullable();
    }
}
