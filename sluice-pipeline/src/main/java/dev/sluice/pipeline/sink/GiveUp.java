package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ServerException;
import java.util.Locale;

/**
 * The line a pipeline stops with when a batch has failed for {@code retry.give_up_after} without
 * progress: which batch, which shard and replica, how long and how many attempts, the last error,
 * and what to check for it.
 */
final class GiveUp {
    private GiveUp() {}

    static String message(
            int shard,
            String replica,
            String table,
            String where,
            long failingNanos,
            int attempts,
            ErrorClass kind,
            RuntimeException last) {
        return "gave up on "
                + where
                + ": shard "
                + shard
                + " ("
                + replica
                + ") kept failing for "
                + duration(failingNanos)
                + " ("
                + attempts
                + (attempts == 1 ? " attempt" : " attempts")
                + ", sink.clickhouse.retry.give_up_after); last error: "
                + sentence(last.getMessage())
                + " "
                + hint(kind, last, table)
                + "; nothing of the batch is committed, so a resumed run sends it again (a larger"
                + " give_up_after waits longer; 0 never gives up)";
    }

    /** {@code message} ending with one full stop (the server's messages often end with one). */
    static String sentence(String message) {
        String m = String.valueOf(message).strip();
        while (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        return m + ".";
    }

    /** What to check for the last error. */
    static String hint(ErrorClass kind, RuntimeException last, String table) {
        if (kind == ErrorClass.CONNECTION || kind == ErrorClass.INTERRUPTED) {
            return "Check that the server is up and answers on that address (scripts, firewalls,"
                    + " its load)";
        }
        int code = last instanceof ServerException s ? s.code() : -1;
        return switch (code) {
            case ServerException.TOO_MANY_PARTS ->
                    "The server refuses INSERTs while "
                            + table
                            + " has too many parts: check its merges (system.merges, active parts in"
                            + " system.parts) and the table's parts_to_throw_insert";
            case ServerException.TABLE_IS_READ_ONLY ->
                    "The replica is read-only: check its ZooKeeper session"
                            + " (system.replicas.is_readonly, system.zookeeper)";
            case ServerException.QUOTA_EXPIRED ->
                    "The user's quota is used up: check system.quotas, or use another user";
            case ServerException.TOO_MANY_SIMULTANEOUS_QUERIES ->
                    "The server runs too many queries at once: check max_concurrent_queries and"
                            + " what runs (system.processes)";
            default ->
                    "Check the server's log (clickhouse-server.err.log) for this error, and that"
                            + " the server accepts INSERTs into "
                            + table;
        };
    }

    /** {@code 1h 2m}, {@code 10m}, {@code 2m 30s}, {@code 4.2s}. */
    static String duration(long nanos) {
        long s = nanos / 1_000_000_000L;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1fs", nanos / 1e9);
        }
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long sec = s % 60;
        StringBuilder sb = new StringBuilder();
        if (h > 0) {
            sb.append(h).append("h");
        }
        if (m > 0) {
            sb.append(sb.length() > 0 ? " " : "").append(m).append("m");
        }
        if (sec > 0 && h == 0) {
            sb.append(sb.length() > 0 ? " " : "").append(sec).append("s");
        }
        return sb.toString();
    }
}
