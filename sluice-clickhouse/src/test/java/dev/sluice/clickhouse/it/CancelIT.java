package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.CancelledException;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code cancel()} from another thread, on both transports. */
class CancelIT {
    private static final Duration NO_HANG = Duration.ofSeconds(90);

    /**
     * A query that runs for minutes before its first result block; {@code marker} finds it in
     * system.processes (and no other test's).
     */
    private static String slow(String marker) {
        return "SELECT sum(number) + 0 * length('" + marker + "') FROM numbers(100000000000)";
    }

    private static long running(String queryId) {
        return TestServer.single(
                "SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'");
    }

    /** Waits (at most 30 s) until {@code queryId} runs on the server or no longer runs. */
    private static boolean waitUntil(String queryId, boolean runs) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            if ((running(queryId) > 0) == runs) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** A streaming SELECT: Cancel goes out, the rest is drained, the connection stays usable. */
    @Test
    void aNativeQueryCancelledFromAnotherThreadEndsAndTheConnectionStaysUsable() {
        try (NativeConnection c = TestServer.connect()) {
            CountDownLatch firstBlock = new CountDownLatch(1);
            CompletableFuture<Boolean> cancelled =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    firstBlock.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                return c.cancel();
                            });
            long[] rows = {0};
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(
                                            () ->
                                                    c.query(
                                                            "SELECT number FROM system.numbers",
                                                            Map.of(),
                                                            b -> {
                                                                rows[0] += b.rows();
                                                                firstBlock.countDown();
                                                            }))
                                    .isInstanceOf(CancelledException.class)
                                    .hasMessageContaining("SELECT number FROM system.numbers")
                                    .hasMessageContaining("cancelled by thread")
                                    .satisfies(
                                            e ->
                                                    assertThat(
                                                                    ((CancelledException) e)
                                                                            .connectionKept())
                                                            .isTrue()));
            assertThat(cancelled.join()).isTrue();
            assertThat(rows[0]).isPositive();
            assertThat(c.isOpen()).isTrue();
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
            assertThat(c.cancel()).as("nothing left to cancel").isFalse();
        }
    }

    /** A query still computing, before any result: the server stops it and says so. */
    @Test
    void aNativeQueryCancelledBeforeItsFirstBlockStopsOnTheServer() throws Exception {
        try (NativeConnection c = TestServer.connect()) {
            String marker = UUID.randomUUID().toString();
            CompletableFuture<Void> canceller =
                    CompletableFuture.runAsync(
                            () -> {
                                try {
                                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                                    while (TestServer.single(
                                                            "SELECT count() FROM system.processes"
                                                                    + " WHERE query LIKE '%"
                                                                    + marker
                                                                    + "%' AND query NOT LIKE"
                                                                    + " '%system.processes%'")
                                                    == 0
                                            && System.nanoTime() < until) {
                                        Thread.sleep(20);
                                    }
                                    c.cancel();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            });
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(() -> c.queryRows(slow(marker)))
                                    .isInstanceOf(CancelledException.class));
            canceller.join();
            // The server says the query ended before it takes it off its process list: a moment
            // later (seconds on a loaded machine) it must be gone.
            String running =
                    "SELECT count() FROM system.processes WHERE query LIKE '%"
                            + marker
                            + "%' AND query NOT LIKE '%system.processes%'";
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (TestServer.single(running) > 0 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(TestServer.single(running))
                    .as("the server ended the query: it no longer runs")
                    .isZero();
            assertThat(c.queryRows("SELECT 2")).containsExactly(List.of(2L));
        }
    }

    /**
     * An INSERT cannot be taken back: cancelling one drops the connection, so the server aborts it;
     * nothing of the rows not yet sent arrives.
     */
    @Test
    void aNativeInsertCancelledFromAnotherThreadDropsTheConnection() throws Exception {
        String table = TestServer.newTable("cancelins");
        TestServer.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = Memory");
        try (NativeConnection c = TestServer.connect()) {
            Insert insert =
                    c.insert(
                            table,
                            List.of(),
                            Map.of(),
                            InsertOptions.DEFAULTS.withMaxBlockRows(1000));
            for (int i = 0; i < 500; i++) { // below one block: nothing sent yet
                insert.column("x").appendLong(i);
                insert.endRow();
            }
            assertThat(CompletableFuture.supplyAsync(c::cancel).get(30, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(insert::finish)
                    .isInstanceOf(CancelledException.class)
                    .hasMessageContaining("INSERT INTO " + table)
                    .hasMessageContaining("dropped")
                    .satisfies(
                            e -> assertThat(((CancelledException) e).connectionKept()).isFalse());
            assertThat(c.isOpen()).isFalse();
        } finally {
            assertThat(TestServer.single("SELECT count() FROM " + table)).isZero();
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** HTTP: the request is aborted and the running query is killed by its id. */
    @Test
    void anHttpQueryCancelledFromAnotherThreadIsKilledOnTheServer() throws Exception {
        try (ClickHouseClient http = ClickHouseClient.open(HttpTransportIT.httpUrl())) {
            String marker = UUID.randomUUID().toString();
            String[] queryId = new String[1];
            CompletableFuture<Boolean> cancelled =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                                    while (System.nanoTime() < until) {
                                        List<List<Object>> ids;
                                        try (NativeConnection watcher = TestServer.connect()) {
                                            ids =
                                                    watcher.queryRows(
                                                            "SELECT query_id FROM"
                                                                    + " system.processes WHERE"
                                                                    + " query LIKE '%"
                                                                    + marker
                                                                    + "%'"
                                                                    + " AND query NOT LIKE"
                                                                    + " '%system.processes%'");
                                        }
                                        if (!ids.isEmpty()) {
                                            queryId[0] = (String) ids.get(0).get(0);
                                            return http.cancel();
                                        }
                                        Thread.sleep(20);
                                    }
                                    return false;
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    return false;
                                }
                            });
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(() -> http.queryRows(slow(marker)))
                                    .isInstanceOf(CancelledException.class)
                                    .hasMessageContaining("over HTTP")
                                    .hasMessageContaining("cancelled by thread"));
            assertThat(cancelled.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(waitUntil(queryId[0], false))
                    .as("the query is gone from system.processes")
                    .isTrue();
            assertThat(http.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    /** HTTP INSERT mid-body: the request ends, the server aborts the incomplete INSERT. */
    @Test
    void anHttpInsertCancelledMidBodyIsAborted() throws Exception {
        String table = TestServer.newTable("cancelhttp");
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        Block block = MidInsertFailuresIT.rows(3_000_000, 24);
        String queryId = UUID.randomUUID().toString();
        ConnectionConfig cfg = ConnectionConfig.parse(HttpTransportIT.httpUrl());
        try (ClickHouseClient http = ClickHouseClient.open(cfg)) {
            CompletableFuture<Boolean> cancelled =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return waitUntil(queryId, true) && http.cancel();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    return false;
                                }
                            });
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(() -> http.insert(table, block, Map.of(), queryId))
                                    .isInstanceOf(CancelledException.class)
                                    .hasMessageContaining("INSERT INTO " + table));
            assertThat(cancelled.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(waitUntil(queryId, false)).isTrue();
            // One Native block: the server writes it only once it is complete, so nothing landed.
            assertThat(TestServer.single("SELECT count() FROM " + table)).isZero();
        } finally {
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
