package dev.sluice.pipeline.metrics;

/**
 * Values read when metrics are scraped rather than pushed on every change: the runtime's live
 * state. Implementations return 0 for parts not yet running.
 */
public interface Probes {
    long inflightBytes();

    long budgetBytes();

    boolean paused();

    /** Batches holding back a commit: open with rows, or sealed and not yet acknowledged. */
    long pendingBatches();

    /** Age of the oldest pending batch (since its first row), in seconds; 0 when none. */
    double watermarkAgeSeconds();

    /** Partitions the pipeline threads own now. */
    default long ownedPartitions() {
        return 0;
    }

    /** Sealed batches waiting for or being sent by {@code shard}'s writers. */
    long queuedBatches(int shard);
}
