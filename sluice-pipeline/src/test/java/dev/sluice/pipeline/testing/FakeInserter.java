package dev.sluice.pipeline.testing;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.status.QueryTrace;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A replica that records what it is sent, copying rows out (blocks are reused after the ack). Can
 * be told to fail its next inserts, to refuse blocks holding some rows (as a server refuses values)
 * or blocks above a size (as a memory limit does), or to lose an acknowledgement after writing (or
 * not writing) the rows, and keeps a log of query ids for {@link #trace} — the unit tests' stand-in
 * for the server's records; what the real server records is pinned by the integration tests.
 * Several writer threads may share one.
 */
public final class FakeInserter implements BlockInserter {

    /** One insert the replica accepted. */
    public record Insert(
            String table,
            List<String> columns,
            List<List<Object>> rows,
            Map<String, String> settings,
            String queryId) {}

    private final ServerInfo server;
    private final List<Insert> inserts = new CopyOnWriteArrayList<>();
    private final Deque<RuntimeException> failures = new ArrayDeque<>();
    private final Deque<Boolean> interruptions = new ArrayDeque<>();

    /** What this replica's "query log" holds: query id → rows written, or -1 when it failed. */
    private final Map<String, Long> log = new LinkedHashMap<>();

    private final Set<String> running = new HashSet<>();
    private volatile Predicate<List<Object>> refusedRow = r -> false;
    private volatile Function<List<Object>, RuntimeException> contentError;
    private volatile int maxRows = Integer.MAX_VALUE;
    private volatile RuntimeException sizeError;
    private volatile Consumer<Insert> onInsert = i -> {};
    private volatile Runnable onInterrupted = () -> {};
    private volatile boolean open = true;
    private int attempts;

    public FakeInserter(ServerInfo server) {
        this.server = server;
    }

    public static ServerInfo server(int major, int minor) {
        return new ServerInfo("ClickHouse", major, minor, 1, 54412, 54412, "UTC", "test");
    }

    /** The next insert throws {@code e} (after which this connection is closed if e says so). */
    public synchronized FakeInserter failNext(RuntimeException e) {
        failures.add(e);
        return this;
    }

    /**
     * The next insert sends its data and then loses its connection before the acknowledgement:
     * {@code written} says whether this replica wrote it (and logs it so), as a server does when
     * only the answer is lost, or not.
     */
    public synchronized FakeInserter interruptNext(boolean written) {
        interruptions.add(written);
        return this;
    }

    /** Forgets what the log holds, as a server killed before flushing its query log does. */
    public synchronized void loseLog() {
        log.clear();
    }

    /** Logs an earlier run's attempt of an INSERT, as found after a restart. */
    public synchronized void logEarlier(String queryId, long writtenRows) {
        log.put(queryId, writtenRows);
    }

    /** Marks {@code queryId} as still running (until {@link #finish}). */
    public synchronized void markRunning(String queryId) {
        running.add(queryId);
    }

    public synchronized void finish(String queryId) {
        running.remove(queryId);
    }

    /** What this replica records about the query ids starting with {@code prefix}. */
    public synchronized QueryTrace trace(String prefix) {
        List<QueryTrace.Running> r = new ArrayList<>();
        for (String id : running) {
            if (id.startsWith(prefix)) {
                r.add(new QueryTrace.Running(id, 1.0, 0));
            }
        }
        List<QueryTrace.Entry> entries = new ArrayList<>();
        log.forEach(
                (id, rows) -> {
                    if (id.startsWith(prefix) && !running.contains(id)) {
                        entries.add(
                                new QueryTrace.Entry(
                                        id,
                                        rows >= 0
                                                ? QueryTrace.Kind.FINISH
                                                : QueryTrace.Kind.EXCEPTION_WHILE_PROCESSING,
                                        Math.max(0, rows),
                                        Math.max(0, rows),
                                        rows >= 0 ? "" : "Code: 210, connection reset"));
                    }
                });
        return new QueryTrace(r, entries, true);
    }

    /**
     * Refuses every block holding a row that matches {@code row}, as a server refuses values a
     * DEFAULT or MATERIALIZED expression cannot compute: with {@code error} of the first such row,
     * writing nothing of the block.
     */
    public FakeInserter refuseRows(
            Predicate<List<Object>> row, Function<List<Object>, RuntimeException> error) {
        this.refusedRow = row;
        this.contentError = error;
        return this;
    }

    /** Refuses every block of more than {@code rows} rows with {@code error} (a memory limit). */
    public FakeInserter refuseAbove(int rows, RuntimeException error) {
        this.maxRows = rows;
        this.sizeError = error;
        return this;
    }

    /** Called after an insert was interrupted ({@link #interruptNext}), on the writer's thread. */
    public FakeInserter onInterrupted(Runnable action) {
        this.onInterrupted = action;
        return this;
    }

    /** Called on each accepted insert, on the writer's thread. */
    public FakeInserter onInsert(Consumer<Insert> action) {
        this.onInsert = action;
        return this;
    }

    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        RuntimeException failure;
        Boolean interrupted;
        synchronized (this) {
            attempts++;
            failure = failures.poll();
            interrupted = failure == null ? interruptions.poll() : null;
        }
        if (failure != null) {
            throw failure;
        }
        List<String> columns = new ArrayList<>();
        for (int c = 0; c < block.columnCount(); c++) {
            columns.add(block.column(c).name());
        }
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < block.rows(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < block.columnCount(); c++) {
                row.add(block.column(c).getObject(r));
            }
            rows.add(row);
        }
        RuntimeException refused = null;
        if (rows.size() > maxRows) {
            refused = sizeError;
        } else {
            for (List<Object> row : rows) {
                if (refusedRow.test(row)) {
                    refused = contentError.apply(row);
                    break;
                }
            }
        }
        if (refused != null) {
            synchronized (this) {
                log.put(queryId, -1L); // the log shows the attempt failed
            }
            throw refused;
        }
        Insert insert = new Insert(table, columns, rows, Map.copyOf(settings), queryId);
        if (interrupted != null) {
            synchronized (this) {
                log.put(queryId, interrupted ? (long) rows.size() : -1L);
                if (interrupted) {
                    inserts.add(insert);
                }
                open = false;
            }
            onInterrupted.run();
            throw new InsertOutcomeUnknownException(
                    queryId,
                    new ConnectionException("INSERT INTO " + table + ": no answer within 2000 ms"));
        }
        synchronized (this) {
            log.put(queryId, (long) rows.size());
        }
        inserts.add(insert);
        onInsert.accept(insert);
        return new InsertResult(
                queryId, rows.size(), 1, block.dataBytes(), block.dataBytes() / 2, -1, -1, 1000);
    }

    public List<Insert> inserts() {
        return inserts;
    }

    public synchronized int attempts() {
        return attempts;
    }

    /** Rows of every accepted insert, in order. */
    public List<List<Object>> rows() {
        List<List<Object>> all = new ArrayList<>();
        for (Insert i : inserts) {
            all.addAll(i.rows());
        }
        return all;
    }

    @Override
    public ServerInfo server() {
        return server;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    /** Makes the connection usable again (a reconnect in tests that share one instance). */
    public void reopen() {
        open = true;
    }
}
