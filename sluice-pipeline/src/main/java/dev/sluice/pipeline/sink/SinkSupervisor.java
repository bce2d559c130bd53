package dev.sluice.pipeline.sink;

/** What the shard writers need from the pipeline that runs them. */
public interface SinkSupervisor {
    /**
     * True once batches not yet being sent must be abandoned rather than sent (a stop, or a fatal
     * error elsewhere). Also checked between the attempts of a batch being retried.
     */
    boolean abandonQueued();

    /** A batch failed for good; the pipeline stops with {@code message}. */
    void fatal(SealedBatch batch, String message, Throwable cause);
}
