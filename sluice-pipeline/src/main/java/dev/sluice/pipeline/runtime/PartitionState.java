package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.ReplayPlan;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.source.Checkpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * What a pipeline thread knows of one partition it owns, from its assignment to its revocation: the
 * commit tracker, the batch being filled, the batches to re-create after a restart, and the
 * boundaries of every batch sealed and not yet behind the committed position — which travel with
 * each commit of the partition, so whoever owns it next can replay them (property 2).
 *
 * <p>{@link #epoch} tells assignments apart: a batch carries the epoch it was sealed in, and its
 * acknowledgement is dropped when the partition was revoked (and maybe assigned again) meanwhile.
 * Owned by its pipeline thread.
 */
final class PartitionState {
    /**
     * Sealed batches of one partition not yet behind its committed position, at most: their
     * boundaries travel with every commit (Kafka keeps them in the offset's metadata, 4 KiB by
     * default), so a partition with this many takes no more records until acknowledgements come
     * back and a commit drops them.
     */
    static final int MAX_IN_FLIGHT_BATCHES = 64;

    final String name;
    final long epoch;
    final CheckpointTracker tracker;
    final ReplayPlan replay;

    /** The run id in this partition's tokens: the checkpoint's, or the job's. */
    final String run;

    /** Boundaries of sealed batches not yet behind the committed position, by first position. */
    private final List<LedgerEntry> inFlight;

    BatchBuilder open;

    /**
     * A replayed batch of several partitions' records complete for this partition, waiting for the
     * other partitions' parts (it is sent with them, whole, or alone if they cannot come).
     */
    BatchBuilder ready;

    boolean ended;

    /** How its records are decoded: the lane of its table ({@link PartitionLanes#follow}). */
    Lane lane;

    PartitionState(String name, long epoch, Checkpoint checkpoint, String defaultRun) {
        this.name = name;
        this.epoch = epoch;
        this.tracker = new CheckpointTracker(checkpoint.position());
        List<LedgerEntry> pending = new ArrayList<>();
        for (LedgerEntry e : checkpoint.inFlight()) {
            if (e.last() >= checkpoint.position()) {
                pending.add(e);
            }
        }
        pending.sort((a, b) -> Long.compare(a.first(), b.first()));
        this.inFlight = pending;
        this.replay = pending.isEmpty() ? null : new ReplayPlan(pending);
        this.run = checkpoint.run() != null ? checkpoint.run() : defaultRun;
    }

    /**
     * A batch of new boundaries was sealed: it replaces an older entry it overlaps (a replayed
     * batch sealed before its recorded end), as the ledger does when it is read.
     */
    void sealed(LedgerEntry bounds) {
        inFlight.removeIf(old -> old.overlaps(bounds));
        int at = inFlight.size();
        while (at > 0 && inFlight.get(at - 1).first() > bounds.first()) {
            at--;
        }
        inFlight.add(at, bounds);
    }

    /** How many sealed batches are not yet behind the committed position. */
    int inFlightBatches() {
        return inFlight.size();
    }

    /** True when the partition takes no more records until a commit drops acknowledged batches. */
    boolean atCeiling() {
        return inFlight.size() >= MAX_IN_FLIGHT_BATCHES;
    }

    /** The checkpoint to commit now: the tracker's position and the batches past it. */
    Checkpoint checkpoint() {
        long position = tracker.committed();
        inFlight.removeIf(e -> e.last() < position);
        return new Checkpoint(position, run, inFlight);
    }
}
