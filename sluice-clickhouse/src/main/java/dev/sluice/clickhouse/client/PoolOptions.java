package dev.sluice.clickhouse.client;

import java.time.Duration;

/**
 * How a {@link ConnectionPool} sizes and tends its connections.
 *
 * @param maxSize connections open at most (idle and borrowed together)
 * @param borrowTimeout how long {@link ConnectionPool#borrow()} waits for a free connection when
 *     all {@code maxSize} are borrowed
 * @param maxIdleTime an idle connection unused this long is closed
 * @param maxLifetime a connection older than this is closed instead of lent again (spreads
 *     connections over servers behind a load balancer and retires long-lived sockets)
 * @param pingAfterIdle a connection idle this long is pinged before it is lent; below this, its own
 *     state (open, not broken, no operation in progress) is the whole health check
 * @param housekeepingPeriod how often idle connections are checked for the two limits above
 */
public record PoolOptions(
        int maxSize,
        Duration borrowTimeout,
        Duration maxIdleTime,
        Duration maxLifetime,
        Duration pingAfterIdle,
        Duration housekeepingPeriod) {

    /**
     * Up to 8 connections, 30 s to borrow, idle ones closed after 10 min, none older than 1 h, a
     * ping after 30 s idle, housekeeping every 30 s.
     */
    public static final PoolOptions DEFAULTS =
            new PoolOptions(
                    8,
                    Duration.ofSeconds(30),
                    Duration.ofMinutes(10),
                    Duration.ofHours(1),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(30));

    public PoolOptions {
        if (maxSize <= 0) {
            throw new IllegalArgumentException("pool maxSize must be positive: " + maxSize);
        }
        requirePositive("borrowTimeout", borrowTimeout, true);
        requirePositive("maxIdleTime", maxIdleTime, false);
        requirePositive("maxLifetime", maxLifetime, false);
        requirePositive("pingAfterIdle", pingAfterIdle, true);
        requirePositive("housekeepingPeriod", housekeepingPeriod, false);
    }

    private static void requirePositive(String name, Duration d, boolean zeroAllowed) {
        if (d == null || d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException(
                    "pool "
                            + name
                            + " must be "
                            + (zeroAllowed ? "zero or positive" : "positive")
                            + ", got "
                            + d);
        }
    }

    public PoolOptions withMaxSize(int n) {
        return new PoolOptions(
                n, borrowTimeout, maxIdleTime, maxLifetime, pingAfterIdle, housekeepingPeriod);
    }

    /** Zero: fail at once when no connection is free. */
    public PoolOptions withBorrowTimeout(Duration d) {
        return new PoolOptions(
                maxSize, d, maxIdleTime, maxLifetime, pingAfterIdle, housekeepingPeriod);
    }

    public PoolOptions withMaxIdleTime(Duration d) {
        return new PoolOptions(
                maxSize, borrowTimeout, d, maxLifetime, pingAfterIdle, housekeepingPeriod);
    }

    public PoolOptions withMaxLifetime(Duration d) {
        return new PoolOptions(
                maxSize, borrowTimeout, maxIdleTime, d, pingAfterIdle, housekeepingPeriod);
    }

    /** Zero: ping on every borrow. */
    public PoolOptions withPingAfterIdle(Duration d) {
        return new PoolOptions(
                maxSize, borrowTimeout, maxIdleTime, maxLifetime, d, housekeepingPeriod);
    }

    public PoolOptions withHousekeepingPeriod(Duration d) {
        return new PoolOptions(maxSize, borrowTimeout, maxIdleTime, maxLifetime, pingAfterIdle, d);
    }
}
