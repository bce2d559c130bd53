package dev.sluice.flink;

import java.util.List;
import java.util.Map;

/**
 * Rows of one subtask between two checkpoints, waiting for their checkpoint to complete before they
 * are written ({@link ClickHouseExactlyOnceSink}). Kept in the checkpoint, so that a commit
 * interrupted by a failure is made again after the restore with the same token and the same {@code
 * now()}: the same block, which a deduplicating table drops.
 *
 * @param token the batch's deduplication token
 * @param nowSeconds the {@code now()} of the table's DEFAULT expressions for these rows
 * @param rows the rows' fields by column name
 */
record PendingBatch(String token, long nowSeconds, List<Map<String, Object>> rows) {}
