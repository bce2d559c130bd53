package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Base of every type with a fixed size per row. Values are kept in one byte array already in wire
 * order (little-endian), so encoding a column is a single bulk copy.
 */
public abstract class FixedWidthColumn extends Column {
    static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    protected final int width;
    protected byte[] data;
    protected int rows;

    protected FixedWidthColumn(String name, ClickHouseType type, int width) {
        super(name, type);
        this.width = width;
        this.data = new byte[width * 64];
    }

    public final int width() {
        return width;
    }

    /** The backing bytes: {@code rows() * width()} of them are valid. */
    public final byte[] rawData() {
        return data;
    }

    @Override
    public final int rows() {
        return rows;
    }

    @Override
    public final void reset() {
        rows = 0;
    }

    @Override
    public final long dataBytes() {
        return (long) rows * width;
    }

    @Override
    public final long capacityBytes() {
        return data.length;
    }

    /** Ensures room for {@code more} rows and returns the byte offset of the next row. */
    @Override
    public final void reserveLike(Column other) {
        if (other instanceof FixedWidthColumn f && data.length < f.data.length) {
            data = Arrays.copyOf(data, f.data.length);
        }
    }

    @Override
    public final void reserveMore(int more, long dataBytes) {
        if (more < 0 || dataBytes < 0) {
            throw new IllegalArgumentException(
                    "cannot reserve " + more + " rows, " + dataBytes + " bytes");
        }
        reserve(more); // the rows say how many bytes
    }

    protected final int reserve(int more) {
        int offset = rows * width;
        long needed = offset + (long) more * width;
        if (needed > data.length) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("column " + name + " exceeds 2 GiB");
            }
            data = Arrays.copyOf(data, grow(data.length, (int) needed));
        }
        return offset;
    }

    protected final void putByte(int v) {
        int off = reserve(1);
        data[off] = (byte) v;
        rows++;
    }

    protected final void putShort(int v) {
        int off = reserve(1);
        SHORT_LE.set(data, off, (short) v);
        rows++;
    }

    protected final void putInt(int v) {
        int off = reserve(1);
        INT_LE.set(data, off, v);
        rows++;
    }

    protected final void putLong(long v) {
        int off = reserve(1);
        LONG_LE.set(data, off, v);
        rows++;
    }

    /** Reads the row's value as a sign- or zero-extended long, for widths 1, 2, 4 and 8. */
    protected final long rawLong(int row, boolean signed) {
        int off = row * width;
        return switch (width) {
            case 1 -> signed ? data[off] : data[off] & 0xFFL;
            case 2 ->
                    signed
                            ? (short) SHORT_LE.get(data, off)
                            : (short) SHORT_LE.get(data, off) & 0xFFFFL;
            case 4 ->
                    signed
                            ? (int) INT_LE.get(data, off)
                            : (int) INT_LE.get(data, off) & 0xFFFF_FFFFL;
            default -> (long) LONG_LE.get(data, off);
        };
    }

    protected final void checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rows + " in " + name);
        }
    }

    @Override
    public void appendDefault() {
        int off = reserve(1);
        Arrays.fill(data, off, off + width, (byte) 0);
        rows++;
    }

    @Override
    public void writeData(WireOutput out) {
        out.writeBytes(data, 0, rows * width);
    }

    @Override
    public void readData(WireInput in, int n) {
        int step = Math.max(1, READ_STEP_BYTES / width);
        for (int left = n; left > 0; ) {
            int k = Math.min(left, step);
            int off = reserve(k);
            in.readFully(data, off, k * width);
            rows += k;
            left -= k;
        }
    }

    @Override
    int hashRow(int row) {
        int off = row * width;
        int h = 1;
        for (int i = off; i < off + width; i++) {
            h = 31 * h + data[i];
        }
        return h;
    }

    @Override
    boolean rowsEqual(int a, int b) {
        return Arrays.equals(
                data, a * width, a * width + width, data, b * width, b * width + width);
    }

    @Override
    public final void truncate(int newRows) {
        if (newRows < 0 || newRows > rows) {
            throw new IndexOutOfBoundsException(
                    "truncate " + name + " to " + newRows + " of " + rows);
        }
        rows = newRows;
    }

    @Override
    void appendRowFrom(Column source, int row) {
        FixedWidthColumn src = (FixedWidthColumn) source;
        int off = reserve(1);
        System.arraycopy(src.data, row * width, data, off, width);
        rows++;
    }

    @Override
    public final void appendAll(Column source) {
        checkGather(source, new int[0], 0, 0);
        FixedWidthColumn src = (FixedWidthColumn) source;
        int n = src.rows;
        int off = reserve(n);
        System.arraycopy(src.data, 0, data, off, n * width);
        rows += n;
    }

    @Override
    public final void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        byte[] src = ((FixedWidthColumn) source).data;
        int off = reserve(to - from);
        byte[] dst = data;
        // One typed load and store per row for the common widths; a byte copy for the rest.
        for (int i = from; i < to; i++, off += width) {
            int r = rows[i];
            checkSourceRow(r, sourceRows);
            switch (width) {
                case 1 -> dst[off] = src[r];
                case 2 -> SHORT_LE.set(dst, off, (short) SHORT_LE.get(src, r * 2));
                case 4 -> INT_LE.set(dst, off, (int) INT_LE.get(src, r * 4));
                case 8 -> LONG_LE.set(dst, off, (long) LONG_LE.get(src, r * 8));
                default -> System.arraycopy(src, r * width, dst, off, width);
            }
        }
        this.rows += to - from;
    }
}
