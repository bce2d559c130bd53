package dev.sluice.pipeline.source;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.Map;

/**
 * Where records come from. A source is read by one pipeline thread at a time; the runtime may open
 * several sources of one kind (one per thread), each owning a disjoint set of partitions.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #open} comes first: the source tells the runtime which partitions it owns, with
 *       their checkpoints, through the {@link PartitionListener} — before the first record of each
 *       (and, for sources whose partitions move, whenever they move).
 *   <li>{@code poll} never blocks longer than {@code maxWaitNanos}. Under backpressure the runtime
 *       {@link #pause()}s the source and keeps calling {@link #idle} instead of {@code poll}, so a
 *       source that must be polled to stay alive (a Kafka consumer in a group) never is evicted for
 *       a slow ClickHouse (property 3).
 *   <li>{@link #commit} is called with checkpoints whose positions have every record before them
 *       durably handled (written, filtered, skipped or dead-lettered) — never beyond (property 1) —
 *       and with the boundaries of the batches past them that may be in ClickHouse (property 2). A
 *       batch is handed to the sink only after a commit holding its boundaries returned, so the
 *       source's store (a state file, consumer offsets) always knows every batch the server may
 *       hold. The source keeps them durably and gives them back in {@link
 *       PartitionListener#assigned} when the partition is assigned again. A source that hands
 *       ranges of one partition to several threads (a file split into chunks) gets each thread's
 *       checkpoint of its range — every record before it in the range handled — and keeps the
 *       partition's, contiguous across the ranges (property 8).
 *   <li>A source that cannot read again what it read ({@link #replayable()} false: stdin) is never
 *       given a resume position or replay plan, and its batches are not recorded.
 * </ul>
 */
public interface Source extends AutoCloseable {

    /** A short name for metrics and messages, e.g. {@code file} or {@code kafka}. */
    String name();

    /** Called once, on the pipeline thread, before the first {@code poll}. */
    default void open(PartitionListener listener) throws IOException {}

    /**
     * Fills {@code into} (cleared first) with at most {@code maxRecords} records of one partition,
     * waiting at most {@code maxWaitNanos} for data.
     *
     * @return the number of records read (possibly 0), or -1 when the source is exhausted and will
     *     never produce more (bounded sources: files, a generator with a row count)
     */
    int poll(PolledRecords into, int maxRecords, long maxWaitNanos) throws IOException;

    /** Stop fetching, for every partition owned now or assigned later, until {@link #resume()}. */
    default void pause() {}

    default void resume() {}

    /**
     * The pipeline takes no records now (paused, or the records of the last poll are not all
     * processed yet) but the source may need to be polled to stay alive: do that, waiting at most
     * {@code maxWaitNanos}, without handing over records. Partition changes are reported to the
     * listener from here as from {@code poll}.
     */
    default void idle(long maxWaitNanos) throws IOException {}

    /**
     * Keeps these partitions' checkpoints durably, all in one call, before returning (see the class
     * comment).
     */
    void commit(Map<String, Checkpoint> checkpoints) throws IOException;

    /**
     * The partition's committed position after a {@link #commit} in which this source's checkpoint
     * of it had {@code position}: the same, unless the partition is read on several threads (a file
     * split into chunks), whose position is where all of them together are (property 8) — what a
     * run reports as resumable.
     */
    default long committedPosition(String partition, long position) {
        return position;
    }

    /**
     * True when the source reads its partitions side by side (Kafka), so that one batch may gather
     * rows of many — few INSERTs however many partitions; false when it reads them one after
     * another (files), one batch per partition's range.
     */
    default boolean partitionsInterleave() {
        return false;
    }

    /** False when records cannot be read again after a restart (stdin): nothing is replayed. */
    default boolean replayable() {
        return true;
    }

    /**
     * Registers the source's own series (a Kafka source's lag, rebalances) in the pipeline's
     * registry; called once, before {@link #open}. Sources of one pipeline share the registry.
     */
    default void registerMetrics(PrometheusRegistry registry) {}

    /**
     * Why the source cannot deliver yet, for {@code /readyz} (a Kafka member waiting for its
     * group's first assignment), or null when it can. Called from other threads.
     */
    default String notReady() {
        return null;
    }

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
