package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.FixedWidthColumn;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.clickhouse.io.WireOutput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Writes the rows of a {@link Block} as ClickHouse RowBinary: row after row, each row the values of
 * all columns in order, with no header.
 *
 * <pre>
 * fixed-width (ints, floats, Date, DateTime, Enum, UUID, Decimal, FixedString): the Native bytes
 * String                  VarUInt length, bytes
 * Nullable(T)             UInt8 1 = NULL (nothing follows) | UInt8 0, T
 * Array(T)                VarUInt count, count x T
 * Tuple(T1..Tn)           T1 .. Tn
 * Map(K, V)               VarUInt count, count x (K, V)
 * LowCardinality(T)       T (the dictionary value); LowCardinality(Nullable(T)) as Nullable(T)
 * </pre>
 *
 * JSON columns are written as their text (a String), which servers with the JSON type read in
 * RowBinary only with {@code input_format_binary_read_json_as_string=1}.
 *
 * <p>The type dispatch happens once, in {@link #forBlock}: it builds a tree of small writers bound
 * to the block's column objects, so the per-row loop makes one virtual call per value and allocates
 * nothing. The writers read each column's arrays afresh on every call, so the same writer stays
 * valid while the block is reset and refilled (and its arrays grow); build a new one for a block
 * with other column objects. Not thread-safe.
 */
public final class RowBinaryWriter {
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Block block;
    private final ValueWriter[] writers;

    private RowBinaryWriter(Block block, ValueWriter[] writers) {
        this.block = block;
        this.writers = writers;
    }

    /**
     * A writer for {@code block}'s columns.
     *
     * @throws IllegalArgumentException for a column kind RowBinary cannot express
     */
    public static RowBinaryWriter forBlock(Block block) {
        ValueWriter[] writers = new ValueWriter[block.columnCount()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = writerFor(block.column(i));
        }
        return new RowBinaryWriter(block, writers);
    }

    public Block block() {
        return block;
    }

    /** Writes one row. */
    public void writeRow(int row, WireOutput out) {
        Objects.checkIndex(row, block.rows());
        for (ValueWriter w : writers) {
            w.write(row, out);
        }
    }

    /** Writes rows {@code [from, to)}. */
    public void writeRows(int from, int to, WireOutput out) {
        Objects.checkFromToIndex(from, to, block.rows());
        ValueWriter[] ws = writers;
        for (int r = from; r < to; r++) {
            for (ValueWriter w : ws) {
                w.write(r, out);
            }
        }
    }

    /** Writes every row of the block. */
    public void writeAll(WireOutput out) {
        writeRows(0, block.rows(), out);
    }

    // ---- The writer tree ----

    /** Writes the value of one row of one column. */
    private abstract static class ValueWriter {
        abstract void write(int row, WireOutput out);
    }

    private static ValueWriter writerFor(Column c) {
        // Composite kinds first: none of them is a FixedWidthColumn or StringColumn, but the order
        // keeps the intent plain.
        return switch (c) {
            case LowCardinalityColumn lc ->
                    new LowCardinalityWriter(
                            lc, writerFor(lc.dictionary()), lc.type().isNullable());
            case NullableColumn n -> new NullableWriter(n, writerFor(n.inner()));
            case ArrayColumn a -> new ArrayWriter(a, writerFor(a.elements()));
            case MapColumn m -> new MapWriter(m, writerFor(m.keys()), writerFor(m.values()));
            case TupleColumn t -> {
                ValueWriter[] elements = new ValueWriter[t.size()];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = writerFor(t.element(i));
                }
                yield new TupleWriter(elements);
            }
            case StringColumn s -> new StringWriter(s);
            case FixedWidthColumn f ->
                    switch (f.width()) {
                        case 1 -> new Fixed1Writer(f);
                        case 2 -> new Fixed2Writer(f);
                        case 4 -> new Fixed4Writer(f);
                        case 8 -> new Fixed8Writer(f);
                        default -> new FixedWriter(f);
                    };
            default ->
                    throw new IllegalArgumentException(
                            "column "
                                    + c.name()
                                    + " of type "
                                    + c.type().typeName()
                                    + " has no RowBinary writer");
        };
    }

    private static final class Fixed1Writer extends ValueWriter {
        private final FixedWidthColumn column;

        Fixed1Writer(FixedWidthColumn column) {
            this.column = column;
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeByte(column.rawData()[row]);
        }
    }

    private static final class Fixed2Writer extends ValueWriter {
        private final FixedWidthColumn column;

        Fixed2Writer(FixedWidthColumn column) {
            this.column = column;
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeInt16((short) SHORT_LE.get(column.rawData(), row << 1));
        }
    }

    private static final class Fixed4Writer extends ValueWriter {
        private final FixedWidthColumn column;

        Fixed4Writer(FixedWidthColumn column) {
            this.column = column;
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeInt32((int) INT_LE.get(column.rawData(), row << 2));
        }
    }

    private static final class Fixed8Writer extends ValueWriter {
        private final FixedWidthColumn column;

        Fixed8Writer(FixedWidthColumn column) {
            this.column = column;
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeInt64((long) LONG_LE.get(column.rawData(), row << 3));
        }
    }

    /** FixedString(N), UUID, 128/256-bit integers and decimals: the stored bytes as they are. */
    private static final class FixedWriter extends ValueWriter {
        private final FixedWidthColumn column;
        private final int width;

        FixedWriter(FixedWidthColumn column) {
            this.column = column;
            this.width = column.width();
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeBytes(column.rawData(), row * width, width);
        }
    }

    private static final class StringWriter extends ValueWriter {
        private final StringColumn column;

        StringWriter(StringColumn column) {
            this.column = column;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = column.start(row);
            out.writeString(column.rawBytes(), start, column.end(row) - start);
        }
    }

    private static final class NullableWriter extends ValueWriter {
        private final NullableColumn column;
        private final ValueWriter inner;

        NullableWriter(NullableColumn column, ValueWriter inner) {
            this.column = column;
            this.inner = inner;
        }

        @Override
        void write(int row, WireOutput out) {
            if (column.isNull(row)) {
                out.writeByte(1);
            } else {
                out.writeByte(0);
                inner.write(row, out);
            }
        }
    }

    private static final class ArrayWriter extends ValueWriter {
        private final ArrayColumn column;
        private final ValueWriter elements;

        ArrayWriter(ArrayColumn column, ValueWriter elements) {
            this.column = column;
            this.elements = elements;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = column.start(row);
            int end = column.end(row);
            out.writeVarUInt(end - start);
            for (int i = start; i < end; i++) {
                elements.write(i, out);
            }
        }
    }

    private static final class MapWriter extends ValueWriter {
        private final MapColumn column;
        private final ValueWriter keys;
        private final ValueWriter values;

        MapWriter(MapColumn column, ValueWriter keys, ValueWriter values) {
            this.column = column;
            this.keys = keys;
            this.values = values;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = column.start(row);
            int end = column.end(row);
            out.writeVarUInt(end - start);
            for (int i = start; i < end; i++) {
                keys.write(i, out);
                values.write(i, out);
            }
        }
    }

    private static final class TupleWriter extends ValueWriter {
        private final ValueWriter[] elements;

        TupleWriter(ValueWriter[] elements) {
            this.elements = elements;
        }

        @Override
        void write(int row, WireOutput out) {
            for (ValueWriter e : elements) {
                e.write(row, out);
            }
        }
    }

    /**
     * RowBinary has no dictionary: each row is its dictionary value. Key 0 of a nullable dictionary
     * is the NULL placeholder, so the row is written as Nullable(T).
     */
    private static final class LowCardinalityWriter extends ValueWriter {
        private final LowCardinalityColumn column;
        private final ValueWriter dictionary;
        private final boolean nullable;

        LowCardinalityWriter(
                LowCardinalityColumn column, ValueWriter dictionary, boolean nullable) {
            this.column = column;
            this.dictionary = dictionary;
            this.nullable = nullable;
        }

        @Override
        void write(int row, WireOutput out) {
            int key = column.index(row);
            if (nullable) {
                if (key == 0) {
                    out.writeByte(1);
                    return;
                }
                out.writeByte(0);
            }
            dictionary.write(key, out);
        }
    }
}
