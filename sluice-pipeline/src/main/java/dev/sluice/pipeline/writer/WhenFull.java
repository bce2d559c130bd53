package dev.sluice.pipeline.writer;

/**
 * What {@link ClickHouseWriter#submit} does when the bytes of rows submitted and not yet
 * acknowledged would pass the writer's in-flight limit.
 */
public enum WhenFull {
    /**
     * Wait until acknowledgements make room (at most the builder's {@code maxWait}, then throw
     * {@link WriterFullException}).
     */
    WAIT,
    /** Throw {@link WriterFullException} at once. */
    FAIL
}
