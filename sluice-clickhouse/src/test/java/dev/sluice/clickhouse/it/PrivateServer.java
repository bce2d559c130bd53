package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.clickhouse.client.ConnectionConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A ClickHouse instance of a test's own, started with {@code scripts/clickhouse} in a temporary
 * directory, for tests that kill or freeze the server: the shared test server stays untouched.
 * Skips or fails (with {@code SLUICE_REQUIRE_CLICKHOUSE=1}) like every IT when there is no
 * ClickHouse at all.
 */
public final class PrivateServer implements AutoCloseable {
    private final Path script;
    private final Path dir;
    private final Map<String, String> scriptEnv;
    private Map<String, String> env = new HashMap<>();
    private boolean suspended;

    private PrivateServer(Path script, Path dir, Map<String, String> scriptEnv) {
        this.script = script;
        this.dir = dir;
        this.scriptEnv = Map.copyOf(scriptEnv);
    }

    /** Starts a fresh instance (plain TCP and HTTP; no TLS). */
    public static PrivateServer start(String prefix) throws IOException, InterruptedException {
        return start(prefix, Map.of());
    }

    /**
     * Starts a fresh instance that keeps no query log at all ({@code
     * SLUICE_CLICKHOUSE_QUERY_LOG=0}), as some production servers are set up.
     */
    public static PrivateServer startWithoutQueryLog(String prefix)
            throws IOException, InterruptedException {
        return start(prefix, Map.of("SLUICE_CLICKHOUSE_QUERY_LOG", "0"));
    }

    private static PrivateServer start(String prefix, Map<String, String> scriptEnv)
            throws IOException, InterruptedException {
        TestServer.url(); // the usual skip-or-fail when no ClickHouse is installed and running
        Path script = null;
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve("scripts/clickhouse");
            if (Files.isExecutable(s)) {
                script = s;
                break;
            }
        }
        if (script == null) {
            return fail("scripts/clickhouse not found above " + Path.of("").toAbsolutePath());
        }
        PrivateServer server =
                new PrivateServer(script, Files.createTempDirectory(prefix), scriptEnv);
        server.start();
        return server;
    }

    /** Starts (again): same directory, same data, the previous ports when they are free. */
    public void start() throws IOException, InterruptedException {
        run("start");
        Map<String, String> e = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("env"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                e.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        env = e;
    }

    /** Stops the server gracefully (SIGTERM, then waits for it to exit); the data is kept. */
    public void stop() throws IOException, InterruptedException {
        run("stop");
    }

    /** The native URL ({@code clickhouse://...}). */
    public String url() {
        return env.get("CLICKHOUSE_URL");
    }

    /** The native URL ({@code clickhouse://}). */
    public ConnectionConfig nativeConfig() {
        return ConnectionConfig.parse(env.get("CLICKHOUSE_URL"));
    }

    /** The HTTP URL. */
    public ConnectionConfig httpConfig() {
        return ConnectionConfig.parse(
                "http://default@127.0.0.1:" + env.get("CLICKHOUSE_HTTP_PORT") + "/default");
    }

    public int tcpPort() {
        return Integer.parseInt(env.get("CLICKHOUSE_TCP_PORT"));
    }

    /** True between {@link #suspend()} and {@link #resume()}. */
    public boolean suspended() {
        return suspended;
    }

    /**
     * SIGKILL: the server dies at once, without flushing its query log; waits until the process is
     * gone. {@link #start()} brings it back on the same ports with the same data.
     */
    public void kill9() throws IOException, InterruptedException {
        long pid = pid();
        kill("KILL");
        suspended = false;
        for (int i = 0;
                i < 200 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                i++) {
            Thread.sleep(50);
        }
    }

    public long pid() {
        return Long.parseLong(env.get("CLICKHOUSE_PID"));
    }

    /** SIGSTOP: the server keeps its sockets open and answers nothing, reads nothing. */
    public void suspend() throws IOException, InterruptedException {
        kill("STOP");
        suspended = true;
    }

    /** SIGCONT after {@link #suspend()}. */
    public void resume() throws IOException, InterruptedException {
        kill("CONT");
        suspended = false;
    }

    /** SIGCONT when the server is stopped; nothing otherwise. */
    public void resumeIfSuspended() throws IOException, InterruptedException {
        if (suspended) {
            resume();
        }
    }

    /** SIGKILL. */
    public void killHard() {
        ProcessHandle.of(pid()).ifPresent(ProcessHandle::destroyForcibly);
    }

    private void kill(String signal) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("kill -" + signal + " " + pid()).isZero();
    }

    private void run(String command) throws IOException, InterruptedException {
        ProcessBuilder pb =
                new ProcessBuilder(script.toString(), command).redirectErrorStream(true);
        pb.environment().put("SLUICE_CLICKHOUSE_DIR", dir.toString());
        pb.environment().put("SLUICE_CLICKHOUSE_TLS", "0");
        pb.environment().putAll(scriptEnv);
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
            p.destroyForcibly();
            throw new IllegalStateException("scripts/clickhouse " + command + " failed:\n" + out);
        }
    }

    /** Removes the instance, data and all; a frozen server is thawed first so it can stop. */
    @Override
    public void close() throws IOException {
        try {
            if (suspended) {
                resume();
            }
            run("reset");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while removing " + dir, e);
        }
    }
}
