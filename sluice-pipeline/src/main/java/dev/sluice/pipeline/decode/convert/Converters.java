package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.types.ArrayType;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import dev.sluice.clickhouse.types.JsonType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.MapType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleAggregateFunctionType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TupleType;

/** Builds the converter for a column type (the tree of converters for composite types). */
public final class Converters {
    private Converters() {}

    /**
     * A new converter for {@code type}.
     *
     * @throws IllegalArgumentException for types no input can be converted to (Nothing)
     */
    public static Converter forType(ClickHouseType type) {
        return create(type, false);
    }

    /**
     * @param inLowCardinality the column is a LowCardinality one, whose own appends take NULL and
     *     the inner type's values (there is no separate inner Nullable column)
     */
    private static Converter create(ClickHouseType type, boolean inLowCardinality) {
        return switch (type) {
            case SimpleType s -> simple(s);
            case FixedStringType f -> new StringConverter(f, false);
            case DateTimeType d -> new DateTimeConverter(d, 0, d.timezone(), false);
            case DateTime64Type d -> new DateTimeConverter(d, d.precision(), d.timezone(), true);
            case DecimalType d -> new DecimalConverter(d);
            case EnumType e -> new EnumConverter(e);
            case NullableType n ->
                    new NullableConverter(n, create(n.inner(), false), inLowCardinality);
            case ArrayType a -> new ArrayConverter(a, create(a.element(), false));
            case TupleType t -> {
                Converter[] elements = new Converter[t.elements().size()];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = create(t.elements().get(i), false);
                }
                yield new TupleConverter(t, elements);
            }
            case MapType m -> new MapConverter(m, create(m.key(), false), create(m.value(), false));
            case LowCardinalityType lc -> create(lc.inner(), true);
            case JsonType j -> new StringConverter(j, true);
            case SimpleAggregateFunctionType s -> create(s.inner(), inLowCardinality);
        };
    }

    private static Converter simple(SimpleType s) {
        return switch (s) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 ->
                    new IntegerConverter(s, false);
            case INT128, INT256, UINT128, UINT256 -> new IntegerConverter(s, true);
            case FLOAT32, FLOAT64, BFLOAT16 -> new FloatConverter(s);
            case BOOL -> new BoolConverter();
            case STRING -> new StringConverter(s, true);
            case DATE, DATE32 -> new DateConverter(s);
            case UUID -> new UuidConverter();
            case IPV4, IPV6 -> new IpConverter(s);
            case NOTHING -> throw new IllegalArgumentException("no input converts to Nothing");
        };
    }
}
