package dev.sluice.pipeline.transform.expr;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.FixedWidthColumn;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleAggregateFunctionType;
import dev.sluice.clickhouse.types.SimpleType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of a column in the row being built. Integers, dates and strings are read from the
 * column's storage without allocating; Decimal (read as Float64) and UUID (read as its text)
 * allocate per read.
 */
abstract class ColumnRef extends Expr {
    final int index;
    final String name;

    private ColumnRef(Kind kind, int index, String name) {
        super(kind);
        this.index = index;
        this.name = name;
    }

    /**
     * @throws IllegalArgumentException for types expressions cannot read (arrays, maps, ...)
     */
    static ColumnRef of(int index, String name, ClickHouseType type) {
        ClickHouseType t = unwrap(type);
        if (t instanceof SimpleType s) {
            return switch (s) {
                case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, IPV4 ->
                        new Integral(Kind.INT, index, name, 1);
                case BOOL -> new Integral(Kind.BOOL, index, name, 1);
                case DATE, DATE32 -> new Integral(Kind.DATE, index, name, 1);
                case FLOAT32, FLOAT64, BFLOAT16 -> new Floating(index, name);
                case STRING -> new Text(index, name);
                case UUID -> new Printed(index, name);
                default -> throw unsupported(name, type);
            };
        }
        if (t instanceof DateTimeType) {
            return new Integral(Kind.DATETIME, index, name, 1);
        }
        if (t instanceof DateTime64Type d) {
            return new Integral(Kind.DATETIME, index, name, (long) Math.pow(10, d.precision()));
        }
        if (t instanceof DecimalType) {
            return new Floating(index, name);
        }
        if (t instanceof FixedStringType) {
            return new Text(index, name);
        }
        if (t instanceof EnumType e) {
            return new EnumName(index, name, e);
        }
        throw unsupported(name, type);
    }

    private static ClickHouseType unwrap(ClickHouseType t) {
        while (true) {
            if (t instanceof NullableType n) {
                t = n.inner();
            } else if (t instanceof LowCardinalityType lc) {
                t = lc.inner();
            } else if (t instanceof SimpleAggregateFunctionType s) {
                t = s.inner();
            } else {
                return t;
            }
        }
    }

    private static IllegalArgumentException unsupported(String name, ClickHouseType type) {
        return new IllegalArgumentException(
                "column "
                        + name
                        + " of type "
                        + type.typeName()
                        + " cannot be used in expressions");
    }

    @Override
    public String toString() {
        return name;
    }

    /** Integers, Bool, Date (days), DateTime (seconds; DateTime64 ticks divided down). */
    private static final class Integral extends ColumnRef {
        private final long ticksPerUnit;

        Integral(Kind kind, int index, String name, long ticksPerUnit) {
            super(kind, index, name);
            this.ticksPerUnit = ticksPerUnit;
        }

        @Override
        public long asLong(EvalContext c) {
            Column col = c.columns[index];
            if (col.isNull(c.row)) {
                c.nul = true;
                return 0;
            }
            c.nul = false;
            long v = col.getLong(c.row);
            return ticksPerUnit == 1 ? v : Math.floorDiv(v, ticksPerUnit);
        }
    }

    private static final class Floating extends ColumnRef {
        Floating(int index, String name) {
            super(Kind.FLOAT, index, name);
        }

        @Override
        public double asDouble(EvalContext c) {
            Column col = c.columns[index];
            if (col.isNull(c.row)) {
                c.nul = true;
                return 0;
            }
            c.nul = false;
            return col.getDouble(c.row);
        }
    }

    /** String and FixedString, read in place (through Nullable and LowCardinality). */
    private static final class Text extends ColumnRef {
        private final Slice slice = new Slice();

        Text(int index, String name) {
            super(Kind.STRING, index, name);
        }

        @Override
        public Slice asString(EvalContext c) {
            Column col = c.columns[index];
            int r = c.row;
            if (col.isNull(r)) {
                c.nul = true;
                slice.set(slice.bytes, 0, 0);
                return slice;
            }
            c.nul = false;
            if (col instanceof NullableColumn n) {
                col = n.inner();
            } else if (col instanceof LowCardinalityColumn lc) {
                r = lc.index(r);
                col = lc.dictionary();
            }
            if (col instanceof StringColumn s) {
                int start = s.start(r);
                slice.set(s.rawBytes(), start, s.end(r) - start);
            } else {
                FixedWidthColumn f = (FixedWidthColumn) col;
                slice.set(f.rawData(), r * f.width(), f.width());
            }
            return slice;
        }
    }

    /** Enum values as their names. */
    private static final class EnumName extends ColumnRef {
        private final int[] values; // sorted
        private final byte[][] names; // by position in values
        private final Slice slice = new Slice();

        EnumName(int index, String name, EnumType type) {
            super(Kind.STRING, index, name);
            values = type.entries().stream().mapToInt(EnumType.Entry::value).sorted().toArray();
            names = new byte[values.length][];
            for (EnumType.Entry e : type.entries()) {
                names[Arrays.binarySearch(values, e.value())] =
                        e.name().getBytes(StandardCharsets.UTF_8);
            }
        }

        @Override
        public Slice asString(EvalContext c) {
            Column col = c.columns[index];
            if (col.isNull(c.row)) {
                c.nul = true;
                return slice;
            }
            c.nul = false;
            byte[] n = names[Arrays.binarySearch(values, (int) col.getLong(c.row))];
            slice.set(n, 0, n.length);
            return slice;
        }
    }

    /** Types read through their text form (UUID): allocates per read. */
    private static final class Printed extends ColumnRef {
        private final Slice slice = new Slice();

        Printed(int index, String name) {
            super(Kind.STRING, index, name);
        }

        @Override
        public Slice asString(EvalContext c) {
            Column col = c.columns[index];
            if (col.isNull(c.row)) {
                c.nul = true;
                return slice;
            }
            c.nul = false;
            byte[] b = col.getString(c.row).getBytes(StandardCharsets.UTF_8);
            slice.set(b, 0, b.length);
            return slice;
        }
    }
}
