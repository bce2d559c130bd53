package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.TableSchema;

/**
 * What start-up learns about the target table on one shard.
 *
 * @param nonReplicatedDedupWindow the table's {@code non_replicated_deduplication_window}, or -1
 *     when the server has no such setting (it then cannot deduplicate a plain MergeTree table)
 */
public record TargetTable(TableSchema schema, ServerInfo server, long nonReplicatedDedupWindow) {

    /**
     * Why inserts into this table cannot be deduplicated by token, or null when they can (property
     * 2).
     */
    public String cannotDeduplicate() {
        if (!server.supportsInsertDeduplicationToken()) {
            return "ClickHouse " + server.version() + " has no insert_deduplication_token (22.2+)";
        }
        if (!schema.replicated() && nonReplicatedDedupWindow <= 0) {
            return "table "
                    + schema.qualifiedName()
                    + " is "
                    + schema.engine()
                    + " with non_replicated_deduplication_window = "
                    + Math.max(0, nonReplicatedDedupWindow)
                    + " (set it above 0, or use a Replicated engine)";
        }
        return null;
    }
}
