package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;

/**
 * A batch's reusable storage: the block its rows are appended to, and which rows lack which column
 * (the decoder's placeholders, filled or left to the server by the writer). Both keep their
 * capacity from batch to batch (property 6).
 */
public record BatchBuffers(Block block, AbsentRows absent) {

    /** Empties both for the next batch. */
    void reset() {
        block.reset();
        absent.clear();
    }
}
