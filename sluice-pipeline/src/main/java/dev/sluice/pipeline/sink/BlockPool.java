package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;

/**
 * The batch buffers of one pipeline thread: a settled batch's block and absent-row marks are reset
 * (keeping their capacity) and filled again by a later batch, so steady state allocates no column
 * buffers (property 6). Buffers waiting here keep the budget bytes they held ({@link
 * PooledBlock#accounted}): pooled capacity is memory too (property 3). When the budget is paused
 * the thread {@link #trim}s the pool, giving those bytes back. Used by its pipeline thread only.
 */
public final class BlockPool {
    private final TargetColumns columns;
    private final ArrayDeque<PooledBlock> free = new ArrayDeque<>();

    private final int presized;

    /** The first buffers this pool made: by the time another is needed, they show the size. */
    private PooledBlock first;

    private int made;
    private long pooledBytes;

    public BlockPool(TargetColumns columns) {
        this(columns, 0);
    }

    /**
     * @param presized how many fresh blocks after the first are made at the first one's size at
     *     once (the pipeline passes shards × inflight_per_shard: with its open batch, what one
     *     thread alone can have in flight). Blocks that fill up anyway are allocated once instead
     *     of growing by copies; the cap bounds what blocks that never fill can reserve — a thread
     *     with many partitions open at once (follow mode) makes more blocks than that. The capacity
     *     reserved counts against the budget from the batch's first row.
     */
    public BlockPool(TargetColumns columns, int presized) {
        this.columns = columns;
        this.presized = presized;
    }

    /**
     * Buffers for a new batch: pooled ones with the budget bytes they hold, or fresh ones that hold
     * none yet.
     */
    public PooledBlock take() {
        PooledBlock b = free.pollFirst();
        if (b != null) {
            pooledBytes -= b.accounted();
            return b;
        }
        b = new PooledBlock(columns.newBlock(), new AbsentRows(columns.size()));
        if (first == null) {
            first = b;
        } else if (made++ < presized) {
            // Sized like the first block at once: growing 64 MiB columns by copies was the largest
            // cost of the pipeline thread in a load of a few batches (docs/pipeline.md). Only this
            // thread ever changed that block's buffers, so reading their sizes is safe even while a
            // writer sends it.
            b.block().reserveLike(first.block());
        }
        return b;
    }

    /** Takes back buffers no batch uses any more, with the budget bytes they hold. */
    public void give(PooledBlock buffers) {
        buffers.reset();
        free.addFirst(buffers);
        pooledBytes += buffers.accounted();
    }

    /** Drops every pooled buffer, handing the budget bytes they held to {@code release}. */
    public void trim(LongConsumer release) {
        if (pooledBytes > 0) {
            release.accept(pooledBytes);
        }
        pooledBytes = 0;
        for (PooledBlock b; (b = free.pollFirst()) != null; ) {
            b.accounted(0);
            if (b == first) {
                first = null; // let it go; the next block made becomes the measure
                made = 0;
            }
        }
    }

    /** Budget bytes the pooled buffers hold. */
    public long pooledBytes() {
        return pooledBytes;
    }
}
