package dev.sluice.pipeline.sink;

/**
 * Where pipeline threads hand sealed batches to be written ({@code ClickHouseWriter}: a shard's
 * writers take them from its queue); submitting never blocks (property 3 bounds them by bytes).
 */
public interface BatchSink {
    /** Queues {@code batch} for its shard; it is settled through its owner once written or not. */
    void submit(SealedBatch batch);

    /** Sealed batches not yet settled, over all shards. */
    int inFlight();
}
