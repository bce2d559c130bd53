package dev.sluice.connect;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Where one partition's batches begin and end. New batches end at {@code batch.max.records} offsets
 * or after {@code batch.linger.ms}; batches recorded in the ledger by an earlier run (or an earlier
 * owner of the partition) are re-created at exactly their recorded boundaries, whatever the
 * settings and linger, and a new batch ends where the next recorded one begins (ADR 0005). So a
 * replay builds the same batches — same rows, token and {@code now()} — as the run that may have
 * written them.
 *
 * <p>The open batch is a range of consecutive offsets. Not thread-safe: the task's thread.
 */
final class BatchCuts {
    /**
     * A re-created batch waits this long (at least) for its recorded end before it is cut short as
     * a batch of its own range: its records were all there when it was first read, so only their
     * deletion since (retention) can keep its end from coming.
     */
    static final long REPLAY_PATIENCE_NANOS = 60_000_000_000L;

    private final Deque<BatchLedger.Entry> replay;
    private BatchLedger.Entry openEntry; // the recorded batch the open one re-creates, if any
    private boolean open;
    private long first;
    private long last;
    private long nowSeconds;
    private long openedNanos;

    /**
     * A batch's boundaries, as cut.
     *
     * @param replayed it may have been sent before (it is in a recorded batch's range)
     * @param recorded its boundaries are in the ledger already (exactly a recorded batch)
     */
    record Cut(long first, long last, long nowSeconds, boolean replayed, boolean recorded) {}

    /**
     * @param replay the recorded batches to re-create, in offset order
     */
    BatchCuts(List<BatchLedger.Entry> replay) {
        this.replay = new ArrayDeque<>(replay);
    }

    boolean isOpen() {
        return open;
    }

    /**
     * True when the open batch must be cut before the record at {@code offset}: the record is past
     * the recorded batch it re-creates (every offset up to that batch's end is then consumed), or
     * it enters the next recorded batch.
     */
    boolean cutBefore(long offset) {
        if (!open || !endsBefore(offset)) {
            return false;
        }
        if (openEntry != null) {
            last = openEntry.last();
        }
        return true;
    }

    /** {@link #cutBefore} without closing the recorded range: the open batch is not touched. */
    private boolean endsBefore(long offset) {
        if (openEntry != null) {
            return offset > openEntry.last();
        }
        BatchLedger.Entry next = replay.peekFirst();
        return next != null && offset >= next.first();
    }

    /**
     * True when the record at {@code offset}, following the one at {@code previous} (consumed
     * last), joins the open batch: the batch was not full after {@code previous} and is not cut
     * before {@code offset}. Asks without changing anything: what the task would find consuming
     * {@code previous}, then asking {@link #full} and {@link #cutBefore}, for a run of records
     * checked before any is consumed.
     */
    boolean continues(long previous, long offset, int maxRecords) {
        return open && !fullAt(previous, maxRecords) && !endsBefore(offset);
    }

    /**
     * Opens a batch at the record at {@code offset}: the recorded batch it falls in, if any, else a
     * new one whose {@code now()} is {@code nowSeconds}.
     */
    void open(long offset, long nowSeconds, long nanos) {
        while (!replay.isEmpty() && replay.peekFirst().last() < offset) {
            replay.removeFirst(); // its records are gone (retention): nothing to re-create
        }
        BatchLedger.Entry e = replay.peekFirst();
        if (e != null && e.first() <= offset) {
            openEntry = replay.removeFirst();
            first = e.first();
            this.nowSeconds = e.nowSeconds();
        } else {
            openEntry = null;
            first = offset;
            this.nowSeconds = nowSeconds;
        }
        last = first - 1;
        openedNanos = nanos;
        open = true;
    }

    /** The record at {@code offset} is in the open batch (a row, or reported as errant). */
    void consumed(long offset) {
        last = offset;
    }

    /**
     * True when the open batch is complete: it re-creates a recorded batch and reached its end, or
     * it spans {@code maxRecords} offsets.
     */
    boolean full(int maxRecords) {
        return open && fullAt(last, maxRecords);
    }

    private boolean fullAt(long lastConsumed, int maxRecords) {
        return openEntry != null
                ? lastConsumed >= openEntry.last()
                : lastConsumed - first + 1 >= maxRecords;
    }

    /**
     * True when the open batch is due by time: opened {@code lingerNanos} ago (a re-created one
     * only after {@link #REPLAY_PATIENCE_NANOS} at least: it waits for its recorded end).
     */
    boolean lingered(long nanos, long lingerNanos) {
        if (!open) {
            return false;
        }
        long wait = openEntry != null ? Math.max(lingerNanos, REPLAY_PATIENCE_NANOS) : lingerNanos;
        return nanos - openedNanos >= wait;
    }

    /**
     * Closes the open batch and returns its boundaries; null when it consumed no record. A
     * re-created batch that reached its end keeps its recorded boundaries; one cut short gets a
     * range of its own, to be recorded anew.
     */
    Cut cut() {
        if (!open) {
            return null;
        }
        BatchLedger.Entry e = openEntry;
        open = false;
        openEntry = null;
        if (last < first) {
            return null;
        }
        if (e != null && last >= e.last()) {
            return new Cut(e.first(), e.last(), nowSeconds, true, true);
        }
        return new Cut(first, last, nowSeconds, e != null, false);
    }
}
