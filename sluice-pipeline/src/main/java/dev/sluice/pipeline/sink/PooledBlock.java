package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.Arrays;

/**
 * A block and what goes with its rows, reused from batch to batch through its thread's {@link
 * BlockPool}: the block a batch's rows are appended to, which rows lack which column (the decoder's
 * placeholders, filled or left to the server by the writer), and each row's source position (so
 * that a row the server rejects is dead-lettered with its position, docs/pipeline.md "Server
 * errors"). All keep their capacity from batch to batch (property 6) — and that capacity is counted
 * against the in-flight budget for as long as the buffers exist, filling a batch or waiting in
 * their pool (property 3): {@link #accounted} is how much of the budget they hold.
 */
public final class PooledBlock {
    private final Block block;
    private final AbsentRows absent;
    private final InsertTarget target;
    private final TargetColumns columns;
    private long[] positions = new long[0];
    private long accounted;

    public PooledBlock(Block block, AbsentRows absent) {
        this(block, absent, null, null);
    }

    /**
     * Buffers in {@code columns}' layout for batches into {@code target} (null: the sink's only
     * table).
     */
    PooledBlock(Block block, AbsentRows absent, TargetColumns columns, InsertTarget target) {
        this.block = block;
        this.absent = absent;
        this.columns = columns;
        this.target = target;
    }

    public Block block() {
        return block;
    }

    public AbsentRows absent() {
        return absent;
    }

    /** The table the batches of these buffers go to; null for the sink's only table. */
    public InsertTarget target() {
        return target;
    }

    /** The layout the buffers were made in (their pool's key); null when made outside a pool. */
    TargetColumns columns() {
        return columns;
    }

    /** Records that row {@code row} comes from the record at {@code position}. */
    void position(int row, long position) {
        if (row >= positions.length) {
            positions =
                    Arrays.copyOf(positions, Math.max(16, Math.max(row + 1, positions.length * 2)));
        }
        positions[row] = position;
    }

    /** The source position of row {@code row}'s record. */
    public long position(int row) {
        return positions[row];
    }

    /** Bytes of the row positions' array: capacity, counted against the budget like the block's. */
    public long positionBytes() {
        return 8L * positions.length;
    }

    /** Bytes of the in-flight budget these buffers hold (their capacity, as last measured). */
    public long accounted() {
        return accounted;
    }

    public void accounted(long bytes) {
        accounted = bytes;
    }

    /** Empties both for the next batch. */
    void reset() {
        block.reset();
        absent.clear();
    }
}
