package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.Arrays;

/**
 * Cumulative end offsets of Array and Map rows: row r spans elements {@code [end(r-1), end(r))}.
 * Written as one UInt64 per row.
 */
final class Offsets {
    private long[] ends = new long[64];
    private int rows;

    int rows() {
        return rows;
    }

    void reset() {
        rows = 0;
    }

    long last() {
        return rows == 0 ? 0 : ends[rows - 1];
    }

    long start(int row) {
        return row == 0 ? 0 : ends[row - 1];
    }

    long end(int row) {
        return ends[row];
    }

    void add(long end) {
        if (rows == ends.length) {
            ends = Arrays.copyOf(ends, Column.grow(ends.length, rows + 1));
        }
        ends[rows++] = end;
    }

    void truncate(int newRows, String column) {
        if (newRows < 0 || newRows > rows) {
            throw new IndexOutOfBoundsException(
                    "truncate " + column + " to " + newRows + " of " + rows);
        }
        rows = newRows;
    }

    void write(WireOutput out) {
        for (int r = 0; r < rows; r++) {
            out.writeInt64(ends[r]);
        }
    }

    /** Reads {@code n} offsets and returns how many elements they add. */
    long read(WireInput in, int n, String column) {
        long base = last();
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long end = in.readInt64();
            if (end < prev) {
                throw new WireException(
                        "column "
                                + column
                                + ": array offsets decrease ("
                                + prev
                                + " then "
                                + end
                                + ") at byte "
                                + in.offset());
            }
            prev = end;
            add(base + end);
        }
        if (prev > Integer.MAX_VALUE - base) {
            throw new WireException(
                    "column " + column + ": " + prev + " array elements in one block");
        }
        return prev;
    }

    /**
     * Appends the offsets of {@code source}'s rows {@code rows[from .. to)} and writes the element
     * indexes they cover, in order, into a scratch array that is returned; {@code count[0]} gets
     * how many there are.
     */
    int[] gather(Offsets source, int[] rows, int from, int to, int[] scratch, int[] count) {
        long total = 0;
        for (int i = from; i < to; i++) {
            int r = rows[i];
            total += source.end(r) - source.start(r);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("more than 2^31 array elements in one column");
        }
        int[] out = scratch.length >= total ? scratch : new int[(int) total];
        int k = 0;
        long end = last();
        for (int i = from; i < to; i++) {
            int r = rows[i];
            for (long e = source.start(r); e < source.end(r); e++) {
                out[k++] = (int) e;
            }
            end += source.end(r) - source.start(r);
            add(end);
        }
        count[0] = k;
        return out;
    }

    /** Bytes the offsets' buffer holds. */
    long capacityBytes() {
        return 8L * ends.length;
    }
}
