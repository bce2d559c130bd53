package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.compress.CompressionMethod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One connection, several threads: the native connection refuses a second thread at once, naming
 * what the first is doing, rather than mixing two threads' bytes on one socket; the HTTP client
 * runs concurrent inserts, each with its own compression context.
 */
class ConcurrencyIT {
    private static final Duration NO_HANG = Duration.ofSeconds(120);

    @Test
    void aSecondThreadOnANativeConnectionFailsFastAndTheFirstGoesOn() throws Exception {
        try (NativeConnection c = TestServer.connect()) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            ExecutorService pool =
                    Executors.newSingleThreadExecutor(r -> new Thread(r, "reader-thread"));
            try {
                Future<Long> first =
                        pool.submit(
                                () -> {
                                    long[] rows = {0};
                                    c.query(
                                            "SELECT number FROM system.numbers LIMIT 100000",
                                            Map.of(),
                                            b -> {
                                                rows[0] += b.rows();
                                                inside.countDown();
                                                try {
                                                    leave.await();
                                                } catch (InterruptedException e) {
                                                    Thread.currentThread().interrupt();
                                                }
                                            });
                                    return rows[0];
                                });
                assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
                assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("query SELECT 1")
                        .hasMessageContaining(
                                "query SELECT number FROM system.numbers LIMIT 100000 is running"
                                        + " on thread 'reader-thread'")
                        .hasMessageContaining(Thread.currentThread().getName());
                assertThatThrownBy(c::ping)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("reader-thread");
                leave.countDown();
                assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(100_000L);
            } finally {
                pool.shutdownNow();
            }
            assertThat(c.queryRows("SELECT 2")).containsExactly(List.of(2L));
        }
    }

    /** close() from another thread ends the running query at once with a clear error. */
    @Test
    void closingFromAnotherThreadEndsTheRunningOperation() {
        NativeConnection c = TestServer.connect();
        CompletableFuture<Void> closer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                Thread.sleep(300);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            c.close();
                        },
                        Executors.newSingleThreadExecutor(r -> new Thread(r, "closer-thread")));
        assertTimeoutPreemptively(
                NO_HANG,
                () ->
                        assertThatThrownBy(
                                        () ->
                                                // Ends by itself within 3 s: a server that
                                                // does not notice the closed socket is not
                                                // left computing for minutes.
                                                c.queryRows("SELECT sleep(3)"))
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining(
                                        "the connection was closed by thread 'closer-thread'"));
        closer.join();
        assertThat(c.isOpen()).isFalse();
        assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void anOpenInsertKeepsOtherOperationsOutNamingItsThread() throws Exception {
        String table = TestServer.newTable("busy");
        TestServer.execute("CREATE TABLE " + table + " (x UInt32) ENGINE = Memory");
        try (NativeConnection c = TestServer.connect()) {
            Insert insert =
                    CompletableFuture.supplyAsync(
                                    () -> c.insert(table, List.of(), Map.of()),
                                    Executors.newSingleThreadExecutor(
                                            r -> new Thread(r, "insert-starter")))
                            .get(30, TimeUnit.SECONDS);
            assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("busy with INSERT INTO " + table)
                    .hasMessageContaining("started on thread 'insert-starter'");
            insert.column("x").appendLong(5);
            insert.endRow();
            insert.finish(); // another thread may carry on with the insert, one at a time
            assertThat(c.queryRows("SELECT x FROM " + table)).containsExactly(List.of(5L));
        } finally {
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /**
     * One HTTP client, eight threads inserting at once with ZSTD frames: every row arrives. A ZSTD
     * compression context shared by the threads would corrupt frames (or crash in native code).
     */
    @Test
    void concurrentHttpInsertsWithZstdAllArrive() {
        String table = TestServer.newTable("httpconc");
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        ConnectionConfig cfg =
                ConnectionConfig.parse(HttpTransportIT.httpUrl()).toBuilder()
                        .compression(CompressionMethod.ZSTD)
                        .build();
        int threads = 8;
        int insertsPerThread = 12;
        int rowsPerInsert = 20_000;
        try (ClickHouseClient http = ClickHouseClient.open(cfg)) {
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> {
                        ExecutorService pool = Executors.newFixedThreadPool(threads);
                        try {
                            List<Future<?>> done = new ArrayList<>();
                            for (int t = 0; t < threads; t++) {
                                int thread = t;
                                done.add(
                                        pool.submit(
                                                () -> {
                                                    for (int i = 0; i < insertsPerThread; i++) {
                                                        long first =
                                                                ((long) thread * insertsPerThread
                                                                                + i)
                                                                        * rowsPerInsert;
                                                        http.insert(
                                                                table,
                                                                block(first, rowsPerInsert),
                                                                Map.of(),
                                                                null);
                                                    }
                                                    return null;
                                                }));
                            }
                            for (Future<?> f : done) {
                                f.get();
                            }
                        } finally {
                            pool.shutdownNow();
                        }
                    });
            long n = (long) threads * insertsPerThread * rowsPerInsert;
            assertThat(
                            http.queryRows(
                                    "SELECT count(), uniqExact(id), min(id), max(id), sum(id),"
                                            + " countIf(s != concat('v', toString(id))) FROM "
                                            + table))
                    .containsExactly(List.of(n, n, 0L, n - 1, n * (n - 1) / 2, 0L));
        } finally {
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private static Block block(long first, int rows) {
        Block b = Block.forHeader(List.of("id", "s"), List.of("UInt64", "String"));
        for (long id = first; id < first + rows; id++) {
            b.column(0).appendLong(id);
            b.column(1).appendString("v" + id);
        }
        return b;
    }
}
