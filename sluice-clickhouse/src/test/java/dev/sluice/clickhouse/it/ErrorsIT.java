package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.column.ColumnValueException;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every failure is one clear exception, and nothing hangs. */
class ErrorsIT {
    private static final Duration NO_HANG = Duration.ofSeconds(60);

    private static String newTable(NativeConnection c, String prefix) {
        String table = TestServer.newTable(prefix);
        c.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, small UInt8, s String, m UInt64 MATERIALIZED id * 2)"
                        + " ENGINE = MergeTree ORDER BY id");
        return table;
    }

    @Test
    void unknownTableNamesTheTable() {
        try (NativeConnection c = TestServer.connect()) {
            assertThatThrownBy(
                            () ->
                                    c.insert(
                                            TestServer.DATABASE + ".no_such_table",
                                            List.of(),
                                            Map.of()))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("no_such_table")
                    .satisfies(
                            e ->
                                    assertThat(((ServerException) e).code())
                                            .isEqualTo(ServerException.UNKNOWN_TABLE))
                    .satisfies(e -> assertThat(((ServerException) e).isRetryable()).isFalse());
            // The connection stays usable after a server-side error.
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    /**
     * Queries the server rejects before reading what the client sent after them (18.16 then takes
     * the leftover external-tables block for the next query's and drops the connection with
     * "Unexpected packet Data received from client"): the next queries on the same connection still
     * work, inserts included.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELEC 1",
                "SELECT 'x' FROM",
                "SELECT no_such_function(1)",
                "SELECT * FROM sluice_test.no_such_table",
                "OVERSIZED"
            })
    void aRejectedQueryLeavesTheConnectionUsable(String bad) {
        String sql = bad.equals("OVERSIZED") ? "SELECT '" + "x".repeat(300_000) + "'" : bad;
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errreuse");
            for (int round = 1; round <= 3; round++) {
                assertThatThrownBy(() -> c.queryRows(sql)).isInstanceOf(ServerException.class);
                assertThat(c.queryRows("SELECT " + round)).containsExactly(List.of((long) round));
                assertThatThrownBy(() -> c.execute(sql)).isInstanceOf(ServerException.class);
                try (Insert insert = c.insert(table, List.of("id", "small", "s"), Map.of())) {
                    insert.column(0).appendLong(round);
                    insert.column(1).appendLong(round);
                    insert.column(2).appendString("r" + round);
                    insert.endRow();
                    insert.finish();
                }
            }
            assertThat(c.queryRows("SELECT id, small, s FROM " + table + " ORDER BY id"))
                    .containsExactly(
                            List.of(1L, 1L, "r1"), List.of(2L, 2L, "r2"), List.of(3L, 3L, "r3"));
        }
    }

    /**
     * After a server error the connection reconnects (the old socket cannot be trusted), and the
     * new session gets the old one's SET and USE statements again: the settings the caller chose
     * for the session hold across the error.
     */
    @Test
    void aReconnectAfterAServerErrorRestoresTheSessionsSettings() {
        String settings =
                "SELECT name, value FROM system.settings"
                        + " WHERE name IN ('max_threads', 'max_block_size') ORDER BY name";
        try (NativeConnection c = TestServer.connect()) {
            TestServer.newTable("session"); // makes sure the test database exists
            c.execute("SET max_threads = 1");
            c.execute("SET max_block_size = 4321");
            c.execute("SET max_threads = 3"); // the later value wins after the replay too
            c.execute("USE " + TestServer.DATABASE);
            List<List<Object>> before = c.queryRows(settings);
            assertThat(before)
                    .containsExactly(
                            List.of("max_block_size", "4321"), List.of("max_threads", "3"));
            assertThat(c.queryRows("SELECT currentDatabase()"))
                    .containsExactly(List.of(TestServer.DATABASE));

            assertThatThrownBy(() -> c.queryRows("SELEC 1")).isInstanceOf(ServerException.class);

            assertThat(c.queryRows(settings)).isEqualTo(before);
            assertThat(c.queryRows("SELECT currentDatabase()"))
                    .containsExactly(List.of(TestServer.DATABASE));
        }
    }

    @Test
    void unknownColumnNamesTheColumn() {
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errcol");
            assertThatThrownBy(() -> c.insert(table, List.of("id", "nope"), Map.of()))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("nope");
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    @Test
    void materializedColumnsCannotBeInserted() {
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errmat");
            assertThatThrownBy(() -> c.insert(table, List.of("id", "m"), Map.of()))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("m");
        }
    }

    @Test
    void valuesOutsideTheTypeAreRejectedWithColumnRowAndValue() {
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errval");
            try (Insert insert = c.insert(table, List.of(), Map.of())) {
                // The header has no MATERIALIZED column: the server fills it.
                assertThat(insert.block().columnCount()).isEqualTo(3);
                insert.column("id").appendLong(1);
                insert.column("small").appendLong(7);
                insert.column("s").appendString("good");
                insert.endRow();

                insert.column("id").appendLong(2);
                assertThatThrownBy(() -> insert.column("small").appendLong(300))
                        .isInstanceOf(ColumnValueException.class)
                        .hasMessage("column small (UInt8), row 1: value 300 is out of range");
                assertThatThrownBy(() -> insert.column("small").appendString("abc"))
                        .isInstanceOf(ColumnValueException.class)
                        .hasMessageContaining("column small (UInt8), row 1")
                        .hasMessageContaining("'abc'");
                // Take back the half-appended record; the good row is kept.
                assertThatThrownBy(insert::endRow)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("column small has 0 new values for row 1");
                insert.abortRow();
                assertThat(insert.rowsPending()).isEqualTo(1);
                assertThat(insert.finish().rows()).isEqualTo(1);
            }
            assertThat(c.queryRows("SELECT id, small, s, m FROM " + table))
                    .containsExactly(List.of(1L, 7L, "good", 2L));
        }
    }

    @Test
    void anUnknownSettingIsRefusedByNameBeforeAnythingIsSent() {
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errset");
            assertThatThrownBy(() -> c.insert(table, List.of(), Map.of("no_such_setting", "1")))
                    .isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining("no_such_setting");
            if (!c.server().supportsAsyncInsert()) {
                assertThatThrownBy(() -> c.insert(table, List.of(), Map.of("async_insert", "0")))
                        .hasMessageContaining("async_insert");
            }
            // Known settings in the server's binary form work, and the connection is fine.
            try (Insert insert = c.insert(table, List.of(), Map.of("insert_deduplicate", "true"))) {
                insert.column("id").appendLong(5);
                insert.column("small").appendLong(1);
                insert.column("s").appendString("x");
                insert.endRow();
                insert.finish();
            }
            assertThat(c.queryRows("SELECT count() FROM " + table)).containsExactly(List.of(1L));
        }
    }

    @Test
    void wrongPasswordIsAnAuthenticationErrorWithoutThePassword() {
        String secret = "definitely-wrong-Pa55word";
        ConnectionConfig cfg = TestServer.config().toBuilder().password(secret).build();
        assertThatThrownBy(() -> NativeConnection.open(cfg))
                .isInstanceOf(ServerException.class)
                .hasMessageContaining("refused the connection")
                .hasMessageNotContaining(secret)
                .satisfies(e -> assertThat(e.toString()).doesNotContain(secret));
        assertThat(cfg.toString()).doesNotContain(secret);
    }

    @Test
    void aClosedPortIsAConnectionError() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free once closed: nothing listens there
        }
        ConnectionConfig cfg = TestServer.config().toBuilder().host("127.0.0.1").port(port).build();
        assertTimeoutPreemptively(
                NO_HANG,
                () ->
                        assertThatThrownBy(() -> NativeConnection.open(cfg))
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining(
                                        "cannot connect to ClickHouse at 127.0.0.1:" + port));
    }

    @Test
    void aConnectionCutMidInsertFailsPromptlyAndTheConnectionIsBroken() throws IOException {
        ConnectionConfig direct = TestServer.config();
        String table;
        try (NativeConnection c = NativeConnection.open(direct)) {
            table = newTable(c, "errcut");
        }
        try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port())) {
            ConnectionConfig viaProxy =
                    direct.toBuilder().host("127.0.0.1").port(proxy.port()).build();
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> {
                        try (NativeConnection c = NativeConnection.open(viaProxy);
                                Insert insert =
                                        c.insert(
                                                table,
                                                List.of(),
                                                Map.of(),
                                                InsertOptions.DEFAULTS.withMaxBlockRows(10_000))) {
                            proxy.cutAfter(proxy.bytesToServer() + 200_000);
                            assertThatThrownBy(
                                            () -> {
                                                for (int i = 0; i < 10_000_000; i++) {
                                                    insert.column("id").appendLong(i);
                                                    insert.column("small").appendLong(i & 0x7F);
                                                    insert.column("s").appendString("row " + i);
                                                    insert.endRow();
                                                }
                                            })
                                    .isInstanceOf(ConnectionException.class)
                                    .hasMessageContaining("INSERT INTO " + table);
                            assertThat(c.isOpen()).isFalse();
                            assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                                    .isInstanceOf(ConnectionException.class)
                                    .hasMessageContaining("broken");
                        }
                    });
        }
    }

    @Test
    void aStalledServerHitsTheReadTimeout() throws IOException {
        ConnectionConfig direct = TestServer.config();
        try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port())) {
            ConnectionConfig viaProxy =
                    direct.toBuilder()
                            .host("127.0.0.1")
                            .port(proxy.port())
                            .readTimeout(Duration.ofSeconds(2))
                            .build();
            assertTimeoutPreemptively(
                    NO_HANG,
                    () -> {
                        try (NativeConnection c = NativeConnection.open(viaProxy)) {
                            proxy.stall();
                            assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                                    .isInstanceOf(ConnectionException.class)
                                    .hasMessageContaining("no answer")
                                    .hasMessageContaining("2000 ms");
                        }
                    });
        }
    }

    @Test
    void aQueryStoppedByItsConsumerIsCancelledAndTheConnectionStaysUsable() {
        try (NativeConnection c = TestServer.connect()) {
            assertTimeoutPreemptively(
                    NO_HANG,
                    () ->
                            assertThatThrownBy(
                                            () ->
                                                    c.query(
                                                            "SELECT number FROM system.numbers",
                                                            Map.of(),
                                                            block -> {
                                                                throw new IllegalStateException(
                                                                        "enough");
                                                            }))
                                    .isInstanceOf(IllegalStateException.class)
                                    .hasMessage("enough"));
            assertThat(c.isOpen()).isTrue();
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
            c.ping();
        }
    }

    @Test
    void misuseFailsFast() {
        try (NativeConnection c = TestServer.connect()) {
            String table = newTable(c, "errmisuse");
            Insert insert = c.insert(table, List.of(), Map.of());
            assertThatThrownBy(() -> c.queryRows("SELECT 1"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("busy");
            assertThatThrownBy(() -> insert.column("nope"))
                    .hasMessageContaining("no column nope")
                    .hasMessageContaining("id, small, s");
            insert.finish();
            assertThatThrownBy(insert::endRow)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("finished");
            assertThatThrownBy(insert::finish).isInstanceOf(IllegalStateException.class);
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }
}
