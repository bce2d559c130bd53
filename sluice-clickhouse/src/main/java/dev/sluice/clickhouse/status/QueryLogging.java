package dev.sluice.clickhouse.status;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ServerException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Whether a server logs sluice's queries in {@code system.query_log}, so that an INSERT whose
 * acknowledgement was lost can be looked up there ({@link QueryTrace}); found out at start-up by
 * running a marked query and looking for it.
 *
 * <p>Logging needs the server's {@code <query_log>} configuration (the table) and {@code
 * log_queries=1} for the query. Servers before 21.x default to {@code log_queries=0}; sluice then
 * sends {@code log_queries=1} with its INSERTs ({@link #sendLogQueries()}) — unless the sink's
 * settings name {@code log_queries} themselves, or the server refuses the setting for the user (a
 * readonly profile or a settings constraint): then those INSERTs are not logged.
 *
 * @param sendLogQueries sluice adds {@code log_queries=1} to its INSERTs
 * @param canFlush {@code SYSTEM FLUSH LOGS} is allowed, so a lookup sees entries at once (else
 *     after the log's flush interval, 7.5 s by default)
 * @param detail why, in words, for start-up notes
 */
public record QueryLogging(
        Status status,
        boolean sendLogQueries,
        boolean canFlush,
        ProfileEvents profileEvents,
        String detail) {

    public enum Status {
        /** A query sluice ran with its INSERT settings appeared in the log. */
        LOGGED,
        /** The server keeps no log of sluice's queries. */
        NOT_LOGGED,
        /** The log exists but the probe could not be seen in it (no flush allowed). */
        UNCERTAIN
    }

    /** How the log stores profile events: arrays (18.16–21.x) or a Map (newer). */
    public enum ProfileEvents {
        ARRAYS(
                "greatest(arrayElement(ProfileEvents.Values, indexOf(ProfileEvents.Names,"
                        + " 'InsertedRows')), arrayElement(ProfileEvents.Values,"
                        + " indexOf(ProfileEvents.Names, 'MergeTreeDataWriterRows')))"),
        MAP(
                "greatest(ProfileEvents['InsertedRows'],"
                        + " ProfileEvents['MergeTreeDataWriterRows'])"),
        NONE("toUInt64(0)");

        private final String expression;

        ProfileEvents(String expression) {
            this.expression = expression;
        }

        /** A query_log column expression: rows the query handed to the table's storage. */
        String storedRowsExpression() {
            return expression;
        }
    }

    /** A server whose query log was not probed and is not to be read. */
    public static QueryLogging notLogged(String detail) {
        return new QueryLogging(Status.NOT_LOGGED, false, false, ProfileEvents.NONE, detail);
    }

    /** True when a lookup may find sluice's INSERTs in the log. */
    public boolean usable() {
        return status != Status.NOT_LOGGED;
    }

    /** The settings to add to each INSERT so that it is logged: {@code log_queries=1} or none. */
    public Map<String, String> insertSettings() {
        return sendLogQueries ? Map.of("log_queries", "1") : Map.of();
    }

    /**
     * Finds out whether the server at the other end of {@code client} logs INSERTs sent with {@code
     * insertSettings} (the sink's settings).
     *
     * @throws dev.sluice.clickhouse.client.ClickHouseException when the server cannot be asked
     */
    public static QueryLogging probe(ClickHouseClient client, Map<String, String> insertSettings) {
        String own = null;
        for (Map.Entry<String, String> e : insertSettings.entrySet()) {
            if (e.getKey().equalsIgnoreCase("log_queries")) {
                own = e.getValue();
            }
        }
        if (own != null && !truthy(own)) {
            return notLogged("log_queries=" + own.trim() + " is among the sink's settings");
        }
        boolean send = false;
        if (own == null) {
            List<List<Object>> rows =
                    client.queryRows(
                            "SELECT value FROM system.settings WHERE name = 'log_queries'");
            send = rows.isEmpty() || !truthy(String.valueOf(rows.get(0).get(0)));
        }
        Map<String, String> settings = send ? Map.of("log_queries", "1") : Map.of();
        String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        String marker = "sluice-probe-" + nonce;
        try {
            client.query("SELECT '" + marker + "'", settings, b -> {});
        } catch (ServerException e) {
            if (send) {
                return notLogged(
                        "the server refuses log_queries=1 for this user (" + e.getMessage() + ")");
            }
            throw e;
        }
        boolean flush = true;
        try {
            client.execute("SYSTEM FLUSH LOGS");
        } catch (ServerException e) {
            flush = false; // not allowed to this user: entries appear after the flush interval
        }
        try {
            return lookFor(client, nonce, send, flush);
        } catch (ServerException e) {
            // e.g. a newer server's user without access to system.query_log: look-ups would fail
            return notLogged("this user cannot read system.query_log (" + e.getMessage() + ")");
        }
    }

    private static QueryLogging lookFor(
            ClickHouseClient client, String nonce, boolean send, boolean flush) {
        Set<String> columns = new HashSet<>();
        for (List<Object> row :
                client.queryRows(
                        "SELECT name FROM system.columns WHERE database = 'system' AND table ="
                                + " 'query_log'")) {
            columns.add((String) row.get(0));
        }
        if (columns.isEmpty()) {
            return notLogged(
                    "the server has no system.query_log (its configuration has no <query_log>)");
        }
        ProfileEvents events =
                columns.contains("ProfileEvents.Names")
                        ? ProfileEvents.ARRAYS
                        : columns.contains("ProfileEvents")
                                ? ProfileEvents.MAP
                                : ProfileEvents.NONE;
        // 18.16's SYSTEM FLUSH LOGS writes what its log thread has taken from the queue, which
        // may lag behind a query that just ended (seen here under load): look a few times.
        long found = 0;
        for (int i = 0; found == 0 && i < PROBE_LOOKS; i++) {
            if (i > 0) {
                sleep(PROBE_PAUSE_MILLIS);
                if (flush) {
                    client.execute("SYSTEM FLUSH LOGS");
                }
            }
            // The marker is spelt in two pieces here, so that this query does not find itself.
            found =
                    ((Number)
                                    client.queryRows(
                                                    "SELECT count() FROM system.query_log WHERE"
                                                            + " event_date >= today() - 1 AND"
                                                            + " position(query, concat("
                                                            + "'sluice-probe-', '"
                                                            + nonce
                                                            + "')) > 0")
                                            .get(0)
                                            .get(0))
                            .longValue();
            if (!flush) {
                break; // without a flush the entry shows only after the flush interval
            }
        }
        String how = send ? " (sluice sends log_queries=1 with its INSERTs)" : "";
        if (found > 0) {
            return new QueryLogging(
                    Status.LOGGED,
                    send,
                    flush,
                    events,
                    "the server logs sluice's queries in system.query_log" + how);
        }
        if (flush) {
            return new QueryLogging(
                    Status.NOT_LOGGED,
                    false,
                    false,
                    events,
                    "the server keeps no log of sluice's queries (a query it ran did not"
                            + " appear in system.query_log within 3 s)");
        }
        return new QueryLogging(
                Status.UNCERTAIN,
                send,
                false,
                events,
                "system.query_log exists, but this user may not flush it (SYSTEM FLUSH LOGS), so"
                        + " an entry shows only after the log's flush interval"
                        + how);
    }

    /** Looks for the probe this many times, this far apart: 3 s in all. */
    private static final int PROBE_LOOKS = 16;

    private static final long PROBE_PAUSE_MILLIS = 200;

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while probing the query log", e);
        }
    }

    private static boolean truthy(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return s.equals("1") || s.equals("true");
    }
}
