package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.RowTarget;
import java.util.Arrays;

/**
 * The rows of one partition's open batch, as a pipeline thread fills them: decoders and transforms
 * append rows to its block (property 6), and it marks which rows stand for an absent field of which
 * column. Once the batch is sealed the builder is a {@link SealedBatch.Segment} of it, read (never
 * written) until the batch is settled and its buffers go back to the pool.
 *
 * <p>A row is built in three steps: {@link #beginRow()}, the decoder's and transforms' appends,
 * then {@link #commitRow(long)} or {@link #rollbackRow()} (the block is cut back to the row's
 * start, so a rejected record leaves nothing behind). A row's absent fields are marked when it is
 * committed: a rolled-back row leaves no mark, and a row without absent fields costs nothing here.
 *
 * <p>The placeholders (the type's default the decoder appended) stay until the batch's writer turns
 * the batch into INSERTs ({@link BatchShaper}): columns no row has are left out, DEFAULTs are
 * computed for the rows lacking them, or those rows go to the server without the column.
 *
 * <p>With expression transforms at the end of the chain, a complete row is <i>staged</i> instead of
 * committed ({@link #stageRow}): it stays in the block after the committed rows, with its position,
 * record and absent marks aside, until the transforms have run over the staged rows column-wise;
 * then the rows they keep are committed in order ({@link #commitStaged}) and the others are gone
 * from the block (ADR 0010).
 *
 * <p>The batch's {@code now()} — for transforms, DEFAULTs and keys — is read once, when its first
 * record is decoded, or taken from the ledger entry it re-creates ({@link #nowSeconds()}).
 */
public final class BatchBuilder implements RowTarget {
    private final String partition;
    private final PooledBlock buffers;
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
    private long nowSeconds = -1;
    private long nowTakenNanos;

    private int staged;
    private long[] stagedPositions = new long[64];
    private int[] stagedRecords = new int[64];

    /**
     * Absent columns of staged row {@code j}: {@code stagedAbsent[absentFrom[j], absentFrom[j+1])}.
     */
    private int[] absentFrom = new int[65];

    private int[] stagedAbsent = new int[16];

    /** A batch filling {@code buffers}, which must be empty. */
    public BatchBuilder(String partition, PooledBlock buffers) {
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
        return rows + staged;
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
        block.truncate(rows + staged);
        rowAbsentCount = 0;
    }

    /**
     * The row is complete but waits for the expression transforms: its record ({@code record} of
     * the polled batch) is at {@code position}.
     */
    public void stageRow(long position, int record) {
        if (staged == stagedPositions.length) {
            int n = staged * 2;
            stagedPositions = Arrays.copyOf(stagedPositions, n);
            stagedRecords = Arrays.copyOf(stagedRecords, n);
            absentFrom = Arrays.copyOf(absentFrom, n + 1);
        }
        int from = absentFrom[staged];
        if (stagedAbsent.length < from + rowAbsentCount) {
            stagedAbsent = Arrays.copyOf(stagedAbsent, Math.max(16, 2 * (from + rowAbsentCount)));
        }
        System.arraycopy(rowAbsent, 0, stagedAbsent, from, rowAbsentCount);
        absentFrom[staged + 1] = from + rowAbsentCount;
        stagedPositions[staged] = position;
        stagedRecords[staged] = record;
        staged++;
        rowAbsentCount = 0;
    }

    /** Rows staged since the last {@link #clearStaged}. */
    public int staged() {
        return staged;
    }

    /** The polled records of the staged rows, in order (valid up to {@link #staged()}). */
    public int[] stagedRecords() {
        return stagedRecords;
    }

    public long stagedPosition(int j) {
        return stagedPositions[j];
    }

    /**
     * Staged row {@code j} stays: it is the next committed row (the transforms moved it there).
     * Rows are committed in staged order.
     *
     * @return true when this was the batch's first row
     */
    public boolean commitStaged(int j) {
        for (int k = absentFrom[j]; k < absentFrom[j + 1]; k++) {
            absent.markAbsent(stagedAbsent[k], rows);
        }
        long position = stagedPositions[j];
        lastPosition = position;
        if (rows++ == 0) {
            firstPosition = position;
            return true;
        }
        return false;
    }

    /** Forgets the staged rows; the block keeps the committed rows only. */
    public void clearStaged() {
        staged = 0;
        absentFrom[0] = 0;
        block.truncate(rows);
    }

    public String partition() {
        return partition;
    }

    public int rows() {
        return rows;
    }

    /** No committed row and no staged row. */
    public boolean isEmpty() {
        return rows == 0 && staged == 0;
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

    /**
     * The batch's {@code now()} in epoch seconds, or -1 before its first row: transforms, DEFAULTs
     * and keys compute with it, and the ledger records it with the batch's boundaries.
     */
    public long nowSeconds() {
        return nowSeconds;
    }

    /** Sets the batch's {@code now()}, decided at clock time {@code takenNanos}. */
    public void nowSeconds(long seconds, long takenNanos) {
        nowSeconds = seconds;
        nowTakenNanos = takenNanos;
    }

    /** When the batch's {@code now()} was decided (clock nanos). */
    public long nowTakenNanos() {
        return nowTakenNanos;
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
    public PooledBlock buffers() {
        return buffers;
    }
}
