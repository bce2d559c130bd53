package dev.sluice.pipeline.testing;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A replica that records what it is sent, copying rows out (blocks are reused after the ack). Can
 * be told to fail its next inserts. Several writer threads may share one.
 */
public final class FakeInserter implements BlockInserter {

    /** One insert the replica accepted. */
    public record Insert(
            String table,
            List<String> columns,
            List<List<Object>> rows,
            Map<String, String> settings) {}

    private final ServerInfo server;
    private final List<Insert> inserts = new CopyOnWriteArrayList<>();
    private final Deque<RuntimeException> failures = new ArrayDeque<>();
    private volatile Consumer<Insert> onInsert = i -> {};
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

    /** Called on each accepted insert, on the writer's thread. */
    public FakeInserter onInsert(Consumer<Insert> action) {
        this.onInsert = action;
        return this;
    }

    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        RuntimeException failure;
        synchronized (this) {
            attempts++;
            failure = failures.poll();
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
        Insert insert = new Insert(table, columns, rows, Map.copyOf(settings));
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
