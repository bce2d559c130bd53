package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.Source;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pipeline thread commits, and when: its partitions' checkpoints — positions as far as their
 * trackers allow (property 1; contiguous across a split file's chunks, property 8, which the source
 * ensures) and the boundaries of their batches not yet behind them (property 2) — in one call to
 * the source per commit, every {@code checkpoint.interval} and whenever the thread asks (sealed
 * batches to record, a revocation, the end). Keeps the position each partition's source reports as
 * committed. Used by its pipeline thread only.
 */
final class CommitCoordinator {
    private final Source source;
    private final Committer committer;
    private final Lifecycle lifecycle;
    private final Map<String, PartitionState> partitions;
    private final Map<String, Long> committed = new HashMap<>();
    private final long intervalNanos;
    private long nextCommitNanos;

    /**
     * @param partitions the thread's partitions, by name (the thread adds and removes them)
     * @param nowNanos the clock now: the first periodic commit is due an interval later
     */
    CommitCoordinator(
            PipelineContext context,
            Source source,
            Map<String, PartitionState> partitions,
            long nowNanos) {
        this.source = source;
        this.committer = context.committer();
        this.lifecycle = context.lifecycle();
        this.partitions = partitions;
        this.intervalNanos = context.commitIntervalNanos();
        this.nextCommitNanos = nowNanos + intervalNanos;
    }

    /** True when the periodic commit is due. */
    boolean due(long nowNanos) {
        return nowNanos - nextCommitNanos >= 0;
    }

    /** Nanoseconds until the periodic commit is due (at most 0 when it is). */
    long untilDue(long nowNanos) {
        return nextCommitNanos - nowNanos;
    }

    /** The periodic commit was made: the next is due an interval from {@code nowNanos}. */
    void reschedule(long nowNanos) {
        nextCommitNanos = nowNanos + intervalNanos;
    }

    /**
     * Commits every partition whose position moved. False (and the pipeline failed) when the source
     * could not keep them.
     */
    boolean commitMoved() {
        List<PartitionState> moved = new ArrayList<>();
        for (PartitionState part : partitions.values()) {
            if (part.tracker.committable() > part.tracker.committed()) {
                moved.add(part);
            }
        }
        return commit(moved);
    }

    /**
     * Commits these partitions' checkpoints — positions as far as their trackers allow, and the
     * boundaries of their batches in flight — in one call to the source. False (and the pipeline
     * failed) when the source could not keep them.
     */
    boolean commit(List<PartitionState> ps) {
        if (ps.isEmpty()) {
            return true;
        }
        Map<String, Checkpoint> checkpoints = new LinkedHashMap<>();
        boolean advanced = false;
        for (PartitionState p : ps) {
            advanced |= p.tracker.advance();
            checkpoints.put(p.name, p.checkpoint());
        }
        try {
            committer.commit(source, checkpoints, advanced);
        } catch (IOException e) {
            lifecycle.fail(
                    new Failure("cannot commit positions: " + e.getMessage(), null, null), false);
            return false;
        }
        for (Map.Entry<String, Checkpoint> e : checkpoints.entrySet()) {
            long position = source.committedPosition(e.getKey(), e.getValue().position());
            if (position >= 0) {
                committed.put(e.getKey(), position);
            }
        }
        return true;
    }

    /** A partition was assigned with a checkpoint at {@code position} (-1: none). */
    void assigned(String partition, long position) {
        if (position >= 0) {
            committed.put(partition, position);
        }
    }

    /** The partition is no longer the thread's: its committed position is another's to report. */
    void forget(String partition) {
        committed.remove(partition);
    }

    /** The committed position of every partition the thread owns or finished. */
    Map<String, Long> committedPositions() {
        return committed;
    }
}
