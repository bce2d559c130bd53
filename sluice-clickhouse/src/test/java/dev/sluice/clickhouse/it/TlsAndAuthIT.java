package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.NativeConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Password authentication and TLS against the private server, which has a user {@code sluice} with
 * a password and a secure native port with a self-signed certificate for localhost/127.0.0.1.
 */
class TlsAndAuthIT {
    /** The user of the running query (18.16 has no currentUser()). */
    /**
     * The user the server runs this very query as (18.16 has no {@code currentUser()}): the process
     * list's entry whose text has a tag of its own. With one tag for all, the entry of an earlier
     * connection's query, not yet gone when the next one asked, answered twice (a CI run under
     * load).
     */
    private static List<List<Object>> whoAmI(NativeConnection c) {
        String tag = "sluice-whoami-" + UUID.randomUUID();
        return c.queryRows("SELECT user FROM system.processes WHERE query LIKE '%" + tag + "%'");
    }

    private static String passwordFile() {
        String file = TestServer.env("CLICKHOUSE_PASSWORD_USER_FILE");
        assumeTrue(
                file != null && Files.isReadable(Path.of(file)),
                "the server has no password user (start it with scripts/clickhouse)");
        return file;
    }

    @Test
    void passwordFromAFileAndFromAnEnvironmentVariable() throws Exception {
        String file = passwordFile();
        ConnectionConfig base = TestServer.config();
        String url = "clickhouse://sluice@" + base.address() + "/default?password_file=" + file;
        try (NativeConnection c = NativeConnection.open(ConnectionConfig.parse(url))) {
            assertThat(whoAmI(c)).containsExactly(List.of("sluice"));
        }
        String password = Files.readString(Path.of(file)).strip();
        ConnectionConfig fromEnv =
                ConnectionConfig.parse(
                        "clickhouse://sluice@" + base.address() + "/default?password_env=PW",
                        name -> name.equals("PW") ? password : null);
        try (NativeConnection c = NativeConnection.open(fromEnv)) {
            assertThat(whoAmI(c)).containsExactly(List.of("sluice"));
        }
        assertThat(fromEnv.toString()).doesNotContain(password);
    }

    private static ConnectionConfig.Builder secure() {
        String port = TestServer.env("CLICKHOUSE_TCP_SECURE_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no secure native port");
        return TestServer.config().toBuilder()
                .host("127.0.0.1")
                .port(Integer.parseInt(port))
                .secure(true);
    }

    @Test
    void tlsWithTheServerCertificateAsRoot() {
        ConnectionConfig cfg =
                secure().sslRootCert(Path.of(TestServer.env("CLICKHOUSE_TLS_CERT"))).build();
        try (NativeConnection c = NativeConnection.open(cfg)) {
            String table = TestServer.newTable("tls");
            c.execute("CREATE TABLE " + table + " (x UInt32) ENGINE = Memory");
            try (var insert = c.insert(table, List.of(), Map.of())) {
                for (int i = 0; i < 1000; i++) {
                    insert.column("x").appendLong(i);
                    insert.endRow();
                }
                insert.finish();
            }
            assertThat(c.queryRows("SELECT sum(x) FROM " + table))
                    .containsExactly(List.of(499500L));
        }
    }

    @Test
    void tlsRefusesAnUntrustedCertificateUnlessToldToBeInsecure() {
        ConnectionConfig untrusted = secure().build();
        assertThatThrownBy(() -> NativeConnection.open(untrusted))
                .isInstanceOf(ConnectionException.class)
                .hasMessageContaining("cannot connect");
        try (NativeConnection c = NativeConnection.open(secure().sslInsecure(true).build())) {
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    @Test
    void plainTextToTheSecurePortFailsClearly() {
        ConnectionConfig plain = secure().secure(false).build();
        assertThatThrownBy(() -> NativeConnection.open(plain))
                .isInstanceOf(ConnectionException.class)
                .hasMessageContaining("handshake");
    }
}
