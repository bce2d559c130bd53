package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealedBatch;

/**
 * One pipeline thread's account with the shared {@link InflightBudget} (property 3): the capacity
 * of its open batches' buffers, the copy a batch of several partitions is sent from, and the
 * buffers its pool keeps for the next batches. Open batches grow by the record, so the thread takes
 * bytes from the budget a grain at a time and keeps the unused rest as credit: the shared counter
 * is touched once per grain, not once per record. Used by its pipeline thread only.
 */
final class BudgetAccount {
    private final InflightBudget budget;
    private final long grain;
    private final BlockPool blocks;

    /** Bytes taken from the budget and not yet counted for any buffer. */
    private long credit;

    BudgetAccount(InflightBudget budget, long grain, BlockPool blocks) {
        this.budget = budget;
        this.grain = grain;
        this.blocks = blocks;
    }

    /** True while sources must not be polled. */
    boolean paused() {
        return budget.paused();
    }

    /**
     * Counts the batch's growth against the budget, taking from the budget a grain at a time. What
     * counts is the capacity of its buffers, used or not — a pooled or pre-sized block holds its
     * memory from the first row (property 3); what {@code batch.max_bytes} limits is the data,
     * which the batch learns here too ({@link BatchBuilder#dataBytes}).
     */
    void charge(BatchBuilder batch) {
        Block block = batch.block();
        long data = 0;
        long bytes = 0;
        for (int c = 0, n = block.columnCount(); c < n; c++) {
            Column column = block.column(c);
            data += column.dataBytes();
            bytes += column.capacityBytes();
        }
        bytes += batch.buffers().positionBytes();
        batch.dataBytes(data);
        long delta = bytes - batch.accountedBytes();
        if (delta > credit) {
            long grant = Math.max(grain, delta - credit);
            budget.acquire(grant);
            credit += grant;
        }
        credit -= delta;
        batch.accountedBytes(bytes);
        if (credit > 2 * grain) {
            budget.release(credit - grain);
            credit = grain;
        }
    }

    /**
     * A sealed batch counts the one block a batch of several partitions is copied into (none for
     * one partition) from sealing to settling.
     */
    void holdCopy(SealedBatch batch) {
        budget.acquire(batch.copyBytes());
    }

    /** The settled batch's copy, if it had one, is no longer held. */
    void releaseCopy(SealedBatch batch) {
        if (batch.copyBytes() > 0) {
            budget.release(batch.copyBytes());
        }
    }

    /** Drops the pooled buffers, giving back the budget bytes they held (pooled memory first). */
    void dropPooled() {
        blocks.trim(budget::release);
    }

    /** The thread is done: its credit goes back to the budget. */
    void close() {
        budget.release(credit);
        credit = 0;
    }
}
