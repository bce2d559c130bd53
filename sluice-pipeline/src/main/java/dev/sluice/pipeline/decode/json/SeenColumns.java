package dev.sluice.pipeline.decode.json;

import java.util.Arrays;

/**
 * Which columns have their value in the current record: a record stamp per column, so that nothing
 * is cleared per record.
 */
final class SeenColumns {
    private final int[] stamps;
    private int record;

    SeenColumns(int columns) {
        stamps = new int[columns];
    }

    /** Starts a record (or starts one over): no column has its value yet. */
    void next() {
        if (++record == 0) {
            Arrays.fill(stamps, 0);
            record = 1;
        }
    }

    boolean has(int column) {
        return stamps[column] == record;
    }

    /** Marks column {@code column} as having its value; false when it already had one. */
    boolean mark(int column) {
        if (stamps[column] == record) {
            return false;
        }
        stamps[column] = record;
        return true;
    }
}
