package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.sink.BatchBuilder;

/**
 * The round a pipeline thread gathers from a source whose partitions are read side by side: the
 * open batches of every partition (not replays), sealed together as one batch of several
 * partitions. Counts their rows and data bytes, which the batch size limits apply to together, and
 * keeps the round's {@code now()}, which every batch opened during it takes (property 2).
 */
final class Round {
    private int rows;
    private long bytes;

    /** The {@code now()} of the round being gathered, or -1 before the first. */
    private long nowSeconds = -1;

    int rows() {
        return rows;
    }

    long bytes() {
        return bytes;
    }

    /** A batch of the round grew by {@code rows} rows (fewer: negative) and {@code bytes}. */
    void grew(int rows, long bytes) {
        this.rows += rows;
        this.bytes += bytes;
    }

    /** {@code batch} leaves the round (sealed or dropped) with its rows and data bytes. */
    void remove(BatchBuilder batch) {
        rows -= batch.rows();
        bytes -= batch.dataBytes();
    }

    /** Every open batch was abandoned. */
    void clear() {
        rows = 0;
        bytes = 0;
    }

    /**
     * The round's {@code now()}: {@code clockSeconds} when a new round starts (no row in it yet),
     * else the one it started with.
     */
    long nowSeconds(long clockSeconds) {
        if (rows == 0 || nowSeconds < 0) {
            nowSeconds = clockSeconds; // a new round
        }
        return nowSeconds;
    }
}
