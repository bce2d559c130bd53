package dev.sluice.pipeline.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real ClickHouse server the integration tests run against: {@code CLICKHOUSE_URL} from the
 * environment, else the private instance of {@code scripts/clickhouse start} (its env file under
 * {@code .sluice/clickhouse/env}). Without a server the tests are skipped — unless {@code
 * SLUICE_REQUIRE_CLICKHOUSE=1}, when they fail. (The same rules as sluice-clickhouse's ITs.)
 */
final class TestServer {
    static final String DATABASE = "sluice_test";

    private static final Map<String, String> ENV = loadEnv();
    private static volatile boolean databaseReady;

    private TestServer() {}

    private static Map<String, String> loadEnv() {
        Map<String, String> env = new HashMap<>();
        Path file = findEnvFile();
        if (file != null) {
            try {
                for (String line : Files.readAllLines(file)) {
                    int eq = line.indexOf('=');
                    if (eq > 0 && !line.startsWith("#")) {
                        String v = line.substring(eq + 1).trim();
                        if (v.length() >= 2 && (v.startsWith("'") || v.startsWith("\""))) {
                            v = v.substring(1, v.length() - 1);
                        }
                        env.put(line.substring(0, eq).trim().replaceFirst("^export ", ""), v);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }
        env.putAll(System.getenv());
        return env;
    }

    private static Path findEnvFile() {
        String dir = System.getenv("SLUICE_CLICKHOUSE_DIR");
        if (dir != null && Files.isReadable(Path.of(dir, "env"))) {
            return Path.of(dir, "env");
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(".sluice/clickhouse/env");
            if (Files.isReadable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** The server's URL, after making sure it answers (skip or fail otherwise). */
    static String url() {
        String url = ENV.get("CLICKHOUSE_URL");
        String problem = null;
        if (url == null || url.isBlank()) {
            problem =
                    "CLICKHOUSE_URL is not set and no private server was started"
                            + " (run scripts/clickhouse start, or scripts/test)";
        } else {
            ConnectionConfig c = ConnectionConfig.parse(url);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(c.host(), c.port()), 2000);
            } catch (IOException e) {
                problem = "no ClickHouse server answers at " + c.address() + ": " + e.getMessage();
            }
        }
        if (problem != null) {
            if ("1".equals(System.getenv("SLUICE_REQUIRE_CLICKHOUSE"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        return url;
    }

    static NativeConnection connect() {
        return NativeConnection.open(url());
    }

    /** A fresh table name in the test database, which is created on first use. */
    static String newTable(String prefix) {
        if (!databaseReady) {
            try (NativeConnection c = connect()) {
                c.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            }
            databaseReady = true;
        }
        return DATABASE
                + "."
                + prefix
                + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    static long single(String sql) {
        try (NativeConnection c = connect()) {
            return ((Number) c.queryRows(sql).get(0).get(0)).longValue();
        }
    }

    static void execute(String sql) {
        try (NativeConnection c = connect()) {
            c.execute(sql);
        }
    }
}
