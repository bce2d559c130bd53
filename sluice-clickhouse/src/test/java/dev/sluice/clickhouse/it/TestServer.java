package dev.sluice.clickhouse.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The real ClickHouse server integration tests run against: {@code CLICKHOUSE_URL} from the
 * environment, else the private instance started by {@code scripts/clickhouse start} (its env file
 * under {@code .sluice/clickhouse/env}).
 *
 * <p>When no server answers, tests are skipped — except with {@code SLUICE_REQUIRE_CLICKHOUSE=1}
 * (set by {@code scripts/test}, so CI fails instead of silently skipping).
 */
public final class TestServer {
    public static final String DATABASE = "sluice_test";

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
        env.putAll(System.getenv()); // the caller's environment wins
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

    public static String env(String name) {
        return ENV.get(name);
    }

    /** The server's URL, after making sure it answers (skip or fail otherwise). */
    public static String url() {
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

    public static ConnectionConfig config() {
        return ConnectionConfig.parse(url());
    }

    public static NativeConnection connect() {
        return NativeConnection.open(config());
    }

    public static NativeConnection connect(UnaryOperator<ConnectionConfig.Builder> change) {
        return NativeConnection.open(change.apply(config().toBuilder()).build());
    }

    /** A fresh table name in the test database, which is created on first use. */
    public static String newTable(String prefix) {
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

    /** The first column of the first row of {@code sql}, as a long. */
    public static long single(String sql) {
        try (NativeConnection c = connect()) {
            return ((Number) c.queryRows(sql).get(0).get(0)).longValue();
        }
    }

    /** Runs a statement on a connection of its own. */
    public static void execute(String sql) {
        try (NativeConnection c = connect()) {
            c.execute(sql);
        }
    }

    /** Runs {@code clickhouse-client --query} against the test server; returns its stdout. */
    public static String clickhouseClient(String query) {
        return clickhouseClient(query, (byte[]) null);
    }

    /** Runs {@code clickhouse-client} with {@code stdin} as text; returns its stdout. */
    public static String clickhouseClient(String query, String stdin) {
        return clickhouseClient(
                query, stdin == null ? null : stdin.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs {@code clickhouse-client} with {@code stdin} as raw bytes; returns its stdout. */
    public static String clickhouseClient(String query, byte[] stdin) {
        ConnectionConfig c = config();
        String bin = ENV.getOrDefault("CLICKHOUSE_CLIENT_BIN", "clickhouse-client");
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                bin,
                                "--host",
                                c.host(),
                                "--port",
                                Integer.toString(c.port()),
                                "--user",
                                c.user(),
                                "--database",
                                c.database(),
                                "--query",
                                query));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (!c.password().isEmpty()) {
            pb.environment().put("CLICKHOUSE_PASSWORD", c.password().reveal());
            cmd.add("--password");
            cmd.add(c.password().reveal());
            pb.command(cmd);
        }
        try {
            // stderr goes to a file: a pipe nobody drains could fill and stall the client
            Path errFile = Files.createTempFile("clickhouse-client", ".err");
            pb.redirectError(errFile.toFile());
            Process p = pb.start();
            if (stdin != null) {
                p.getOutputStream().write(stdin);
            }
            p.getOutputStream().close();
            byte[] outBytes = readAll(p.getInputStream());
            byte[] errBytes = Files.readAllBytes(errFile);
            Files.deleteIfExists(errFile);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("clickhouse-client timed out: " + query);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        "clickhouse-client failed ("
                                + p.exitValue()
                                + "): "
                                + new String(errBytes, StandardCharsets.UTF_8));
            }
            return new String(outBytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + bin + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        return buf.toByteArray();
    }
}
