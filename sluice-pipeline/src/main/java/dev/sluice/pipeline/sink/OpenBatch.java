package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.RowTarget;
import java.util.Arrays;

/**
 * The batch a pipeline thread is filling for one partition: decoders and transforms append rows to
 * its block (property 6), and it marks which rows stand for an absent field of which column.
 *
 * <p>A row is built in three steps: {@link #beginRow()}, the decoder's and transforms' appends,
 * then {@link #commitRow(long)} or {@link #rollbackRow()} (the block is cut back to the row's
 * start, so a rejected record leaves nothing behind). A row's absent fields are marked when it is
 * committed: a rolled-back row leaves no mark, and a row without absent fields costs nothing here.
 *
 * <p>The placeholders (the type's default the decoder appended) stay until the batch's writer turns
 * the batch into INSERTs ({@link BatchShaper}): columns no row has are left out, DEFAULTs are
 * computed for the rows lacking them, or those rows go to the server without the column.
 */
public final class OpenBatch implements RowTarget {
    private final String partition;
    private final BatchBuffers buffers;
    private final Block block;
    private final AbsentRows absent;
    private int[] rowAbsent = new int[8];
    private int rowAbsentCount;
    private int rows;
    private long firstPosition = -1;
    private long lastPosition = -1;
    private long firstReadNanos;
    private long dataBytes;
    private CheckpointTracker.Pending pending;
    private LedgerEntry pinned;

    /** A batch filling {@code buffers}, which must be empty. */
    public OpenBatch(String partition, BatchBuffers buffers) {
        this.partition = partition;
        this.buffers = buffers;
        this.block = buffers.block();
        this.absent = buffers.absent();
    }

    @Override
    public Block block() {
        return block;
    }

    @Override
    public int row() {
        return rows;
    }

    @Override
    public void absent(int column) {
        for (int i = 0; i < rowAbsentCount; i++) {
            if (rowAbsent[i] == column) {
                return;
            }
        }
        if (rowAbsentCount == rowAbsent.length) {
            rowAbsent = Arrays.copyOf(rowAbsent, rowAbsentCount * 2);
        }
        rowAbsent[rowAbsentCount++] = column;
    }

    @Override
    public void present(int column) {
        for (int i = 0; i < rowAbsentCount; i++) {
            if (rowAbsent[i] == column) {
                rowAbsent[i] = rowAbsent[--rowAbsentCount];
                return;
            }
        }
    }

    public void beginRow() {
        rowAbsentCount = 0;
    }

    /**
     * The row is complete; its record is at {@code position}.
     *
     * @return true when this was the batch's first row
     */
    public boolean commitRow(long position) {
        for (int i = 0; i < rowAbsentCount; i++) {
            absent.markAbsent(rowAbsent[i], rows);
        }
        rowAbsentCount = 0;
        lastPosition = position;
        buffers.position(rows, position);
        if (rows++ == 0) {
            firstPosition = position;
            return true;
        }
        return false;
    }

    /** Takes back everything appended since {@link #beginRow()}. */
    public void rollbackRow() {
        block.truncate(rows);
        rowAbsentCount = 0;
    }

    public String partition() {
        return partition;
    }

    public int rows() {
        return rows;
    }

    public boolean isEmpty() {
        return rows == 0;
    }

    /** The source position of the record of row {@code row}. */
    public long position(int row) {
        return buffers.position(row);
    }

    /** Position of the first record with a row, or -1 while empty. */
    public long firstPosition() {
        return firstPosition;
    }

    public long lastPosition() {
        return lastPosition;
    }

    /**
     * Bytes of this batch's buffers counted against the in-flight budget so far: their capacity,
     * used or not (property 3).
     */
    public long accountedBytes() {
        return buffers.accounted();
    }

    public void accountedBytes(long bytes) {
        buffers.accounted(bytes);
    }

    /** The encoded size of the rows so far, as last measured: what batch.max_bytes limits. */
    public long dataBytes() {
        return dataBytes;
    }

    public void dataBytes(long bytes) {
        dataBytes = bytes;
    }

    public CheckpointTracker.Pending pending() {
        return pending;
    }

    /** The batch got its first row: it now holds back its partition's commits. */
    public void pending(CheckpointTracker.Pending p, long firstReadNanos) {
        this.pending = p;
        this.firstReadNanos = firstReadNanos;
    }

    /** Clock time at which the record of the first row was read. */
    public long firstReadNanos() {
        return firstReadNanos;
    }

    /** The ledger entry this batch re-creates after a restart, or null. */
    public LedgerEntry pinned() {
        return pinned;
    }

    public void pin(LedgerEntry entry) {
        this.pinned = entry;
    }

    /** Which rows lack which column (marked for committed rows only). */
    public AbsentRows absentRows() {
        return absent;
    }

    /** The block and marks, for the pool once the batch is settled. */
    public BatchBuffers buffers() {
        return buffers;
    }
}
