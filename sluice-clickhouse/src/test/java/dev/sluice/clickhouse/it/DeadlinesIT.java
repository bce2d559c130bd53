package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.compress.CompressionMethod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server frozen with SIGSTOP keeps its sockets open and reads nothing: without deadlines a writer
 * would wait forever (a blocked socket write has no timeout in Java). With an operation deadline,
 * an INSERT caught mid-way fails within it, with a {@link ConnectionException} that names the
 * deadline, on both transports; opening a connection to a frozen server ends at the connect
 * timeout. Runs on a private server of its own, so the shared one is never frozen.
 */
class DeadlinesIT {
    private static final Duration DEADLINE = Duration.ofSeconds(4);

    /** Room for a loaded machine on top of the deadline; far below the 300 s timeouts. */
    private static final Duration SLACK = Duration.ofSeconds(20);

    private static PrivateServer server;

    @BeforeAll
    static void startOwnServer() throws Exception {
        server = PrivateServer.start("sluice-deadlines-");
        try (NativeConnection c = NativeConnection.open(server.nativeConfig())) {
            c.execute(
                    "CREATE TABLE default.frozen (id UInt64, s String)"
                            + " ENGINE = MergeTree ORDER BY id");
        }
    }

    @AfterEach
    void thaw() throws Exception {
        server.resumeIfSuspended();
    }

    @AfterAll
    static void removeOwnServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static ConnectionConfig config(String transport) {
        ConnectionConfig base =
                transport.equals("native") ? server.nativeConfig() : server.httpConfig();
        return base.toBuilder()
                .compression(CompressionMethod.NONE) // more bytes: longer on the wire
                .operationTimeout(DEADLINE)
                .build();
    }

    /**
     * SIGSTOPs the server as soon as the query {@code queryId} runs there; completes with true
     * then, with false when it never showed up within 60 s.
     */
    private static CompletableFuture<Boolean> stopWhenRunning(String queryId) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try (NativeConnection watcher = NativeConnection.open(server.nativeConfig())) {
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        while (System.nanoTime() < until) {
                            long running =
                                    (Long)
                                            watcher.queryRows(
                                                            "SELECT count() FROM system.processes"
                                                                    + " WHERE query_id = '"
                                                                    + queryId
                                                                    + "'")
                                                    .get(0)
                                                    .get(0);
                            if (running > 0) {
                                server.suspend();
                                return true;
                            }
                            Thread.sleep(10);
                        }
                        return false;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    /** Native, streaming: blocks go out until the frozen server stops taking them. */
    @Test
    void aStreamingInsertFailsWithinItsDeadlineWhenTheServerIsStopped() {
        String queryId = UUID.randomUUID().toString();
        CompletableFuture<Boolean> stopped = stopWhenRunning(queryId);
        assertTimeoutPreemptively(
                DEADLINE.plus(SLACK).plus(Duration.ofSeconds(60)),
                () -> {
                    try (NativeConnection c = NativeConnection.open(config("native"))) {
                        Insert insert =
                                c.insert(
                                        "default.frozen",
                                        List.of(),
                                        Map.of(),
                                        InsertOptions.DEFAULTS
                                                .withMaxBlockRows(100_000)
                                                .withQueryId(queryId));
                        assertThat(stopped.get(60, TimeUnit.SECONDS))
                                .as("the INSERT showed up on the server, which was stopped")
                                .isTrue();
                        long started = System.nanoTime();
                        assertThatThrownBy(
                                        () -> {
                                            for (long i = 0; ; i++) {
                                                insert.column("id").appendLong(i);
                                                insert.column("s")
                                                        .appendString("row " + i + " of many");
                                                insert.endRow();
                                            }
                                        })
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining("INSERT INTO default.frozen")
                                .hasMessageContaining(
                                        DEADLINE.toMillis() + " ms (operation_timeout)");
                        assertThat(Duration.ofNanos(System.nanoTime() - started))
                                .isLessThan(DEADLINE.plus(SLACK));
                        assertThat(c.isOpen()).isFalse();
                    }
                });
    }

    /** A whole block (the pipeline's way), on both transports: caught mid-way, ends in time. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"native", "http"})
    void aBlockInsertFailsWithinItsDeadlineWhenTheServerIsStoppedMidWay(String transport) {
        Block block = MidInsertFailuresIT.rows(3_000_000, 24);
        String queryId = UUID.randomUUID().toString();
        assertTimeoutPreemptively(
                DEADLINE.plus(SLACK).plus(Duration.ofSeconds(60)),
                () -> {
                    try (ClickHouseClient c = ClickHouseClient.open(config(transport))) {
                        CompletableFuture<Boolean> stopped = stopWhenRunning(queryId);
                        long started = System.nanoTime();
                        assertThatThrownBy(
                                        () -> c.insert("default.frozen", block, Map.of(), queryId))
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining("INSERT INTO default.frozen")
                                .hasMessageContaining(
                                        DEADLINE.toMillis() + " ms (operation_timeout)");
                        assertThat(Duration.ofNanos(System.nanoTime() - started))
                                .isLessThan(DEADLINE.plus(SLACK));
                        assertThat(stopped.get(60, TimeUnit.SECONDS))
                                .as("the server was stopped while the INSERT ran")
                                .isTrue();
                    }
                });
    }

    /** Opening: TCP still connects (the kernel accepts), but nobody answers the handshake. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"native", "http"})
    void openingAConnectionToAStoppedServerEndsAtTheConnectTimeout(String transport)
            throws Exception {
        server.suspend();
        ConnectionConfig cfg =
                config(transport).toBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        assertTimeoutPreemptively(
                SLACK.plus(Duration.ofSeconds(2)),
                () ->
                        assertThatThrownBy(() -> ClickHouseClient.open(cfg).close())
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining(cfg.address())
                                .hasMessageContaining("2000 ms"));
        server.resume();
        try (ClickHouseClient c = ClickHouseClient.open(cfg)) {
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }
}
