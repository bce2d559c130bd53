package dev.sluice.clickhouse.types;

/**
 * A ClickHouse data type as a tree: {@code Array(Nullable(String))} is an {@link ArrayType} of a
 * {@link NullableType} of {@link SimpleType#STRING}. Parse server type names with {@link
 * TypeParser}; {@link #typeName()} prints the canonical spelling the server uses.
 */
public sealed interface ClickHouseType
        permits SimpleType,
                FixedStringType,
                DateTimeType,
                DateTime64Type,
                DecimalType,
                EnumType,
                NullableType,
                ArrayType,
                TupleType,
                MapType,
                LowCardinalityType,
                SimpleAggregateFunctionType,
                JsonType {

    /** The canonical type name, as the server prints it. */
    String typeName();

    /** True for {@code Nullable(T)}. */
    default boolean isNullable() {
        return false;
    }

    /**
     * The type whose bytes are on the wire: wrappers that do not change the encoding (such as
     * {@code SimpleAggregateFunction}) are removed.
     */
    default ClickHouseType wireType() {
        return this;
    }
}
