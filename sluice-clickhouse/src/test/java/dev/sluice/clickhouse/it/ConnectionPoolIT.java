package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionPool;
import dev.sluice.clickhouse.client.PoolOptions;
import dev.sluice.clickhouse.client.PoolStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A pool over each transport: many threads insert at once, every row is read back. */
class ConnectionPoolIT {

    private static ConnectionConfig config(String transport) {
        return transport.equals("native")
                ? TestServer.config()
                : ConnectionConfig.parse(HttpTransportIT.httpUrl());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"native", "http"})
    void concurrentInsertsThroughAPoolAllArrive(String transport) {
        String table = TestServer.newTable("pool");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, thread UInt8, s String) ENGINE = MergeTree ORDER BY id");
        int threads = 6;
        int insertsPerThread = 15;
        int rowsPerInsert = 5_000;
        PoolOptions options =
                PoolOptions.DEFAULTS
                        .withMaxSize(3)
                        .withBorrowTimeout(Duration.ofSeconds(60))
                        .withPingAfterIdle(Duration.ZERO); // ping on every borrow: exercise it
        try (ConnectionPool<ClickHouseClient> pool =
                ConnectionPool.open(config(transport), options)) {
            assertTimeoutPreemptively(
                    Duration.ofSeconds(180),
                    () -> {
                        ExecutorService exec = Executors.newFixedThreadPool(threads);
                        try {
                            List<Future<?>> done = new ArrayList<>();
                            for (int t = 0; t < threads; t++) {
                                int thread = t;
                                done.add(
                                        exec.submit(
                                                () -> {
                                                    for (int i = 0; i < insertsPerThread; i++) {
                                                        long first =
                                                                ((long) thread * insertsPerThread
                                                                                + i)
                                                                        * rowsPerInsert;
                                                        if (i % 2 == 0) {
                                                            pool.insert(
                                                                    table,
                                                                    block(
                                                                            first,
                                                                            rowsPerInsert,
                                                                            thread),
                                                                    Map.of(),
                                                                    null);
                                                        } else {
                                                            try (ConnectionPool.Lease<
                                                                            ClickHouseClient>
                                                                    lease = pool.borrow()) {
                                                                lease.connection()
                                                                        .insert(
                                                                                table,
                                                                                block(
                                                                                        first,
                                                                                        rowsPerInsert,
                                                                                        thread),
                                                                                Map.of(),
                                                                                null);
                                                            }
                                                        }
                                                    }
                                                    return null;
                                                }));
                            }
                            for (Future<?> f : done) {
                                f.get();
                            }
                        } finally {
                            exec.shutdownNow();
                        }
                    });
            long n = (long) threads * insertsPerThread * rowsPerInsert;
            List<List<Object>> check =
                    pool.withConnection(
                            c ->
                                    c.queryRows(
                                            "SELECT count(), uniqExact(id), min(id), max(id),"
                                                    + " sum(id), countIf(s != concat('r',"
                                                    + " toString(id), '/', toString(thread)))"
                                                    + " FROM "
                                                    + table));
            assertThat(check).containsExactly(List.of(n, n, 0L, n - 1, n * (n - 1) / 2, 0L));
            // Each thread's rows, value by value for one insert of each.
            Set<Long> threadsSeen = new HashSet<>();
            for (List<Object> row :
                    pool.withConnection(
                            c ->
                                    c.queryRows(
                                            "SELECT thread, count() FROM "
                                                    + table
                                                    + " GROUP BY thread ORDER BY thread"))) {
                threadsSeen.add((Long) row.get(0));
                assertThat(row.get(1)).isEqualTo((long) insertsPerThread * rowsPerInsert);
            }
            assertThat(threadsSeen).hasSize(threads);
            PoolStats s = pool.stats();
            assertThat(s.opened()).isBetween(1L, 3L);
            assertThat(s.open()).isLessThanOrEqualTo(3);
            assertThat(s.inUse()).isZero();
            assertThat(s.borrows()).isEqualTo((long) threads * insertsPerThread + 2);
            assertThat(s.healthCheckFailures()).isZero();
            assertThat(s.borrowTimeouts()).isZero();
        } finally {
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private static Block block(long first, int rows, int thread) {
        Block b =
                Block.forHeader(List.of("id", "thread", "s"), List.of("UInt64", "UInt8", "String"));
        for (long id = first; id < first + rows; id++) {
            b.column(0).appendLong(id);
            b.column(1).appendLong(thread);
            b.column(2).appendString("r" + id + "/" + thread);
        }
        return b;
    }
}
