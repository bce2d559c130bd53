package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a {@link ClickHouseWriter} reaches the servers of its shards. {@link #of(SinkSpec)} opens
 * connections over each replica URL's transport ({@code clickhouse://} native, {@code http(s)://}
 * HTTP) with the sink's compression; the pipeline runtime passes its {@code Factories} through
 * here, and tests may pass something else.
 */
public interface Connections {

    /**
     * A connection to the replica at {@code url}, for inserts: opened by each writer thread when
     * first needed and again after a connection failure.
     */
    BlockInserter inserter(String url);

    /** The target table as the replica at {@code url} describes it (see {@link TargetTable}). */
    TargetTable describe(String url);

    /**
     * The rows of {@code system.clusters} for {@code cluster} as the server at {@code url} lists
     * them ({@link ClusterShards#query}).
     */
    List<List<Object>> clusterRows(String url, String cluster);

    /**
     * What the replica at {@code url} records about the query ids starting with {@code prefix},
     * over a connection of its own whose connect and read timeouts are at most {@code timeout}.
     */
    QueryTrace trace(
            String url, String prefix, LocalDate since, Duration timeout, QueryLogging logging);

    /**
     * The rows {@code sql} selects on the server at {@code url}, over a connection of its own: the
     * writer's periodic look at its tables' columns.
     *
     * @throws UnsupportedOperationException when these connections cannot run queries (a fake)
     */
    default List<List<Object>> queryRows(String url, String sql) {
        throw new UnsupportedOperationException("these connections do not run queries");
    }

    /**
     * The same servers, describing {@code table} instead ({@link #describe}): a writer serving
     * several tables asks for each. By default the very same connections, for implementations whose
     * {@link #describe} does not depend on a table.
     */
    default Connections forTable(String table) {
        return this;
    }

    /** Connections over each URL's own transport, with {@code sink}'s compression and settings. */
    static Connections of(SinkSpec sink) {
        return new Connections() {
            @Override
            public BlockInserter inserter(String url) {
                return ClickHouseClient.open(config(url, sink));
            }

            @Override
            public TargetTable describe(String url) {
                try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
                    return TargetTable.describe(c, sink);
                }
            }

            @Override
            public List<List<Object>> clusterRows(String url, String cluster) {
                try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
                    return c.queryRows(ClusterShards.query(cluster));
                }
            }

            @Override
            public List<List<Object>> queryRows(String url, String sql) {
                try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
                    return c.queryRows(sql);
                }
            }

            @Override
            public Connections forTable(String table) {
                return Connections.of(sink.toBuilder().table(table).tables(Map.of()).build());
            }

            @Override
            public QueryTrace trace(
                    String url,
                    String prefix,
                    LocalDate since,
                    Duration timeout,
                    QueryLogging logging) {
                return Connections.trace(config(url, sink), prefix, since, timeout, logging);
            }
        };
    }

    /**
     * Looks up {@code prefix} over a connection of {@code config} whose connect and read timeouts
     * are cut to {@code timeout}: a server that does not answer makes the look-up fail within it.
     */
    static QueryTrace trace(
            ConnectionConfig config,
            String prefix,
            LocalDate since,
            Duration timeout,
            QueryLogging logging) {
        ConnectionConfig.Builder b = config.toBuilder();
        b.connectTimeout(min(config.connectTimeout(), timeout));
        b.readTimeout(min(config.readTimeout(), timeout));
        try (ClickHouseClient client = ClickHouseClient.open(b.build())) {
            return QueryTrace.lookup(client, prefix, since, logging);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * The replica's connection settings with the sink's compression: {@code none}, {@code lz4},
     * {@code zstd} or {@code zstd:LEVEL}.
     */
    static ConnectionConfig config(String url, SinkSpec sink) {
        ConnectionConfig.Builder b = ConnectionConfig.parse(url).toBuilder();
        String compression = sink.compression();
        if (compression != null && !compression.isEmpty()) {
            String c = compression.toLowerCase(Locale.ROOT);
            int colon = c.indexOf(':');
            b.compression(CompressionMethod.parse(colon < 0 ? c : c.substring(0, colon)));
            if (colon >= 0) {
                b.zstdLevel(Integer.parseInt(c.substring(colon + 1)));
            }
        }
        return b.build();
    }
}
