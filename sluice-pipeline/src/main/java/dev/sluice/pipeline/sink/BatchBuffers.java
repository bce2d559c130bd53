package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;

/**
 * A batch's reusable storage: the block its rows are appended to, and which rows lack which column
 * (the decoder's placeholders, filled or left to the server by the writer). Both keep their
 * capacity from batch to batch (property 6) — and that capacity is counted against the in-flight
 * budget for as long as the buffers exist, filling a batch or waiting in their pool (property 3):
 * {@link #accounted} is how much of the budget they hold.
 */
public final class BatchBuffers {
    private final Block block;
    private final AbsentRows absent;
    private long accounted;

    public BatchBuffers(Block block, AbsentRows absent) {
        this.block = block;
        this.absent = absent;
    }

    public Block block() {
        return block;
    }

    public AbsentRows absent() {
        return absent;
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
