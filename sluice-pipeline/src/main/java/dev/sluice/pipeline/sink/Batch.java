package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;

/**
 * A sealed batch: rows of one source partition, from the record at {@link #firstPosition()} to the
 * one at {@link #lastPosition()}, bound for one shard with a deduplication token derived from its
 * recorded boundaries (property 2). Immutable once sealed, except for its outcome, which the writer
 * sets once before handing the batch back to its owner.
 */
public final class Batch {

    /** How a batch ended. */
    public enum Outcome {
        /** Still queued or being sent. */
        IN_FLIGHT,
        /** The server acknowledged it: its rows are durable. */
        WRITTEN,
        /** It will not be written by this run: never sent (stop), or failed for good. */
        ABANDONED
    }

    private final BatchOwner owner;
    private final OpenBatch open;
    private final Block block;
    private final AbsentRows absent;
    private final int shard;
    private final LedgerEntry boundaries;
    private final boolean replayed;
    private final String token;
    private final SealReason reason;
    private final long bytes;
    private final long nowSeconds;
    private final long epoch;
    private volatile Outcome outcome = Outcome.IN_FLIGHT;

    /**
     * @param boundaries the range and shard the token is made of: the open batch's own, or the
     *     ledger entry it replays
     * @param replayed true when {@code boundaries} come from the ledger (already recorded)
     * @param nowSeconds the batch's {@code now()} in epoch seconds for DEFAULT and key expressions,
     *     one value per batch as the server takes one per block: the clock at sealing, or the
     *     recorded one of a replayed batch
     * @param epoch the assignment of its partition the batch was sealed in: an acknowledgement for
     *     an earlier assignment is dropped
     */
    public Batch(
            BatchOwner owner,
            OpenBatch open,
            LedgerEntry boundaries,
            boolean replayed,
            String token,
            SealReason reason,
            long nowSeconds,
            long epoch) {
        this.owner = owner;
        this.open = open;
        this.boundaries = boundaries;
        this.replayed = replayed;
        this.token = token;
        this.reason = reason;
        this.bytes = open.accountedBytes();
        this.nowSeconds = nowSeconds;
        this.epoch = epoch;
        this.block = open.block();
        this.absent = open.absentRows();
        this.shard = boundaries.shard();
    }

    /**
     * The rows of {@code parent} a sharding key sends to {@code shard}: its own block and marks,
     * the parent's range and token with {@code /k<shard>} appended, settled through {@code owner}
     * (which settles the parent once every part is).
     */
    Batch(Batch parent, BatchOwner owner, Block block, AbsentRows absent, int shard, long bytes) {
        this.owner = owner;
        this.open = parent.open;
        this.boundaries = parent.boundaries;
        this.replayed = parent.replayed;
        this.token = parent.token + "/k" + shard;
        this.reason = parent.reason;
        this.bytes = bytes;
        this.nowSeconds = parent.nowSeconds;
        this.epoch = parent.epoch;
        this.block = block;
        this.absent = absent;
        this.shard = shard;
    }

    /** The assignment of its partition the batch was sealed in. */
    public long epoch() {
        return epoch;
    }

    public String partition() {
        return open.partition();
    }

    public long firstPosition() {
        return open.firstPosition();
    }

    public long lastPosition() {
        return open.lastPosition();
    }

    public int rows() {
        return block.rows();
    }

    /** Bytes counted against the in-flight budget, released when the batch is settled. */
    public long bytes() {
        return bytes;
    }

    /** The shard it is sent to. */
    public int shard() {
        return shard;
    }

    public LedgerEntry boundaries() {
        return boundaries;
    }

    /** True when the boundaries come from the ledger of a previous run (already recorded). */
    public boolean replayed() {
        return replayed;
    }

    public String token() {
        return token;
    }

    public SealReason reason() {
        return reason;
    }

    /** The batch's rows, every column the pipeline writes (absent fields as placeholders). */
    public Block block() {
        return block;
    }

    /** Which rows of {@link #block()} lack which column. */
    public AbsentRows absentRows() {
        return absent;
    }

    /** The block and marks, returned to their thread's pool once the batch is settled. */
    public BatchBuffers buffers() {
        return open.buffers();
    }

    /** The batch's {@code now()}, in epoch seconds (taken when it was sealed). */
    public long nowSeconds() {
        return nowSeconds;
    }

    public CheckpointTracker.Pending pending() {
        return open.pending();
    }

    public long firstReadNanos() {
        return open.firstReadNanos();
    }

    public Outcome outcome() {
        return outcome;
    }

    /** Sets the outcome and hands the batch back to its pipeline thread (without waiting). */
    public void settle(Outcome result) {
        if (result == Outcome.IN_FLIGHT) {
            throw new IllegalArgumentException("a settled batch needs a final outcome");
        }
        outcome = result;
        owner.settled(this);
    }

    @Override
    public String toString() {
        return "batch "
                + partition()
                + " ["
                + firstPosition()
                + ".."
                + lastPosition()
                + "] "
                + rows()
                + " rows → shard "
                + shard();
    }
}
