package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server killed with SIGKILL in the middle of an INSERT: the writer must fail promptly with a
 * connection error, not hang. Runs against a private instance of its own, so the shared test server
 * stays up.
 */
class ServerKilledIT {
    private static PrivateServer server;

    @BeforeAll
    static void startOwnServer() throws Exception {
        server = PrivateServer.start("sluice-killed-");
    }

    @AfterAll
    static void removeOwnServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void killedServerMidInsertIsAConnectionErrorWithoutHanging() {
        ConnectionConfig cfg = server.nativeConfig();
        assertTimeoutPreemptively(
                Duration.ofSeconds(90),
                () -> {
                    try (NativeConnection c = NativeConnection.open(cfg)) {
                        c.execute(
                                "CREATE TABLE default.killed (id UInt64, s String)"
                                        + " ENGINE = MergeTree ORDER BY id");
                        Insert insert =
                                c.insert(
                                        "default.killed",
                                        List.of(),
                                        Map.of(),
                                        InsertOptions.DEFAULTS.withMaxBlockRows(50_000));
                        assertThatThrownBy(
                                        () -> {
                                            for (long i = 0; ; i++) {
                                                insert.column("id").appendLong(i);
                                                insert.column("s").appendString("value " + i);
                                                insert.endRow();
                                                if (i == 100_000) {
                                                    server.killHard();
                                                    Thread.sleep(500);
                                                }
                                            }
                                        })
                                .isInstanceOf(ConnectionException.class)
                                .hasMessageContaining("INSERT INTO default.killed")
                                .hasMessageContaining(cfg.address());
                        assertThat(c.isOpen()).isFalse();
                    }
                });
    }
}
