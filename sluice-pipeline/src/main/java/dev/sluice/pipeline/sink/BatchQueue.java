package dev.sluice.pipeline.sink;

/** Where pipeline threads hand sealed batches; never blocks (property 3 bounds it by bytes). */
public interface BatchQueue {
    void submit(SealedBatch batch);

    /** Sealed batches not yet settled, over all shards. */
    int inFlight();
}
