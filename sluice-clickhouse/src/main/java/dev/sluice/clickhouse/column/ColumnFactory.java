package dev.sluice.clickhouse.column;

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
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.clickhouse.types.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.List;

/** Builds the column buffer for a ClickHouse type. */
public final class ColumnFactory {
    /** Date32 spans 1900-01-01 .. 2299-12-31 in days since the epoch. */
    static final long DATE32_MIN = -25567;

    static final long DATE32_MAX = 120529;

    private ColumnFactory() {}

    /** A column for a server-given type name; unsupported types name the column. */
    public static Column create(String name, String typeName) {
        ClickHouseType type;
        try {
            type = TypeParser.parse(typeName);
        } catch (UnsupportedTypeException e) {
            throw e.inColumn(name);
        }
        return create(name, type);
    }

    public static Column create(String name, ClickHouseType type) {
        if (type instanceof SimpleAggregateFunctionType s) {
            return create(name, s.wireType());
        }
        return switch (type) {
            case SimpleType s -> simple(name, s);
            case FixedStringType f -> new FixedBytesColumn(name, f, f.length(), false);
            case DateTimeType d -> IntColumn.natural(name, d, 4, false);
            case DateTime64Type d -> IntColumn.natural(name, d, 8, true);
            case DecimalType d -> new DecimalColumn(name, d);
            case EnumType e -> new EnumColumn(name, e);
            case NullableType n -> nullable(name, n);
            case ArrayType a -> new ArrayColumn(name, a, create(name + ".element", a.element()));
            case TupleType t -> tuple(name, t);
            case MapType m ->
                    new MapColumn(
                            name,
                            m,
                            create(name + ".key", m.key()),
                            create(name + ".value", m.value()));
            case LowCardinalityType lc -> lowCardinality(name, lc);
            case JsonType j -> new JsonColumn(name, j);
            case SimpleAggregateFunctionType s -> create(name, s.wireType());
        };
    }

    private static Column simple(String name, SimpleType s) {
        return switch (s) {
            case INT8, INT16, INT32, INT64 -> IntColumn.natural(name, s, s.byteWidth(), true);
            case UINT8, UINT16, UINT32, UINT64 -> IntColumn.natural(name, s, s.byteWidth(), false);
            case INT128, INT256 -> new BigIntColumn(name, s, s.byteWidth(), true);
            case UINT128, UINT256 -> new BigIntColumn(name, s, s.byteWidth(), false);
            case FLOAT32, FLOAT64, BFLOAT16 -> new FloatColumn(name, s, s.byteWidth());
            case BOOL -> new IntColumn(name, s, 1, false, 0, 1);
            case STRING -> new StringColumn(name, s);
            case DATE -> IntColumn.natural(name, s, 2, false);
            case DATE32 -> new IntColumn(name, s, 4, true, DATE32_MIN, DATE32_MAX);
            case UUID -> new UuidColumn(name);
            case IPV4 -> IntColumn.natural(name, s, 4, false);
            case IPV6 -> new FixedBytesColumn(name, s, 16, true);
            case NOTHING -> new NothingColumn(name);
        };
    }

    private static Column nullable(String name, NullableType n) {
        ClickHouseType inner = n.inner().wireType();
        if (inner instanceof NullableType
                || inner instanceof ArrayType
                || inner instanceof MapType
                || inner instanceof TupleType
                || inner instanceof LowCardinalityType) {
            throw new IllegalArgumentException(
                    "unsupported type "
                            + n.typeName()
                            + " in column "
                            + name
                            + ": ClickHouse does not allow "
                            + inner.typeName()
                            + " inside Nullable");
        }
        return new NullableColumn(name, n, create(name, inner));
    }

    private static Column tuple(String name, TupleType t) {
        List<Column> elements = new ArrayList<>(t.elements().size());
        for (int i = 0; i < t.elements().size(); i++) {
            String element = t.isNamed() ? t.names().get(i) : Integer.toString(i + 1);
            elements.add(create(name + "." + element, t.elements().get(i)));
        }
        return new TupleColumn(name, t, elements);
    }

    private static Column lowCardinality(String name, LowCardinalityType lc) {
        ClickHouseType keyType = lc.dictionaryType().wireType();
        Column keys = create(name, keyType);
        if (!(keys instanceof FixedWidthColumn || keys instanceof StringColumn)
                || keys instanceof NothingColumn) {
            throw new IllegalArgumentException(
                    "unsupported type "
                            + lc.typeName()
                            + " in column "
                            + name
                            + ": LowCardinality holds strings, numbers and dates only");
        }
        return new LowCardinalityColumn(name, lc, keys);
    }
}
