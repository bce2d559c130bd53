package dev.sluice.clickhouse.defaults;

import java.util.Arrays;

/**
 * Which rows of a batch lack which column: the decoder appends the type's default as a placeholder
 * for a missing field and marks the row here; {@link DefaultFiller} then replaces the placeholders
 * with the column's DEFAULT. One bit per row and column, reused batch after batch.
 */
public final class AbsentRows {
    private long[][] bits;
    private int[] counts;

    /** For blocks of {@code columns} columns. */
    public AbsentRows(int columns) {
        bits = new long[columns][];
        counts = new int[columns];
        for (int c = 0; c < columns; c++) {
            bits[c] = new long[1];
        }
    }

    public int columns() {
        return bits.length;
    }

    /** Forgets all marks, keeping capacity (once per batch). */
    public void clear() {
        for (int c = 0; c < bits.length; c++) {
            if (counts[c] > 0) {
                Arrays.fill(bits[c], 0L);
                counts[c] = 0;
            }
        }
    }

    /** Row {@code row} lacks column {@code column}. */
    public void markAbsent(int column, int row) {
        long[] b = bits[column];
        int word = row >>> 6;
        if (word >= b.length) {
            b = Arrays.copyOf(b, Math.max(word + 1, b.length * 2));
            bits[column] = b;
        }
        long mask = 1L << row;
        if ((b[word] & mask) == 0) {
            b[word] |= mask;
            counts[column]++;
        }
    }

    public boolean isAbsent(int column, int row) {
        long[] b = bits[column];
        int word = row >>> 6;
        return word < b.length && (b[word] & (1L << row)) != 0;
    }

    /** How many rows lack {@code column}. */
    public int count(int column) {
        return counts[column];
    }

    public boolean anyAbsent(int column) {
        return counts[column] > 0;
    }

    /** Writes the rows lacking {@code column}, ascending, into {@code out}; returns how many. */
    int rows(int column, int[] out) {
        long[] b = bits[column];
        int k = 0;
        for (int w = 0; w < b.length; w++) {
            long word = b[w];
            while (word != 0) {
                out[k++] = (w << 6) + Long.numberOfTrailingZeros(word);
                word &= word - 1;
            }
        }
        return k;
    }
}
