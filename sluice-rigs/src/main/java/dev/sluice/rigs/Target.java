package dev.sluice.rigs;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The ClickHouse server under test: its URLs, what it is, and whether its CPU can be read from
 * {@code /proc} (it runs on this host and its pid is known).
 *
 * @param nativeUrl a {@code clickhouse://} URL
 * @param httpUrl an {@code http://} URL of the same server, or null when not known
 * @param pid the server's process id on this host, or null
 * @param clientBin the {@code clickhouse-client} to run for the peers rig
 */
public record Target(
        String nativeUrl,
        String httpUrl,
        String pid,
        String clientBin,
        String version,
        int revision,
        boolean hasAsyncInsert,
        boolean hasQueryLog) {

    public static final String DATABASE = "sluice_bench";

    /** Connects once to learn what the server is and creates the scratch database. */
    public static Target connect(String nativeUrl, String httpUrl, String pid, String clientBin) {
        ConnectionConfig config = ConnectionConfig.parse(nativeUrl);
        if (config.transport() != ConnectionConfig.Transport.NATIVE) {
            throw new IllegalArgumentException(
                    "--url must be a clickhouse:// URL (the native protocol); give the HTTP one as"
                            + " --http-url");
        }
        try (NativeConnection c = NativeConnection.open(config)) {
            String version = String.valueOf(c.queryRows("SELECT version()").get(0).get(0));
            boolean async =
                    !c.queryRows("SELECT name FROM system.settings WHERE name = 'async_insert'")
                            .isEmpty();
            boolean queryLog =
                    !c.queryRows(
                                    "SELECT name FROM system.tables WHERE database = 'system' AND"
                                            + " name = 'query_log'")
                            .isEmpty();
            c.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            String checkedPid = pid != null && isLocal(config.host()) && alive(pid) ? pid : null;
            return new Target(
                    nativeUrl,
                    httpUrl,
                    checkedPid,
                    clientBin,
                    version,
                    c.server().serverRevision(),
                    async,
                    queryLog);
        }
    }

    /** The server shares this host's CPU and its own CPU time is readable. */
    public boolean colocated() {
        return pid != null;
    }

    public ClickHouseClient open() {
        return ClickHouseClient.open(nativeUrl);
    }

    /** A fresh connection to run {@code sql} and read its rows. */
    public List<List<Object>> query(String sql) {
        try (ClickHouseClient c = open()) {
            return c.queryRows(sql);
        }
    }

    public void execute(String sql) {
        try (ClickHouseClient c = open()) {
            c.execute(sql);
        }
    }

    /** The single number {@code sql} returns. */
    public long queryLong(String sql) {
        Object v = query(sql).get(0).get(0);
        return v instanceof Number n ? n.longValue() : Long.parseUnsignedLong(String.valueOf(v));
    }

    private static boolean isLocal(String host) {
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean alive(String pid) {
        return Files.isReadable(Path.of("/proc", pid, "stat"));
    }
}
