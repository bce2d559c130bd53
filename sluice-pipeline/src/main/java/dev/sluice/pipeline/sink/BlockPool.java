package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The batch buffers of one pipeline thread: a settled batch's block and absent-row marks are reset
 * (keeping their capacity) and filled again by a later batch, so steady state allocates no column
 * buffers (property 6). Buffers waiting here keep the budget bytes they held ({@link
 * PooledBlock#accounted}): pooled capacity is memory too (property 3). When the budget is paused
 * the thread {@link #trim}s the pool, giving those bytes back. Used by its pipeline thread only.
 *
 * <p>Buffers come in layouts: the pool's own columns ({@link #take()}), and those of each table a
 * thread writes to ({@link #take(TargetColumns, InsertTarget)}: a sink with several tables, or a
 * table altered while data flows). A layout no longer used is {@link #retire}d: its pooled buffers
 * are dropped and buffers of it given back later are dropped too, their budget bytes released.
 */
public final class BlockPool {
    private final TargetColumns columns;
    private final Map<TargetColumns, Shape> shapes = new IdentityHashMap<>();
    private final LongConsumer release;

    private final int presized;

    private long pooledBytes;

    /** The pooled buffers of one layout. */
    private static final class Shape {
        final TargetColumns columns;
        final InsertTarget target;
        final ArrayDeque<PooledBlock> free = new ArrayDeque<>();

        /** The first buffers made: by the time another is needed, they show the size. */
        PooledBlock first;

        int made;
        boolean retired;

        Shape(TargetColumns columns, InsertTarget target) {
            this.columns = columns;
            this.target = target;
        }
    }

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
        this(columns, presized, bytes -> {});
    }

    /**
     * @param columns the layout of {@link #take()}; null when every layout is asked for by name
     * @param release takes the budget bytes of buffers of a {@linkplain #retire retired} layout
     */
    public BlockPool(TargetColumns columns, int presized, LongConsumer release) {
        this.columns = columns;
        this.presized = presized;
        this.release = release;
    }

    /**
     * Buffers for a new batch in the pool's own layout: pooled ones with the budget bytes they
     * hold, or fresh ones that hold none yet.
     */
    public PooledBlock take() {
        return take(columns, null);
    }

    /**
     * Buffers for a new batch in {@code layout}, whose batches go to {@code target} (null: the
     * sink's only table).
     */
    public PooledBlock take(TargetColumns layout, InsertTarget target) {
        Shape shape = shapes.get(layout);
        if (shape == null || shape.retired) {
            shape = new Shape(layout, target);
            shapes.put(layout, shape);
        }
        PooledBlock b = shape.free.pollFirst();
        if (b != null) {
            pooledBytes -= b.accounted();
            return b;
        }
        b = new PooledBlock(layout.newBlock(), new AbsentRows(layout.size()), layout, shape.target);
        if (shape.first == null) {
            shape.first = b;
        } else if (shape.made++ < presized) {
            // Sized like the first block at once: growing 64 MiB columns by copies was the largest
            // cost of the pipeline thread in a load of a few batches (docs/pipeline.md). Only this
            // thread ever changed that block's buffers, so reading their sizes is safe even while a
            // writer sends it.
            b.block().reserveLike(shape.first.block());
        }
        return b;
    }

    /** Takes back buffers no batch uses any more, with the budget bytes they hold. */
    public void give(PooledBlock buffers) {
        Shape shape = buffers.columns() == null ? null : shapes.get(buffers.columns());
        if (shape != null && shape.retired) {
            release(buffers); // a layout no longer used: not kept
            return;
        }
        buffers.reset();
        if (shape == null) {
            shape = shapes.computeIfAbsent(columns, c -> new Shape(c, null));
        }
        shape.free.addFirst(buffers);
        pooledBytes += buffers.accounted();
    }

    /**
     * No more batches are made in {@code layout} (its table changed): its pooled buffers are
     * dropped and their budget bytes released, and so are those of its batches still in flight when
     * they come back.
     */
    public void retire(TargetColumns layout) {
        Shape shape = shapes.get(layout);
        if (shape == null || shape.retired) {
            return;
        }
        shape.retired = true;
        for (PooledBlock b; (b = shape.free.pollFirst()) != null; ) {
            pooledBytes -= b.accounted();
            release(b);
        }
    }

    private void release(PooledBlock b) {
        long bytes = b.accounted();
        b.accounted(0);
        if (bytes > 0) {
            release.accept(bytes);
        }
    }

    /** Drops every pooled buffer, handing the budget bytes they held to {@code release}. */
    public void trim(LongConsumer release) {
        if (pooledBytes > 0) {
            release.accept(pooledBytes);
        }
        pooledBytes = 0;
        for (Shape shape : shapes.values()) {
            for (PooledBlock b; (b = shape.free.pollFirst()) != null; ) {
                b.accounted(0);
                if (b == shape.first) {
                    shape.first = null; // let it go; the next block made becomes the measure
                    shape.made = 0;
                }
            }
        }
    }

    /** Budget bytes the pooled buffers hold. */
    public long pooledBytes() {
        return pooledBytes;
    }
}
