package dev.sluice.pipeline.sink;

/**
 * The pipeline thread a batch came from, told when the batch is settled — written or abandoned.
 * Implementations only enqueue and wake their thread: a writer never waits here (property 5).
 */
public interface BatchOwner {
    void settled(SealedBatch batch);
}
