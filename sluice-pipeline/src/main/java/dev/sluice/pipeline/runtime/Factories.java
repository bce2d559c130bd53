package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.writer.ClusterShards;
import dev.sluice.pipeline.writer.Connections;
import dev.sluice.pipeline.writer.TargetTable;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * The parts of a pipeline the runtime does not build itself, filled in by the CLI from the {@link
 * dev.sluice.pipeline.spec.PipelineSpec} (and by tests with fakes). The ClickHouse side has
 * defaults that open a connection over the URL's transport ({@code clickhouse://} native, {@code
 * http(s)://} HTTP); override them to talk to something else.
 */
public interface Factories {

    /**
     * The source read by pipeline thread {@code reader} of {@code readers}; the sources of one
     * pipeline own disjoint partitions.
     *
     * @param checkpoints the checkpoint directory's store (in memory without one), for sources
     *     whose positions live on this host (files, the generator); a source that keeps its
     *     positions elsewhere (Kafka) ignores it
     */
    Source source(int reader, int readers, LocalCheckpoints checkpoints) throws IOException;

    /**
     * The columns the pipeline writes, in block order (the table's insertable columns that the
     * input or a transform can feed; the others are left out of every INSERT, so the server fills
     * their DEFAULT). The default creates a decoder and the transforms for all insertable columns
     * and keeps those they feed ({@code fedColumns}, {@code producedColumns}); override it when the
     * configuration says which columns are fed.
     *
     * @throws IllegalArgumentException when the configuration names columns the table cannot take
     */
    default TargetColumns targetColumns(TableSchema table) {
        return Startup.fedColumns(table, this);
    }

    /** A decoder appending to {@code columns}; one per pipeline thread. */
    Decoder decoder(TargetColumns columns);

    /** The transform chain for {@code columns}, in order; one per pipeline thread. */
    List<Transform> transforms(TargetColumns columns);

    /** The dead-letter file; asked for only when the error policy is dead-letter. */
    DeadLetters deadLetters() throws IOException;

    /**
     * A connection to the replica at {@code url}, for inserts; opened lazily by each writer and
     * again after a connection failure.
     */
    default BlockInserter inserter(String url, SinkSpec sink) {
        return ClickHouseClient.open(config(url, sink));
    }

    /**
     * The target table's schema and deduplication ability, as the replica at {@code url} sees it,
     * and whether that server logs sluice's INSERTs (where the table cannot deduplicate).
     */
    default TargetTable describe(String url, SinkSpec sink) {
        try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
            return TargetTable.describe(c, sink);
        }
    }

    /**
     * The rows of {@code system.clusters} for {@code cluster}, as the server at {@code url} lists
     * them (shard_num, shard_weight, replica_num, host_address, port), in shard and replica order.
     */
    default List<List<Object>> clusterRows(String url, SinkSpec sink, String cluster) {
        try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
            return c.queryRows(ClusterShards.query(cluster));
        }
    }

    /**
     * The rows {@code sql} selects on the replica at {@code url}: the writer's periodic look at the
     * table's columns ({@code sink.clickhouse.schema_check_interval}).
     */
    default List<List<Object>> queryRows(String url, SinkSpec sink, String sql) {
        try (ClickHouseClient c = ClickHouseClient.open(config(url, sink))) {
            return c.queryRows(sql);
        }
    }

    /**
     * What the replica at {@code url} records about the query ids starting with {@code prefix} (an
     * INSERT whose acknowledgement was lost), over a connection of its own whose connect and read
     * timeouts are at most {@code timeout}.
     */
    default QueryTrace trace(
            String url,
            SinkSpec sink,
            String prefix,
            LocalDate since,
            Duration timeout,
            QueryLogging logging) {
        return Connections.trace(config(url, sink), prefix, since, timeout, logging);
    }

    /** The sink's writer reaches its servers through these factories. */
    default Connections connections(SinkSpec sink) {
        Factories f = this;
        return new Connections() {
            @Override
            public BlockInserter inserter(String url) {
                return f.inserter(url, sink);
            }

            @Override
            public TargetTable describe(String url) {
                return f.describe(url, sink);
            }

            @Override
            public List<List<Object>> clusterRows(String url, String cluster) {
                return f.clusterRows(url, sink, cluster);
            }

            @Override
            public List<List<Object>> queryRows(String url, String sql) {
                return f.queryRows(url, sink, sql);
            }

            @Override
            public Connections forTable(String table) {
                return f.connections(sink.toBuilder().table(table).tables(Map.of()).build());
            }

            @Override
            public QueryTrace trace(
                    String url,
                    String prefix,
                    LocalDate since,
                    Duration timeout,
                    QueryLogging logging) {
                return f.trace(url, sink, prefix, since, timeout, logging);
            }
        };
    }

    /**
     * The replica's connection settings with the sink's compression: {@code none}, {@code lz4},
     * {@code zstd} or {@code zstd:LEVEL}.
     */
    static ConnectionConfig config(String url, SinkSpec sink) {
        return Connections.config(url, sink);
    }
}
