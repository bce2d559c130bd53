package dev.sluice.clickhouse.types;

/** {@code Array(T)}: UInt64 end offsets per row, then all elements as one T column. */
public record ArrayType(ClickHouseType element) implements ClickHouseType {
    @Override
    public String typeName() {
        return "Array(" + element.typeName() + ")";
    }
}
