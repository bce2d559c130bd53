package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A connection to ClickHouse over either transport: the native protocol ({@link NativeConnection})
 * or HTTP ({@code dev.sluice.clickhouse.http.HttpConnection}). Open one with {@link
 * #open(ConnectionConfig)}, which picks the transport from the URL's scheme.
 *
 * <p>Threads: a {@link NativeConnection} runs one operation at a time (a second thread fails fast
 * with an {@link IllegalStateException}); an {@code HttpConnection} runs concurrent requests, each
 * on its own socket. A {@link ConnectionPool} shares either between threads. {@link #cancel()} and
 * {@link #close()} may come from any thread.
 */
public interface ClickHouseClient extends BlockInserter {

    ConnectionConfig config();

    /** Runs a query and hands each result block with rows to {@code onBlock}. */
    QueryResult query(String sql, Map<String, String> settings, Consumer<Block> onBlock);

    /** Runs a statement (DDL, ...) and discards any result. */
    default void execute(String sql) {
        query(sql, Map.of(), b -> {});
    }

    default void execute(String sql, Map<String, String> settings) {
        query(sql, settings, b -> {});
    }

    /**
     * A round trip that checks the server answers (a connection pool's health check). The default
     * runs {@code SELECT 1}; the transports use their own cheaper probes.
     */
    default void ping() {
        execute("SELECT 1");
    }

    /**
     * Cancels what is in flight, from any thread; false when nothing was. The thread running it
     * gets a {@link CancelledException}. See the transports for what cancelling means on the wire.
     */
    default boolean cancel() {
        return false;
    }

    /** All rows of a query as lists of {@code Column.getObject} values (tests, small lookups). */
    default List<List<Object>> queryRows(String sql) {
        List<List<Object>> rows = new ArrayList<>();
        query(
                sql,
                Map.of(),
                b -> {
                    for (int r = 0; r < b.rows(); r++) {
                        List<Object> row = new ArrayList<>(b.columnCount());
                        for (int c = 0; c < b.columnCount(); c++) {
                            row.add(b.column(c).getObject(r));
                        }
                        rows.add(row);
                    }
                });
        return rows;
    }

    /**
     * Opens a client for the URL's transport: {@code clickhouse://} a {@link NativeConnection},
     * {@code http(s)://} the HTTP transport's client, found as a {@link TransportProvider}.
     *
     * @throws IllegalStateException when no provider of the URL's transport is on the class path
     */
    static ClickHouseClient open(ConnectionConfig config) {
        return switch (config.transport()) {
            case NATIVE -> NativeConnection.open(config);
            case HTTP -> Transports.open(config);
        };
    }

    static ClickHouseClient open(String url) {
        return open(ConnectionConfig.parse(url));
    }
}
