package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.ArrayDeque;

/**
 * The blocks of one pipeline thread: a settled batch's block is reset (keeping its capacity) and
 * filled again by a later batch, so steady state allocates no column buffers (property 6). The pool
 * holds at most as many blocks as the thread ever had in flight at once, which the in-flight budget
 * bounds. Used by its pipeline thread only.
 */
public final class BlockPool {
    private final TargetColumns columns;
    private final ArrayDeque<Block> free = new ArrayDeque<>();

    public BlockPool(TargetColumns columns) {
        this.columns = columns;
    }

    public Block take() {
        Block b = free.pollFirst();
        return b != null ? b : columns.newBlock();
    }

    /** Takes back a block no batch uses any more. */
    public void give(Block block) {
        block.reset();
        free.addFirst(block);
    }
}
