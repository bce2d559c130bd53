package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;

/** What start-up learns about the target table on one shard: its schema and the server. */
public record TargetTable(TableSchema schema, ServerInfo server) {

    /** The table {@code table} as the server at the other end of {@code client} describes it. */
    public static TargetTable describe(ClickHouseClient client, String table) {
        return new TargetTable(SchemaDiscovery.describe(client, table), client.server());
    }

    /**
     * Why inserts into this table cannot be deduplicated by token, or null when they can (property
     * 2).
     */
    public String cannotDeduplicate() {
        if (!server.supportsInsertDeduplicationToken()) {
            return "ClickHouse " + server.version() + " has no insert_deduplication_token (22.2+)";
        }
        if (schema.deduplication().enabled()) {
            return null;
        }
        String table = "table " + schema.qualifiedName() + " is " + schema.engine();
        if (schema.replicated()) {
            return table + " with replicated_deduplication_window = 0";
        }
        if (schema.engine().endsWith("MergeTree")) {
            return table
                    + " with non_replicated_deduplication_window = 0 (set it above 0, or use a"
                    + " Replicated engine)";
        }
        return table + ", which does not deduplicate inserts";
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
