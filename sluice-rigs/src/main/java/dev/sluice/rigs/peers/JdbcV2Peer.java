package dev.sluice.rigs.peers;

import dev.sluice.rigs.ProcStat;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The official JDBC driver, {@code com.clickhouse:jdbc-v2}: a prepared INSERT, {@code addBatch} per
 * row and {@code executeBatch} every {@code --block-rows} rows, the way JDBC code inserts.
 */
final class JdbcV2Peer implements Peer {
    @Override
    public String name() {
        return "jdbc-v2";
    }

    @Override
    public String description() {
        return "jdbc-v2 0.10.0: PreparedStatement INSERT ... VALUES (?, ?, ?, ?, ?), addBatch per row, executeBatch per --block-rows rows";
    }

    private List<ClientV2Peer.Event> events;

    @Override
    public Outcome insert(PeerRun run) throws Exception {
        if (events == null) {
            events = ClientV2Peer.events(run.data());
        }
        Properties props = new Properties();
        props.setProperty("user", run.user());
        props.setProperty("password", run.password());
        long cpu0 = ProcStat.cpuTicks("self");
        long t0 = System.nanoTime();
        long reported = 0;
        String url =
                "jdbc:clickhouse://"
                        + run.host()
                        + ":"
                        + run.httpPort()
                        + "/"
                        + run.table().substring(0, run.table().indexOf('.'));
        // the driver itself, not DriverManager: a shaded jar's service entry is not always seen
        try (Connection c = new com.clickhouse.jdbc.Driver().connect(url, props);
                PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO "
                                        + run.table()
                                        + " (ts, tenant, kind, id, payload) VALUES (?, ?, ?, ?, ?)")) {
            int inBatch = 0;
            for (ClientV2Peer.Event e : events) {
                ps.setObject(1, e.getTs());
                ps.setLong(2, e.getTenant());
                ps.setString(3, e.getKind());
                ps.setObject(4, e.getId());
                ps.setString(5, e.getPayload());
                ps.addBatch();
                if (++inBatch == run.blockRows()) {
                    reported += sum(ps.executeBatch());
                    inBatch = 0;
                }
            }
            if (inBatch > 0) {
                reported += sum(ps.executeBatch());
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = ProcStat.seconds(ProcStat.cpuTicks("self") - cpu0);
        return new Outcome(
                reported, seconds, cpu, "executeBatch reported " + reported + " rows", Map.of());
    }

    private static long sum(int[] counts) {
        long n = 0;
        for (int c : counts) {
            n += Math.max(0, c);
        }
        return n;
    }
}
