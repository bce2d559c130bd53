package dev.sluice.pipeline.checkpoint;

import java.util.ArrayDeque;

/**
 * What of one source partition may be committed (property 1): a position is committable only when
 * every record before it is durably handled — written (its batch acknowledged), or filtered,
 * skipped or dead-lettered.
 *
 * <p>A batch is <i>pending</i> from its first row until its acknowledgement; batches of a partition
 * open in position order, so the committable position is the first position of the oldest pending
 * batch, or, when nothing is pending, the end of what was consumed. Records consumed between two
 * batches (filtered, skipped) are covered by whichever of those rules applies. A batch that is
 * abandoned (never sent, or given up) simply never acknowledges, which holds the position before it
 * for good: its records are read again after a restart.
 *
 * <p>Single-threaded: owned by the pipeline thread that reads the partition. Writers acknowledge
 * through that thread's inbox, never here (property 5).
 */
public final class CheckpointTracker {

    /** One batch between its first row and its acknowledgement. */
    public static final class Pending {
        private final long first;
        private final long openedNanos;
        private boolean acknowledged;

        private Pending(long first, long openedNanos) {
            this.first = first;
            this.openedNanos = openedNanos;
        }

        /** Position of the batch's first record. */
        public long first() {
            return first;
        }

        /** Clock time at which the batch got its first row. */
        public long openedNanos() {
            return openedNanos;
        }
    }

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long consumedEnd = -1;
    private long committed;

    /**
     * @param committed the partition's committed position when reading starts, or -1 for none
     */
    public CheckpointTracker(long committed) {
        this.committed = committed;
    }

    /** A batch got its first row, the record at {@code firstPosition}. */
    public Pending open(long firstPosition, long nowNanos) {
        Pending p = new Pending(firstPosition, nowNanos);
        pending.addLast(p);
        return p;
    }

    /**
     * Records up to {@code endPosition} (exclusive) were read and each went into a pending batch or
     * was handled on the spot.
     */
    public void consumed(long endPosition) {
        consumedEnd = Math.max(consumedEnd, endPosition);
    }

    /** The batch is durably written. Acknowledgements may come in any order. */
    public void acknowledge(Pending p) {
        p.acknowledged = true;
        while (!pending.isEmpty() && pending.peekFirst().acknowledged) {
            pending.pollFirst();
        }
    }

    /** The highest position that may be committed now, never below the last commit. */
    public long committable() {
        long safe = pending.isEmpty() ? consumedEnd : pending.peekFirst().first;
        return Math.max(committed, safe);
    }

    /** Marks {@link #committable()} as committed; false when it did not move. */
    public boolean advance() {
        long next = committable();
        if (next > committed) {
            committed = next;
            return true;
        }
        return false;
    }

    /** The last committed position, or -1. */
    public long committed() {
        return committed;
    }

    public int pendingBatches() {
        return pending.size();
    }

    /** When the oldest pending batch got its first row, or {@code Long.MAX_VALUE} for none. */
    public long oldestPendingNanos() {
        return pending.isEmpty() ? Long.MAX_VALUE : pending.peekFirst().openedNanos;
    }
}
