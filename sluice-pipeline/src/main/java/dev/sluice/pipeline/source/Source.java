package dev.sluice.pipeline.source;

import java.io.IOException;

/**
 * Where records come from. A source is read by one pipeline thread at a time through {@link #poll};
 * the runtime may open several sources of one kind (one per thread), each owning a disjoint set of
 * partitions.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@code poll} never blocks longer than {@code maxWaitNanos}: backpressure is applied by not
 *       polling, so a paused pipeline is a pipeline that does not call {@code poll}. Kafka-like
 *       sources also get {@link #pause()} / {@link #resume()} to stop fetching while paused.
 *   <li>{@link #commit} is called with positions whose records are all durably handled (written,
 *       skipped or dead-lettered) — never beyond (property 1). A source persists them as its resume
 *       point (a state file, consumer offsets).
 *   <li>After a restart a source resumes from its last committed positions, so records after them
 *       are read again (at-least-once).
 * </ul>
 */
public interface Source extends AutoCloseable {

    /** A short name for metrics and messages, e.g. {@code file} or {@code generator}. */
    String name();

    /**
     * Fills {@code into} (cleared first) with at most {@code maxRecords} records of one partition,
     * waiting at most {@code maxWaitNanos} for data.
     *
     * @return the number of records read (possibly 0), or -1 when the source is exhausted and will
     *     never produce more (bounded sources: files, a generator with a row count)
     */
    int poll(RecordBatch into, int maxRecords, long maxWaitNanos) throws IOException;

    /** Stop fetching ahead (the pipeline is paused by backpressure). */
    default void pause() {}

    default void resume() {}

    /** All records of {@code partition} before {@code position} are durably handled. */
    void commit(String partition, long position) throws IOException;

    /** Bytes of input consumed so far and in total (-1 when unknown), for progress. */
    default long bytesRead() {
        return -1;
    }

    default long bytesTotal() {
        return -1;
    }

    @Override
    void close() throws IOException;
}
