package dev.sluice.clickhouse.client;

import java.time.Duration;

/**
 * No connection became free within the pool's borrow timeout: all {@code maxSize} were in use. The
 * message and the accessors carry the numbers.
 */
public class PoolExhaustedException extends ClickHouseException {
    private final Duration waited;
    private final int maxSize;
    private final int waiting;

    public PoolExhaustedException(String pool, Duration waited, int maxSize, int waiting) {
        super(
                pool
                        + ": no connection free within "
                        + waited.toMillis()
                        + " ms (borrow timeout): all "
                        + maxSize
                        + " of maxSize "
                        + maxSize
                        + " in use, "
                        + waiting
                        + " other thread"
                        + (waiting == 1 ? "" : "s")
                        + " waiting");
        this.waited = waited;
        this.maxSize = maxSize;
        this.waiting = waiting;
    }

    /** How long this borrow waited. */
    public Duration waited() {
        return waited;
    }

    public int maxSize() {
        return maxSize;
    }

    /** Other threads waiting when this one gave up. */
    public int waiting() {
        return waiting;
    }
}
