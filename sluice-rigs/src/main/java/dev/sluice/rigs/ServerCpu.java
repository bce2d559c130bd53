package dev.sluice.rigs;

import java.util.List;

/**
 * The server's CPU time over an interval: from {@code /proc/<pid>/stat} when the server shares this
 * host (all of its threads: parsing, merges, flushes), otherwise from {@code system.query_log} (the
 * INSERTs' own {@code UserTimeMicroseconds + SystemTimeMicroseconds}), otherwise unknown with the
 * reason.
 */
public final class ServerCpu {
    private final Target target;

    public ServerCpu(Target target) {
        this.target = target;
    }

    /** A mark to measure from; meaningful only with {@link Target#colocated()}. */
    public long mark() {
        return target.colocated() ? ProcStat.cpuTicks(target.pid()) : 0;
    }

    /**
     * Seconds since {@code mark}, or from the query log for the INSERTs into {@code table}; sets
     * {@code server_cpu_s} and {@code server_cpu_source} of {@code record}, or the reason.
     */
    public void measure(long mark, String table, BenchRecord record) {
        measure(mark, mark(), table, record);
    }

    /** As {@link #measure(long, String, BenchRecord)} between two marks. */
    public void measure(long from, long to, String table, BenchRecord record) {
        if (target.colocated()) {
            record.set("server_cpu_s", ProcStat.seconds(to - from));
            record.set("server_cpu_source", "proc");
            return;
        }
        if (!target.hasQueryLog()) {
            record.absent(
                    "server_cpu_s",
                    "the server is not on this host (no pid) and has no system.query_log");
            return;
        }
        Double s = fromQueryLog(table);
        if (s == null) {
            record.absent("server_cpu_s", "no query_log rows for INSERTs into " + table);
        } else {
            record.set("server_cpu_s", s);
            record.set("server_cpu_source", "query_log");
        }
    }

    /** The INSERTs into {@code table}: their CPU in the query log, or null when none is logged. */
    public Double fromQueryLog(String table) {
        try {
            target.execute("SYSTEM FLUSH LOGS");
        } catch (RuntimeException e) {
            // older servers flush on their own interval; read what is there
        }
        List<List<Object>> rows =
                target.query(
                        "SELECT count(), sum(ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                                + " 'UserTimeMicroseconds')] + ProfileEvents.Values[indexOf("
                                + "ProfileEvents.Names, 'SystemTimeMicroseconds')]) FROM"
                                + " system.query_log WHERE event_date >= yesterday() AND type = 2"
                                + " AND (query LIKE 'INSERT INTO "
                                + table
                                + " %' OR query LIKE 'INSERT INTO "
                                + table
                                + "(%')");
        long n = ((Number) rows.get(0).get(0)).longValue();
        if (n == 0) {
            return null;
        }
        return ((Number) rows.get(0).get(1)).doubleValue() / 1e6;
    }
}
