package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.NativeConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server killed with SIGKILL in the middle of an INSERT: the writer must fail promptly with a
 * connection error, not hang. Runs against a second private instance of its own, started with
 * {@code scripts/clickhouse}, so the shared test server stays up.
 */
class ServerKilledIT {
    private static Path instanceDir;
    private static Map<String, String> env;

    private static Path script() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve("scripts/clickhouse");
            if (Files.isExecutable(s)) {
                return s;
            }
        }
        return null;
    }

    private static String run(String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(args).redirectErrorStream(true);
        pb.environment().put("SLUICE_CLICKHOUSE_DIR", instanceDir.toString());
        pb.environment().put("SLUICE_CLICKHOUSE_TLS", "0");
        for (String port :
                List.of(
                        "CLICKHOUSE_TCP_PORT",
                        "CLICKHOUSE_HTTP_PORT",
                        "CLICKHOUSE_TCP_SECURE_PORT",
                        "CLICKHOUSE_HTTPS_PORT")) {
            pb.environment().remove(port); // pick free ports, not the shared server's
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", args) + " failed:\n" + out);
        }
        return out;
    }

    @BeforeAll
    static void startOwnServer() throws Exception {
        TestServer.url(); // skip or fail like every IT when no ClickHouse is installed/running
        Path script = script();
        assumeTrue(script != null, "scripts/clickhouse not found");
        instanceDir = Files.createTempDirectory("sluice-killed-");
        run(script.toString(), "start");
        env = new HashMap<>();
        for (String line : Files.readAllLines(instanceDir.resolve("env"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
    }

    @AfterAll
    static void removeOwnServer() throws Exception {
        if (instanceDir != null) {
            run(script().toString(), "reset");
        }
    }

    @Test
    void killedServerMidInsertIsAConnectionErrorWithoutHanging() {
        ConnectionConfig cfg = ConnectionConfig.parse(env.get("CLICKHOUSE_URL"));
        long pid = Long.parseLong(env.get("CLICKHOUSE_PID"));
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
                                                    ProcessHandle.of(pid)
                                                            .ifPresent(
                                                                    ProcessHandle::destroyForcibly);
                                                }
                                                if (i == 100_000) {
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
