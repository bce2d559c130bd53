package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.Deduplication;
import dev.sluice.clickhouse.schema.TableSchema;
import java.util.Map;

/**
 * Whether a table drops a batch that sluice sends again — a retry after a lost acknowledgement, a
 * replay after a crash — and why, in one sentence for start-up (property 2). What holds:
 *
 * <ul>
 *   <li>Replicated* tables, all versions: a block identical to one of the last {@code
 *       replicated_deduplication_window} blocks is dropped; sluice sends a retry or replay as the
 *       same blocks (the recorded boundaries, the same shaping), so it is written once. From 22.2
 *       the batch's {@code insert_deduplication_token} is compared instead.
 *   <li>A plain MergeTree with {@code non_replicated_deduplication_window > 0} (newer servers): the
 *       same.
 *   <li>Everything else — a MergeTree on 18.16 (no such setting), a window of 0, other engines, or
 *       {@code insert_deduplicate=0} among the settings: nothing is dropped.
 * </ul>
 *
 * @param deduplicates a batch sent again is dropped by the server
 */
public record RetryDeduplication(boolean deduplicates, String statement) {

    /**
     * @param settings the settings INSERTs carry (the URL's and the sink's)
     */
    public static RetryDeduplication of(
            TableSchema schema, ServerInfo server, Map<String, String> settings) {
        String table = schema.qualifiedName() + " (" + schema.engine() + ")";
        Deduplication d = schema.deduplication();
        String off = null;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (e.getKey().equalsIgnoreCase("insert_deduplicate")
                    && e.getValue().trim().equals("0")) {
                off = "insert_deduplicate=0 is among the settings";
            }
        }
        if (d.enabled() && off == null) {
            String setting =
                    d.kind() == Deduplication.Kind.REPLICATED
                            ? "replicated_deduplication_window"
                            : "non_replicated_deduplication_window";
            String last = d.window() > 0 ? "the last " + d.window() : "its last";
            if (server.supportsInsertDeduplicationToken()) {
                return new RetryDeduplication(
                        true,
                        table
                                + " drops an INSERT whose insert_deduplication_token (sluice sends"
                                + " one per batch) matches one of "
                                + last
                                + " ("
                                + setting
                                + "): a batch sent again is written once");
            }
            return new RetryDeduplication(
                    true,
                    table
                            + " drops a block identical to one of "
                            + last
                            + " blocks ("
                            + setting
                            + "), and sluice sends a retried or replayed batch as the same blocks:"
                            + " it is written once (a DEFAULT computed from now() makes a replay's"
                            + " block differ)");
        }
        String why;
        if (off != null) {
            why = table + " would drop repeated blocks, but " + off;
        } else if (schema.replicated()) {
            why = table + " has replicated_deduplication_window = 0";
        } else if (schema.engine().endsWith("MergeTree")) {
            why =
                    d.window() < 0
                            ? table
                                    + " cannot deduplicate on ClickHouse "
                                    + server.version()
                                    + ", which has no non_replicated_deduplication_window (only"
                                    + " Replicated tables deduplicate there)"
                            : table
                                    + " has non_replicated_deduplication_window = 0 (set it above 0,"
                                    + " or use a Replicated engine)";
        } else {
            why = table + " does not deduplicate inserts";
        }
        return new RetryDeduplication(
                false, why + ": a batch sent again is written again unless sluice knows better");
    }
}
