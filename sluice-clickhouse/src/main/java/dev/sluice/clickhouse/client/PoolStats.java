package dev.sluice.clickhouse.client;

/**
 * A snapshot of a {@link ConnectionPool}.
 *
 * @param maxSize the pool's limit
 * @param open connections open or being opened (idle plus in use)
 * @param idle connections waiting to be borrowed
 * @param inUse connections borrowed (or being opened for a borrower)
 * @param waiting threads waiting in {@link ConnectionPool#borrow()}
 * @param borrows borrows that got a connection
 * @param borrowTimeouts borrows that gave up at the borrow timeout
 * @param opened connections opened
 * @param openFailures opens that failed
 * @param healthCheckFailures pings on borrow that failed (the connection was replaced)
 * @param closedBroken connections closed because they were broken, closed or busy on return
 * @param closedIdle connections closed after {@link PoolOptions#maxIdleTime()}
 * @param closedLifetime connections closed after {@link PoolOptions#maxLifetime()}
 * @param waitNanosTotal time borrowers spent waiting, in all
 * @param waitNanosMax the longest single wait
 */
public record PoolStats(
        int maxSize,
        int open,
        int idle,
        int inUse,
        int waiting,
        long borrows,
        long borrowTimeouts,
        long opened,
        long openFailures,
        long healthCheckFailures,
        long closedBroken,
        long closedIdle,
        long closedLifetime,
        long waitNanosTotal,
        long waitNanosMax) {}
