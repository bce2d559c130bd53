package dev.sluice.clickhouse.types;

/** {@code Map(K, V)}: on the wire exactly {@code Array(Tuple(K, V))}. */
public record MapType(ClickHouseType key, ClickHouseType value) implements ClickHouseType {
    @Override
    public String typeName() {
        return "Map(" + key.typeName() + ", " + value.typeName() + ")";
    }
}
