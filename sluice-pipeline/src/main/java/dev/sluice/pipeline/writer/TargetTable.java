package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * What start-up learns about the target table on one shard: its schema, the server, whether a batch
 * sent again is dropped there, and whether the server logs sluice's INSERTs so that one can be
 * looked up — an interrupted one where the table cannot deduplicate, and on every table the batch
 * of several partitions a member replayed alone belonged to (docs/adr/0011).
 *
 * @param logging the server's query log as probed
 */
public record TargetTable(
        TableSchema schema,
        ServerInfo server,
        RetryDeduplication deduplication,
        QueryLogging logging) {

    /** A table described without settings or a query-log probe (tests, fakes). */
    public TargetTable(TableSchema schema, ServerInfo server) {
        this(
                schema,
                server,
                RetryDeduplication.of(schema, server, Map.of()),
                QueryLogging.notLogged("the server's query log was not probed"));
    }

    /** The table {@code table} as the server at the other end of {@code client} describes it. */
    public static TargetTable describe(ClickHouseClient client, String table) {
        return new TargetTable(SchemaDiscovery.describe(client, table), client.server());
    }

    /**
     * The sink's table as the server at the other end of {@code client} describes it, with what
     * holds for INSERTs carrying the URL's and the sink's settings, and the server's query log as
     * probed.
     */
    public static TargetTable describe(ClickHouseClient client, SinkSpec sink) {
        TableSchema schema = SchemaDiscovery.describe(client, sink.table());
        Map<String, String> settings = new HashMap<>(client.config().settings());
        settings.putAll(sink.settings());
        RetryDeduplication dedup = RetryDeduplication.of(schema, client.server(), settings);
        QueryLogging logging = QueryLogging.probe(client, settings);
        return new TargetTable(schema, client.server(), dedup, logging);
    }

    /** Why inserts into this table cannot be deduplicated, or null when they can (property 2). */
    public String cannotDeduplicate() {
        return deduplication.deduplicates() ? null : deduplication.statement();
    }

    /**
     * How batches of {@code columns} become INSERTs into this table ({@link InsertPlan}).
     *
     * @throws IllegalArgumentException when a column is MATERIALIZED or ALIAS; the message names it
     */
    public InsertPlan insertPlan(TargetColumns columns, SinkSpec sink) {
        return InsertPlan.of(
                schema,
                server,
                columns.columns().stream().map(TableSchema.Column::name).toList(),
                sink.presort(),
                sink.partitionSplit());
    }
}
