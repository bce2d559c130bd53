package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.http.HttpConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Failures in the middle of an INSERT, on both transports: the server rejecting a block while the
 * client is still sending (a materialized view that throws on one row), and a peer that stops
 * reading (a stalled proxy) — each must end the insert with the right error, promptly.
 */
class MidInsertFailuresIT {
    private static final Duration NO_HANG = Duration.ofSeconds(90);

    /** 395: FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, from the view's throwIf. */
    private static final int THROW_IF = 395;

    /** A table whose view fails every block holding the row with id {@code badId}. */
    private static String failingTable(ClickHouseClient c, long badId) {
        String table = TestServer.newTable("midfail");
        c.execute(
                "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        c.execute(
                "CREATE MATERIALIZED VIEW "
                        + table
                        + "_mv ENGINE = Null AS SELECT throwIf(id = "
                        + badId
                        + ") AS failed FROM "
                        + table);
        return table;
    }

    private static void dropFailingTable(String table) {
        TestServer.execute("DROP TABLE IF EXISTS " + table + "_mv");
        TestServer.execute("DROP TABLE IF EXISTS " + table);
    }

    private static ConnectionConfig secureConfig() {
        String port = TestServer.env("CLICKHOUSE_TCP_SECURE_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no secure native port");
        return TestServer.config().toBuilder()
                .host("127.0.0.1")
                .port(Integer.parseInt(port))
                .secure(true)
                .sslRootCert(Path.of(TestServer.env("CLICKHOUSE_TLS_CERT")))
                .build();
    }

    /**
     * The server fails the third block while the client goes on: the error must surface while
     * sending — from the send of the failing block itself when the server is quick, else from a
     * {@code flush()} that sends nothing and only looks at what the server said — not only at
     * {@code finish()}. Over TLS the bytes of that error wait encrypted, which {@code
     * SSLSocket.available()} does not count.
     */
    @ParameterizedTest(name = "secure={0}")
    @ValueSource(booleans = {false, true})
    void aServerExceptionMidInsertIsNoticedWhileSending(boolean secure) {
        ConnectionConfig cfg = secure ? secureConfig() : TestServer.config();
        String table;
        try (NativeConnection admin = TestServer.connect()) {
            table = failingTable(admin, 1000);
        }
        try {
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> {
                        try (NativeConnection c = NativeConnection.open(cfg)) {
                            // No squashing: the server writes each block as it arrives.
                            Insert insert =
                                    c.insert(
                                            table,
                                            List.of(),
                                            Map.of(
                                                    "min_insert_block_size_rows", "0",
                                                    "min_insert_block_size_bytes", "0"),
                                            InsertOptions.DEFAULTS.withMaxBlockRows(500));
                            ServerException seen = null;
                            try {
                                // three blocks; the third fails
                                for (int i = 0; i < 1500; i++) {
                                    insert.column("id").appendLong(i);
                                    insert.column("s").appendString("row " + i);
                                    insert.endRow();
                                }
                            } catch (ServerException e) {
                                // a quick server answers while the last block is being sent
                                seen = e;
                            }
                            for (int poll = 0; poll < 400 && seen == null; poll++) {
                                try {
                                    insert.flush(); // sends nothing; reads what the server said
                                    Thread.sleep(25);
                                } catch (ServerException e) {
                                    seen = e;
                                }
                            }
                            assertThat(seen)
                                    .as("the server's exception, seen before finish()")
                                    .isNotNull();
                            assertThat(seen.code()).isEqualTo(THROW_IF);
                            assertThat(seen).hasMessageContaining("INSERT INTO " + table);
                            assertThatThrownBy(insert::finish)
                                    .isInstanceOf(IllegalStateException.class)
                                    .hasMessageContaining("finished or closed");
                            // The connection reconnects and carries on.
                            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
                        }
                    });
        } finally {
            dropFailingTable(table);
        }
    }

    /**
     * Over HTTP a row format is parsed as it arrives, in blocks of {@code max_insert_block_size}:
     * the server answers the failing block with an error while the client is still sending, and
     * that error — not the broken pipe that follows — is what the insert reports.
     */
    @Test
    void aServerExceptionMidInsertOverHttpIsTheServersError() {
        String table;
        try (NativeConnection admin = TestServer.connect()) {
            table = failingTable(admin, 1_500_000);
        }
        try (HttpConnection http =
                HttpConnection.open(ConnectionConfig.parse(HttpTransportIT.httpUrl()))) {
            Block block = rows(3_000_000, 16);
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(
                                            () ->
                                                    http.insert(
                                                            table,
                                                            block,
                                                            Map.of(
                                                                    "max_insert_block_size",
                                                                    "100000"),
                                                            null,
                                                            Formats.ROW_BINARY))
                                    .isInstanceOf(ServerException.class)
                                    .hasMessageContaining("INSERT INTO " + table)
                                    .satisfies(
                                            e ->
                                                    assertThat(((ServerException) e).code())
                                                            .isEqualTo(THROW_IF)));
            assertThat(http.queryRows("SELECT 1")).containsExactly(List.of(1L));
        } finally {
            dropFailingTable(table);
        }
    }

    /**
     * A peer that stops reading mid-INSERT (a stalled proxy; a stopped server looks the same): the
     * blocked write ends at the write timeout with an error that names it, on both transports.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"native", "http"})
    void aStallWhileWritingEndsAtTheWriteTimeout(String transport) throws Exception {
        ConnectionConfig direct =
                transport.equals("native")
                        ? TestServer.config()
                        : ConnectionConfig.parse(HttpTransportIT.httpUrl());
        String table = TestServer.newTable("stall");
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        Block block = rows(2_000_000, 24); // ~60 MB uncompressed: far beyond any socket buffer
        try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port())) {
            ConnectionConfig viaProxy =
                    direct.toBuilder()
                            .host("127.0.0.1")
                            .port(proxy.port())
                            .compression(CompressionMethod.NONE)
                            .writeTimeout(Duration.ofSeconds(2))
                            .readTimeout(Duration.ofSeconds(120))
                            .build();
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> {
                        try (ClickHouseClient c = ClickHouseClient.open(viaProxy)) {
                            // Let the query start (the native header comes back), then stall.
                            proxy.stallAfter(proxy.bytesToServer() + (1 << 20));
                            long started = System.nanoTime();
                            assertThatThrownBy(() -> c.insert(table, block, Map.of(), null))
                                    .isInstanceOf(ConnectionException.class)
                                    .hasMessageContaining("INSERT INTO " + table)
                                    .hasMessageContaining("2000 ms (write_timeout)");
                            // Bounded by the write timeout, not by the 120 s read timeout.
                            assertThat(Duration.ofNanos(System.nanoTime() - started))
                                    .isLessThan(Duration.ofSeconds(60));
                        }
                    });
        } finally {
            TestServer.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** {@code rows} rows of (id, a random string of {@code width} letters), ids from 0. */
    static Block rows(int rows, int width) {
        Block b = Block.forHeader(List.of("id", "s"), List.of("UInt64", "String"));
        SplittableRandom random = new SplittableRandom(rows);
        char[] chars = new char[width];
        for (int i = 0; i < rows; i++) {
            b.column(0).appendLong(i);
            for (int k = 0; k < width; k++) {
                chars[k] = (char) ('a' + random.nextInt(26));
            }
            b.column(1).appendString(new String(chars));
        }
        return b;
    }
}
