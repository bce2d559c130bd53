package dev.sluice.pipeline.decode;

import dev.sluice.pipeline.source.PolledRecords;

/**
 * Turns one raw record into one row of column values, appending straight into the block's column
 * buffers — no object per record (property 6).
 *
 * <p>A decoder is created for a fixed {@link TargetColumns} and resolves its field-to-column
 * mapping once. For each record it appends exactly one value to every column it feeds (for an
 * absent field: the column's default, reported through {@link RowTarget#absent}) and nothing to the
 * others; the runtime then lets transforms fill computed columns and closes the row. On a bad
 * record it throws {@link RecordException}; the runtime truncates the columns back to the row's
 * start, so a half-decoded record never reaches the table. Decoders are used by one thread at a
 * time.
 */
public interface Decoder {

    /** True when the first record of each partition is a header line (CSV/TSV with names). */
    default boolean expectsHeader() {
        return false;
    }

    /**
     * Reads a partition's header record, so that later records of that partition are mapped by
     * name. Called before any record of the partition.
     */
    default void header(PolledRecords records, int index) throws RecordException {}

    /** The target column indexes this decoder appends to, for every record. */
    int[] fedColumns();

    /**
     * Appends one row for record {@code index} of {@code records}: one value to each of {@link
     * #fedColumns()} of {@code row.block()}.
     */
    void decode(PolledRecords records, int index, RowTarget row) throws RecordException;
}
