package dev.sluice.clickhouse.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real ClickHouse cluster of {@code scripts/clickhouse cluster}: ZooKeeper and two servers,
 * laid out as the clusters {@value #TWO_SHARDS} (server 1 is shard 1 with weight 1, server 2 is
 * shard 2 with weight 2) and {@value #ONE_SHARD_TWO_REPLICAS}, with macros {@code {shard}} (01, 02)
 * and {@code {replica}} (r1, r2). Servers are numbered 1 and 2.
 *
 * <p>Where it is: the env file of the cluster dir ({@code CLICKHOUSE_CLUSTER_DIR} or {@code
 * SLUICE_CLUSTER_DIR}, else {@code .sluice/cluster/env} above the working directory), read afresh
 * on each use since pids change on restarts; or, for a cluster of the caller's, {@code
 * CLICKHOUSE_CLUSTER_URL_1/_2} in the environment without a dir (then kill and restart cannot
 * work). When it is absent, tests are skipped — except with {@code SLUICE_REQUIRE_CLUSTER=1} (set
 * by {@code scripts/test}), where they fail.
 *
 * <p>Crashes and stalls: {@link #kill} (SIGKILL), {@link #pause} / {@link #resume} (SIGSTOP /
 * SIGCONT), {@link #start} (restarts whatever is down) and {@link #restart}. A restart returns once
 * the server answers and none of its replicated tables is read-only; a killed server is started
 * only after ZooKeeper has expired its old session (else its replicas would stay read-only for ~10
 * s as "already active").
 */
public final class TestCluster {
    public static final String TWO_SHARDS = "two_shards";
    public static final String ONE_SHARD_TWO_REPLICAS = "one_shard_two_replicas";
    public static final String DATABASE = "sluice_test";

    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static volatile boolean checked;
    private static volatile boolean databaseReady;

    private TestCluster() {}

    // ---- where the cluster is ----

    /** The cluster's variables (see the class comment for where they come from). */
    public static Map<String, String> env() {
        Map<String, String> sys = System.getenv();
        String dir = firstSet(sys.get("CLICKHOUSE_CLUSTER_DIR"), sys.get("SLUICE_CLUSTER_DIR"));
        if (dir == null && sys.get("CLICKHOUSE_CLUSTER_URL_1") != null) {
            return sys; // the caller's own cluster
        }
        Optional<Path> file =
                dir != null
                        ? Optional.of(Path.of(dir, "env")).filter(Files::isReadable)
                        : EnvFile.find("SLUICE_CLUSTER_DIR", ".sluice/cluster/env");
        return file.map(EnvFile::read).orElse(Map.of());
    }

    private static String firstSet(String a, String b) {
        return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
    }

    private static String value(String name) {
        String v = env().get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(
                    name + " is not known: is the cluster from scripts/clickhouse cluster?");
        }
        return v;
    }

    /**
     * Makes sure both servers answer, once per JVM: skips the calling test when they do not, or
     * fails it under {@code SLUICE_REQUIRE_CLUSTER=1}.
     */
    public static void require() {
        if (checked) {
            return;
        }
        Map<String, String> env = env();
        String problem = null;
        for (int n = 1; n <= 2 && problem == null; n++) {
            String url = env.get("CLICKHOUSE_CLUSTER_URL_" + n);
            if (url == null || url.isBlank()) {
                problem =
                        "no ClickHouse cluster: CLICKHOUSE_CLUSTER_URL_"
                                + n
                                + " is not set (run scripts/clickhouse cluster start, or"
                                + " scripts/test)";
            } else {
                ConnectionConfig c = ConnectionConfig.parse(url);
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(c.host(), c.port()), 2000);
                } catch (IOException e) {
                    problem =
                            "cluster server "
                                    + n
                                    + " does not answer at "
                                    + c.address()
                                    + ": "
                                    + e.getMessage();
                }
            }
        }
        if (problem != null) {
            if ("1".equals(System.getenv("SLUICE_REQUIRE_CLUSTER"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        checked = true;
    }

    /** The native URL of server {@code n} (1 or 2). */
    public static String url(int n) {
        require();
        return value("CLICKHOUSE_CLUSTER_URL_" + server(n));
    }

    public static String httpUrl(int n) {
        require();
        return value("CLICKHOUSE_CLUSTER_HTTP_URL_" + server(n));
    }

    public static ConnectionConfig config(int n) {
        return ConnectionConfig.parse(url(n));
    }

    public static NativeConnection connect(int n) {
        return NativeConnection.open(config(n));
    }

    /** The pid of server {@code n}'s current process. */
    public static long pid(int n) {
        require();
        return Long.parseLong(value("CLICKHOUSE_CLUSTER_PID_" + server(n)));
    }

    public static int zookeeperPort() {
        require();
        return Integer.parseInt(value("CLICKHOUSE_CLUSTER_ZOOKEEPER_PORT"));
    }

    /** The servers' ZooKeeper session timeout. */
    public static Duration sessionTimeout() {
        require();
        return Duration.ofMillis(Long.parseLong(value("CLICKHOUSE_CLUSTER_SESSION_TIMEOUT_MS")));
    }

    private static int server(int n) {
        if (n != 1 && n != 2) {
            throw new IllegalArgumentException("the cluster has servers 1 and 2, not " + n);
        }
        return n;
    }

    // ---- queries ----

    /** Runs a statement on server {@code n} on a connection of its own. */
    public static void execute(int n, String sql) {
        try (NativeConnection c = connect(n)) {
            c.execute(sql);
        }
    }

    /** All rows of {@code sql} on server {@code n}. */
    public static List<List<Object>> query(int n, String sql) {
        try (NativeConnection c = connect(n)) {
            return c.queryRows(sql);
        }
    }

    /** The first column of the first row of {@code sql} on server {@code n}, as a long. */
    public static long single(int n, String sql) {
        return ((Number) query(n, sql).get(0).get(0)).longValue();
    }

    // ---- tables ----

    /** A fresh table name in {@value #DATABASE}, which is created on both servers on first use. */
    public static String newTable(String prefix) {
        if (!databaseReady) {
            for (int n = 1; n <= 2; n++) {
                execute(n, "CREATE DATABASE IF NOT EXISTS " + DATABASE);
            }
            databaseReady = true;
        }
        return DATABASE
                + "."
                + prefix
                + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    /**
     * The engine clause of a replicated table whose replicas are the two servers (for {@value
     * #ONE_SHARD_TWO_REPLICAS}): one ZooKeeper path for both, replica names from {@code {replica}}.
     */
    public static String replicatedEngine(String table, String orderBy) {
        return "ENGINE = ReplicatedMergeTree('/clickhouse/tables/"
                + table
                + "', '{replica}') ORDER BY "
                + orderBy;
    }

    /**
     * The engine clause of a replicated table with one replica per shard (for {@value
     * #TWO_SHARDS}): a ZooKeeper path per shard from {@code {shard}}.
     */
    public static String shardedEngine(String table, String orderBy) {
        return "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/"
                + table
                + "', '{replica}') ORDER BY "
                + orderBy;
    }

    /**
     * {@code CREATE TABLE table ON CLUSTER cluster definition}, sent to server 1; returns when
     * every server of the cluster has run it. Both servers must be up (else it waits for the
     * distributed DDL timeout).
     */
    public static void createOnCluster(String cluster, String table, String definition) {
        execute(1, "CREATE TABLE " + table + " ON CLUSTER " + cluster + " " + definition);
    }

    /** {@code DROP TABLE IF EXISTS table ON CLUSTER cluster}; both servers must be up. */
    public static void dropOnCluster(String cluster, String table) {
        execute(1, "DROP TABLE IF EXISTS " + table + " ON CLUSTER " + cluster);
    }

    /** {@code CREATE TABLE table definition} on each server in turn (no distributed DDL). */
    public static void createOnEach(String table, String definition) {
        for (int n = 1; n <= 2; n++) {
            execute(n, "CREATE TABLE " + table + " " + definition);
        }
    }

    /** {@code DROP TABLE IF EXISTS table} on each server in turn. */
    public static void dropOnEach(String table) {
        for (int n = 1; n <= 2; n++) {
            execute(n, "DROP TABLE IF EXISTS " + table);
        }
    }

    /** {@code SYSTEM SYNC REPLICA table} on server {@code n}: waits until it has fetched all. */
    public static void syncReplica(int n, String table) {
        execute(n, "SYSTEM SYNC REPLICA " + table);
    }

    // ---- crashes, stalls, restarts ----

    /** SIGKILL of server {@code n}; returns once the process is gone. */
    public static void kill(int n) {
        Signals.kill9(pid(n), "cluster server " + n);
    }

    /** SIGSTOP of server {@code n}: it keeps its sockets but answers nothing. */
    public static void pause(int n) {
        Signals.stop(pid(n), "cluster server " + n);
    }

    /** SIGCONT of a paused server; returns once it answers and its replicas are writable. */
    public static void resume(int n) {
        Signals.cont(pid(n), "cluster server " + n);
        awaitReady(n);
    }

    /**
     * Starts every member that is down (after {@link #kill}, or a crash); returns when all answer
     * and their replicated tables are writable.
     */
    public static void start() {
        script("start");
    }

    /** A clean stop (SIGTERM) and start of server {@code n}, or just a start when it is down. */
    public static void restart(int n) {
        server(n);
        long pid = pid(n);
        if (Signals.alive(pid)) {
            script("stop", Integer.toString(n));
        }
        script("start", Integer.toString(n));
    }

    /** Waits until server {@code n} answers and none of its replicated tables is read-only. */
    public static void awaitReady(int n) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                long notWritable =
                        single(
                                n,
                                "SELECT count() FROM system.replicas"
                                        + " WHERE is_readonly OR is_session_expired");
                if (notWritable == 0) {
                    return;
                }
                last = notWritable + " replicated tables are read-only";
            } catch (RuntimeException e) {
                last = e.getMessage();
            }
            Signals.sleep(100);
        }
        throw new IllegalStateException(
                "cluster server " + n + " not ready within " + READY_TIMEOUT + ": " + last);
    }

    private static void script(String... args) {
        require();
        String dir = env().get("CLICKHOUSE_CLUSTER_DIR");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException(
                    "the cluster was not started by scripts/clickhouse cluster"
                            + " (CLICKHOUSE_CLUSTER_DIR unknown): cannot start or stop its servers");
        }
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_CLUSTER_DIR", dir);
        String[] all = new String[args.length + 1];
        all[0] = "cluster";
        System.arraycopy(args, 0, all, 1, args.length);
        RepoScripts.run("clickhouse", env, SCRIPT_TIMEOUT, all);
    }
}
