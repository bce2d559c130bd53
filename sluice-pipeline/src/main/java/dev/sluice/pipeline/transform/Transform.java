package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.source.PolledRecords;

/**
 * One step of the transform chain, applied to each decoded row before it is closed. A transform may
 * read the row's values (through the block's columns at {@link RowTarget#row()}), append the values
 * of the columns it computes ({@link #producedColumns()}), or drop the row.
 *
 * <p>This is also the Java SPI for user transforms: implement it (and {@link TransformProvider})
 * and put the jar on the class path.
 */
public interface Transform {

    /** Target columns this transform appends one value to for every row it keeps. */
    int[] producedColumns();

    /**
     * @param batch the raw record's batch, and {@code index} its record, for transforms that need
     *     the raw bytes or the record's position
     * @return false to drop the row (a filter): the row counts as handled, not as an error
     */
    boolean apply(RowTarget row, PolledRecords batch, int index) throws RecordException;
}
