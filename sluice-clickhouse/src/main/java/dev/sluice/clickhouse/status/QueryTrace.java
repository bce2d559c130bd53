package dev.sluice.clickhouse.status;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.types.TypeParser;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one server records about the queries whose id starts with a prefix: those still running
 * ({@code system.processes}) and the query log's entries for them ({@code system.query_log}).
 *
 * <p>{@link #lookup} reads the processes first, then flushes the logs, then reads the log. The
 * server queues a query's end in the log before the query leaves the process list, so a query not
 * running at the first read has its end in the log soon after — but not necessarily at once:
 * 18.16's {@code SYSTEM FLUSH LOGS} writes only what the log's thread has taken from its queue,
 * which can lag under load (seen on the test server), and without the flush an entry waits for the
 * log's flush interval (7.5 s by default). So a query neither running nor logged ({@link
 * Fate#NOT_FOUND}), or logged as started only ({@link Fate#STARTED}), is settled only when it stays
 * so for longer than that — or the log lost it (a crash before the flush, logging off for that
 * query).
 *
 * <p>What ClickHouse 18.16 records, checked against it ({@code QueryTraceIT}): {@code QueryStart}
 * when an INSERT starts (with {@code log_queries=1}), {@code QueryFinish} with {@code written_rows}
 * once its rows are written — also when the client went away after sending a complete block, or
 * timed out while the server was stopped, and also when sending the acknowledgement then fails (an
 * {@code ExceptionWhileProcessing} may follow the {@code QueryFinish}); {@code
 * ExceptionWhileProcessing} with nothing written when the connection broke inside the block.
 *
 * @param running the matching queries in {@code system.processes}
 * @param log the matching entries of {@code system.query_log}, empty when it was not read
 * @param logRead false when the server has no query log to read
 */
public record QueryTrace(List<Running> running, List<Entry> log, boolean logRead) {

    /** A query still running. */
    public record Running(String queryId, double elapsedSeconds, long writtenRows) {}

    /** The query log's event types. */
    public enum Kind {
        START,
        FINISH,
        EXCEPTION_BEFORE_START,
        EXCEPTION_WHILE_PROCESSING;

        /** 18.16 logs the type as a number (1–4); newer servers as an Enum8 name. */
        static Kind parse(String type) {
            return switch (type.trim()) {
                case "1", "QueryStart" -> START;
                case "2", "QueryFinish" -> FINISH;
                case "3", "ExceptionBeforeStart" -> EXCEPTION_BEFORE_START;
                case "4", "ExceptionWhileProcessing" -> EXCEPTION_WHILE_PROCESSING;
                default -> throw new IllegalArgumentException("unknown query_log type " + type);
            };
        }
    }

    /**
     * One log entry.
     *
     * @param writtenRows the entry's {@code written_rows}
     * @param storedRows rows the query handed to the table's storage (the larger of the {@code
     *     InsertedRows} and {@code MergeTreeDataWriterRows} profile events; 0 when not known)
     */
    public record Entry(
            String queryId, Kind kind, long writtenRows, long storedRows, String exception) {}

    public QueryTrace {
        running = List.copyOf(running);
        log = List.copyOf(log);
    }

    /** Rows are returned at most; a prefix is one INSERT's attempts, far fewer. */
    private static final int MAX_ROWS = 1000;

    /**
     * Reads what the server at the other end of {@code client} records about the queries whose id
     * starts with {@code prefix}, in the query log since {@code since} (the log is partitioned by
     * date, so this bounds the scan).
     *
     * @param logging what start-up learned of the server's query log: whether to flush and read it,
     *     and how its profile events are stored
     * @throws dev.sluice.clickhouse.client.ClickHouseException when the server cannot be asked
     */
    public static QueryTrace lookup(
            ClickHouseClient client, String prefix, LocalDate since, QueryLogging logging) {
        String p = TypeParser.quote(prefix);
        List<Running> running = new ArrayList<>();
        for (List<Object> row :
                client.queryRows(
                        "SELECT query_id, elapsed, written_rows FROM system.processes WHERE"
                                + " startsWith(query_id, "
                                + p
                                + ") LIMIT "
                                + MAX_ROWS)) {
            running.add(
                    new Running(
                            (String) row.get(0),
                            ((Number) row.get(1)).doubleValue(),
                            ((Number) row.get(2)).longValue()));
        }
        if (logging.status() == QueryLogging.Status.NOT_LOGGED) {
            return new QueryTrace(running, List.of(), false);
        }
        if (logging.canFlush()) {
            try {
                client.execute("SYSTEM FLUSH LOGS");
            } catch (ServerException e) {
                // refused now though allowed at start-up: the entry shows after the flush interval
            }
        }
        List<Entry> log = new ArrayList<>();
        try {
            for (List<Object> row :
                    client.queryRows(
                            "SELECT query_id, toString(type), written_rows, "
                                    + logging.profileEvents().storedRowsExpression()
                                    + ", exception FROM system.query_log WHERE event_date >="
                                    + " toDate('"
                                    + since
                                    + "') AND startsWith(query_id, "
                                    + p
                                    + ") LIMIT "
                                    + MAX_ROWS)) {
                log.add(
                        new Entry(
                                (String) row.get(0),
                                Kind.parse((String) row.get(1)),
                                ((Number) row.get(2)).longValue(),
                                ((Number) row.get(3)).longValue(),
                                (String) row.get(4)));
            }
        } catch (ServerException e) {
            if (e.code() == ServerException.UNKNOWN_TABLE) {
                return new QueryTrace(running, List.of(), false); // the log was switched off since
            }
            throw e;
        }
        return new QueryTrace(running, log, true);
    }

    /**
     * The fate of the INSERT {@code queryId} of {@code rows} rows.
     *
     * <p>A {@code QueryFinish} means written only with the rows: 18.16 finishes an INSERT whose
     * client went away before sending any block (it takes the end of the stream for the end of the
     * data), with {@code written_rows} 0 — e.g. a Query that reached a stalled server whose header
     * the client gave up waiting for. Fewer rows than sent is {@link Fate#PARTIAL}; more (a
     * materialized view's) is written.
     */
    public Fate fate(String queryId, long rows) {
        boolean started = false;
        Entry finished = null;
        Entry failure = null;
        for (Entry e : log) {
            if (!e.queryId().equals(queryId)) {
                continue;
            }
            switch (e.kind()) {
                case START -> started = true;
                case FINISH -> finished = e;
                case EXCEPTION_BEFORE_START, EXCEPTION_WHILE_PROCESSING -> failure = e;
            }
        }
        // The end in the log wins over the process list: the server logs it before the query
        // leaves the list, and nothing is written after either end. A QueryFinish followed by an
        // exception is a query whose acknowledgement could not be sent: written.
        if (finished != null) {
            long written = finished.writtenRows();
            if (written == 0 && rows > 0) {
                return Fate.NOT_WRITTEN;
            }
            return written >= rows ? Fate.WRITTEN : Fate.PARTIAL;
        }
        if (failure != null) {
            return failure.writtenRows() > 0 || failure.storedRows() > 0
                    ? Fate.PARTIAL
                    : Fate.NOT_WRITTEN;
        }
        for (Running r : running) {
            if (r.queryId().equals(queryId)) {
                return Fate.RUNNING;
            }
        }
        return started ? Fate.STARTED : Fate.NOT_FOUND;
    }

    /**
     * Every query id seen (running or logged) with its fate as an INSERT of {@code rows} rows, in
     * the order first seen.
     */
    public Map<String, Fate> fates(long rows) {
        Map<String, Fate> out = new LinkedHashMap<>();
        for (Running r : running) {
            out.putIfAbsent(r.queryId(), null);
        }
        for (Entry e : log) {
            out.putIfAbsent(e.queryId(), null);
        }
        out.replaceAll((id, f) -> fate(id, rows));
        return out;
    }

    /** The message of the failure logged for {@code queryId}, or null. */
    public String exception(String queryId) {
        for (Entry e : log) {
            if (e.queryId().equals(queryId) && !e.exception().isEmpty()) {
                return e.exception();
            }
        }
        return null;
    }
}
