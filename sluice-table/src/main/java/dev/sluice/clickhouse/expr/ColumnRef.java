package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.FixedBytesColumn;
import dev.sluice.clickhouse.column.FixedWidthColumn;
import dev.sluice.clickhouse.column.FloatColumn;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.StringColumn;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Reads a block column's values for the evaluated rows, straight from its buffers. */
final class ColumnRef extends Node {
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String name;

    /** Whether the stored integer is signed (for widening to long). */
    private final boolean signedStorage;

    ColumnRef(String name, ValueType type, boolean signedStorage) {
        super(type);
        this.name = name;
        this.signedStorage = signedStorage;
    }

    String name() {
        return name;
    }

    @Override
    boolean rowIndependent() {
        return false;
    }

    /** The column found in the last block evaluated (blocks are reused batch after batch). */
    private Block lastBlock;

    private Column lastColumn;

    @Override
    ValueVector eval(Context ctx) {
        Column c;
        if (ctx.block == lastBlock) {
            c = lastColumn;
        } else {
            int index = ctx.block.indexOf(name);
            if (index < 0) {
                throw new IllegalArgumentException("the block has no column " + name);
            }
            c = ctx.block.column(index);
            lastBlock = ctx.block;
            lastColumn = c;
        }
        int n = ctx.count;
        out.prepare(n, false);
        if (c instanceof NullableColumn nc) {
            byte[] nulls = out.nullMap();
            for (int i = 0; i < n; i++) {
                nulls[i] = (byte) (nc.isNull(ctx.row(i)) ? 1 : 0);
            }
            read(nc.inner(), ctx, null);
        } else if (c instanceof LowCardinalityColumn lc) {
            // Rows map to dictionary keys; key 0 of a nullable dictionary is NULL.
            int[] keys = scratchKeys(n);
            boolean nullable = type.nullable();
            byte[] nulls = nullable ? out.nullMap() : null;
            for (int i = 0; i < n; i++) {
                keys[i] = lc.index(ctx.row(i));
                if (nullable && keys[i] == 0) {
                    nulls[i] = 1;
                }
            }
            read(lc.dictionary(), ctx, keys);
        } else {
            read(c, ctx, null);
        }
        return out;
    }

    private int[] keyScratch = new int[0];

    private int[] scratchKeys(int n) {
        if (keyScratch.length < n) {
            keyScratch = new int[ValueVector.grow(keyScratch.length, n)];
        }
        return keyScratch;
    }

    /** Reads rows {@code keys[i]} (or the context's rows when keys is null) of {@code c}. */
    private void read(Column c, Context ctx, int[] keys) {
        int n = ctx.count;
        switch (c) {
            case StringColumn s -> {
                out.borrowBytes(s.rawBytes());
                for (int i = 0; i < n; i++) {
                    int r = keys == null ? ctx.row(i) : keys[i];
                    out.starts[i] = s.start(r);
                    out.ends[i] = s.end(r);
                }
            }
            case FixedBytesColumn f -> {
                out.borrowBytes(f.rawData());
                int w = f.width();
                for (int i = 0; i < n; i++) {
                    int r = keys == null ? ctx.row(i) : keys[i];
                    out.starts[i] = r * w;
                    out.ends[i] = r * w + w;
                }
            }
            case FloatColumn f -> {
                byte[] d = f.rawData();
                double[] v = out.doubles;
                boolean wide = f.width() == 8;
                for (int i = 0; i < n; i++) {
                    int r = keys == null ? ctx.row(i) : keys[i];
                    v[i] =
                            wide
                                    ? Double.longBitsToDouble((long) LONG_LE.get(d, r * 8))
                                    : Float.intBitsToFloat((int) INT_LE.get(d, r * 4));
                }
            }
            case FixedWidthColumn f -> readIntegers(f, ctx, keys);
            default ->
                    throw new IllegalArgumentException(
                            "column "
                                    + name
                                    + " is a "
                                    + c.getClass().getSimpleName()
                                    + ", not a column of "
                                    + type);
        }
    }

    private void readIntegers(FixedWidthColumn f, Context ctx, int[] keys) {
        int n = ctx.count;
        byte[] d = f.rawData();
        long[] v = out.longs;
        int w = f.width();
        boolean s = signedStorage;
        for (int i = 0; i < n; i++) {
            int r = keys == null ? ctx.row(i) : keys[i];
            int off = r * w;
            v[i] =
                    switch (w) {
                        case 1 -> s ? d[off] : d[off] & 0xFFL;
                        case 2 ->
                                s
                                        ? (short) SHORT_LE.get(d, off)
                                        : (short) SHORT_LE.get(d, off) & 0xFFFFL;
                        case 4 ->
                                s
                                        ? (int) INT_LE.get(d, off)
                                        : (int) INT_LE.get(d, off) & 0xFFFF_FFFFL;
                        default -> (long) LONG_LE.get(d, off);
                    };
        }
    }
}
