package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sealed batch, bound for one shard with a deduplication token derived from its recorded
 * boundaries (property 2): rows of one source partition — or, from a source whose partitions are
 * read side by side (Kafka), of several, one {@link Segment} each, in partition-name order, so that
 * a replay re-creates the very same rows in the very same order. Immutable once sealed, except for
 * its outcome, which the writer sets once before handing the batch back to its owner.
 */
public final class SealedBatch {

    /** How a batch ended. */
    public enum Outcome {
        /** Still queued or being sent. */
        IN_FLIGHT,
        /** The server acknowledged it: its rows are durable. */
        WRITTEN,
        /** It will not be written by this run: never sent (stop), or failed for good. */
        ABANDONED
    }

    /**
     * One partition's rows of a batch: the builder they were appended to while the batch was open,
     * its recorded boundaries, and the assignment of the partition it was sealed in (an
     * acknowledgement for an earlier one is dropped).
     */
    public record Segment(BatchBuilder builder, LedgerEntry bounds, long epoch) {
        public String partition() {
            return bounds.partition();
        }

        public CheckpointTracker.Pending pending() {
            return builder.pending();
        }
    }

    private final BatchOwner owner;
    private final List<Segment> segments;
    private final int shard;
    private final boolean replayed;
    private final String token;
    private final SealReason reason;
    private final long bytes;
    private final long nowSeconds;
    private final long copyBytes;
    private final boolean part;
    private final String groupToken;
    private final String described;

    /** A part's rows' rows in its parent batch (null: the same rows). */
    private final int[] parentRows;

    private Block block;
    private AbsentRows absent;

    /** The table of rows handed to the writer, or of a part: set once, before it is queued. */
    private InsertTarget target;

    private volatile Outcome outcome = Outcome.IN_FLIGHT;
    private volatile String failure;
    private volatile Throwable failureCause;

    /**
     * A batch of one partition.
     *
     * @param boundaries the range and shard the token is made of: the open batch's own, or the
     *     ledger entry it replays
     * @param replayed true when {@code boundaries} come from the ledger (already recorded)
     * @param nowSeconds the batch's {@code now()} in epoch seconds for DEFAULT and key expressions,
     *     one value per batch as the server takes one per block: the clock at sealing, or the
     *     recorded one of a replayed batch
     * @param epoch the assignment of its partition the batch was sealed in
     */
    public SealedBatch(
            BatchOwner owner,
            BatchBuilder open,
            LedgerEntry boundaries,
            boolean replayed,
            String token,
            SealReason reason,
            long nowSeconds,
            long epoch) {
        this(
                owner,
                List.of(new Segment(open, boundaries, epoch)),
                boundaries.shard(),
                replayed,
                token,
                reason,
                nowSeconds,
                null);
    }

    /**
     * A replayed member of a batch of several partitions, sent alone because its batch cannot be
     * re-created whole (another consumer owns a member now): before it is sent, the group's INSERTs
     * are looked up by {@code groupToken} on every replica of its shard, and it is not sent when
     * they were written (docs/adr/0011).
     *
     * @param boundaries the member's range; its recorded group entry when the range is exactly it
     * @param replayed true when {@code token} is the member's recorded range (an earlier run or
     *     owner may have sent the member alone already)
     * @param groupToken the deduplication token of the group's batch
     */
    public static SealedBatch memberAlone(
            BatchOwner owner,
            BatchBuilder open,
            LedgerEntry boundaries,
            boolean replayed,
            String token,
            String groupToken,
            SealReason reason,
            long nowSeconds,
            long epoch) {
        return new SealedBatch(
                owner,
                List.of(new Segment(open, boundaries, epoch)),
                boundaries.shard(),
                replayed,
                token,
                reason,
                nowSeconds,
                Objects.requireNonNull(groupToken, "groupToken"));
    }

    /** A batch of one or more partitions' segments, in the order their rows are sent. */
    public SealedBatch(
            BatchOwner owner,
            List<Segment> segments,
            int shard,
            boolean replayed,
            String token,
            SealReason reason,
            long nowSeconds) {
        this(owner, segments, shard, replayed, token, reason, nowSeconds, null);
    }

    private SealedBatch(
            BatchOwner owner,
            List<Segment> segments,
            int shard,
            boolean replayed,
            String token,
            SealReason reason,
            long nowSeconds,
            String groupToken) {
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a batch needs a segment");
        }
        this.owner = owner;
        this.segments = List.copyOf(segments);
        this.shard = shard;
        this.replayed = replayed;
        this.token = token;
        this.reason = reason;
        this.nowSeconds = nowSeconds;
        long sum = 0;
        for (Segment s : this.segments) {
            sum += s.builder().accountedBytes();
        }
        this.bytes = sum;
        long copy = 0;
        if (this.segments.size() > 1) {
            for (Segment s : this.segments) {
                copy += s.builder().dataBytes();
            }
        }
        this.copyBytes = copy;
        this.part = false;
        this.groupToken = groupToken;
        this.described = null;
        this.parentRows = null;
        if (this.segments.size() == 1) {
            this.block = segments.get(0).builder().block();
            this.absent = segments.get(0).builder().absentRows();
        }
    }

    /**
     * The rows of {@code parent} a sharding key sends to {@code shard}: its own block and marks,
     * the parent's segments and token with {@code /k<shard>} appended, settled through {@code
     * owner} (which settles the parent once every part is).
     *
     * @param parentRows each row's row in {@code parent}'s block; null when the part has all of the
     *     parent's rows in their order
     */
    SealedBatch(
            SealedBatch parent,
            BatchOwner owner,
            Block block,
            AbsentRows absent,
            int shard,
            long bytes,
            int[] parentRows) {
        this.owner = owner;
        this.segments = parent.segments;
        this.replayed = parent.replayed;
        this.token = parent.token + "/k" + shard;
        // The group's rows for this shard went in the group's part for it.
        this.groupToken = parent.groupToken == null ? null : parent.groupToken + "/k" + shard;
        this.reason = parent.reason;
        this.bytes = bytes;
        this.nowSeconds = parent.nowSeconds;
        this.copyBytes = 0;
        this.part = true;
        this.described = parent.described;
        this.parentRows = parentRows;
        this.block = block;
        this.absent = absent;
        this.shard = shard;
        this.target = parent.target();
    }

    /**
     * Rows handed to the writer as a block of their own ({@code dev.sluice.pipeline.writer}), not
     * read by a pipeline thread: no open batch or checkpoint stands behind them.
     *
     * @param described where the rows come from, for messages (e.g. {@code events-3 offsets
     *     100..199})
     * @param reason why the rows were sealed: {@link SealReason#SUBMIT} for a submitter's block
     * @param bytes bytes of the in-flight limit the block holds until settled
     * @param target the table the rows go to, as the writer knows it
     */
    public static SealedBatch submitted(
            BatchOwner owner,
            Block block,
            AbsentRows absent,
            String described,
            int shard,
            String token,
            boolean replayed,
            SealReason reason,
            long nowSeconds,
            long bytes,
            InsertTarget target) {
        SealedBatch b =
                new SealedBatch(
                        owner,
                        block,
                        absent,
                        described,
                        shard,
                        token,
                        replayed,
                        reason,
                        nowSeconds,
                        bytes);
        b.target = target;
        return b;
    }

    private SealedBatch(
            BatchOwner owner,
            Block block,
            AbsentRows absent,
            String described,
            int shard,
            String token,
            boolean replayed,
            SealReason reason,
            long nowSeconds,
            long bytes) {
        this.owner = owner;
        this.segments =
                List.of(new Segment(null, new LedgerEntry(described, 0, 0, shard, nowSeconds), 0));
        this.shard = shard;
        this.replayed = replayed;
        this.token = token;
        this.reason = reason;
        this.bytes = bytes;
        this.nowSeconds = nowSeconds;
        this.copyBytes = 0;
        this.part = true; // its rows are its block's
        this.groupToken = null;
        this.parentRows = null;
        this.described = described;
        this.block = block;
        this.absent = absent;
    }

    /** Where a row's record is: its partition and position there. */
    public record RowSource(String partition, long position) {}

    /**
     * Where the record of row {@code row} of {@link #block()} is: the segment holding it (rows
     * follow the segments' order) and its position there. For rows handed to the writer ({@link
     * #submitted}) no source stands behind them: the batch's description and the row's index in the
     * submitted block.
     */
    public RowSource source(int row) {
        int r = parentRows == null ? row : parentRows[row];
        if (described != null) {
            return new RowSource(described, r);
        }
        for (Segment s : segments) {
            int n = s.builder().rows();
            if (r < n) {
                return new RowSource(s.partition(), s.builder().position(r));
            }
            r -= n;
        }
        throw new IndexOutOfBoundsException("row " + row + " of a batch of " + rows() + " rows");
    }

    /**
     * The table the batch goes to: the writer's for rows handed to it, else the one its buffers
     * were made for (a pipeline thread's lane, {@link BlockPool#take(TargetColumns,
     * InsertTarget)}); null for the sink's only table, as its writer was opened with.
     */
    public InsertTarget target() {
        if (target != null) {
            return target;
        }
        BatchBuilder open = segments.get(0).builder();
        return open == null ? null : open.buffers().target();
    }

    /** The partitions' rows, in the order they are sent. */
    public List<Segment> segments() {
        return segments;
    }

    /** The (first) partition, for messages. */
    public String partition() {
        return segments.get(0).partition();
    }

    public long firstPosition() {
        return segments.get(0).bounds().first();
    }

    public long lastPosition() {
        return segments.get(0).bounds().last();
    }

    /**
     * Where the batch's records are: {@code partition positions first..last}, for each partition.
     */
    public String describeRange() {
        if (described != null) {
            return described;
        }
        StringBuilder sb = new StringBuilder();
        for (Segment s : segments) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(s.partition())
                    .append(" positions ")
                    .append(s.bounds().first())
                    .append("..")
                    .append(s.bounds().last());
        }
        return sb.toString();
    }

    public int rows() {
        if (part) {
            return block.rows(); // a part's own copy
        }
        int n = 0;
        for (Segment s : segments) {
            n += s.builder().rows();
        }
        return n;
    }

    /** Bytes counted against the in-flight budget by its buffers (or a part's own copy). */
    public long bytes() {
        return bytes;
    }

    /** The shard it is sent to. */
    public int shard() {
        return shard;
    }

    /** The recorded boundaries of its (first) segment. */
    public LedgerEntry boundaries() {
        return segments.get(0).bounds();
    }

    /** True when the boundaries come from the ledger of a previous run (already recorded). */
    public boolean replayed() {
        return replayed;
    }

    public String token() {
        return token;
    }

    /**
     * For a replayed member of a batch of several partitions sent alone ({@link #memberAlone}): the
     * group batch's token, whose INSERTs are looked up before this batch is sent; null otherwise.
     */
    public String groupToken() {
        return groupToken;
    }

    /** True when the batch gathers rows of several partitions (its INSERTs are looked up by it). */
    public boolean gathersPartitions() {
        return segments.size() > 1;
    }

    public SealReason reason() {
        return reason;
    }

    /**
     * The batch's rows, every column the pipeline writes (absent fields as placeholders). A batch
     * of several partitions is copied into one block the first time it is asked for (by its
     * writer), segment after segment.
     */
    public synchronized Block block() {
        if (block == null) {
            concatenate();
        }
        return block;
    }

    /** Which rows of {@link #block()} lack which column. */
    public synchronized AbsentRows absentRows() {
        if (absent == null) {
            concatenate();
        }
        return absent;
    }

    /**
     * Bytes of the one block a batch of several partitions is copied into (0 for one): counted
     * against the budget from sealing to settling.
     */
    public long copyBytes() {
        return copyBytes;
    }

    private void concatenate() {
        Block first = segments.get(0).builder().block();
        List<String> names = new ArrayList<>(first.columnCount());
        for (Column c : first.columns()) {
            names.add(c.name());
        }
        Block to = Block.forHeader(names, first.typeNames());
        // Sized once for every segment: grown segment by segment, the copy allocated about 2.5
        // times its size and copied most of it twice more (the Kafka path's costliest step).
        int total = 0;
        for (Segment s : segments) {
            total += s.builder().block().rows();
        }
        for (int c = 0; c < first.columnCount(); c++) {
            long bytes = 0;
            for (Segment s : segments) {
                bytes += s.builder().block().column(c).dataBytes();
            }
            to.column(c).reserveMore(total, bytes);
        }
        AbsentRows marks = new AbsentRows(first.columnCount());
        int at = 0;
        for (Segment s : segments) {
            Block from = s.builder().block();
            int rows = from.rows();
            for (int c = 0; c < from.columnCount(); c++) {
                to.column(c).appendAll(from.column(c));
            }
            AbsentRows a = s.builder().absentRows();
            for (int c = 0; c < a.columns(); c++) {
                if (!a.anyAbsent(c)) {
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    if (a.isAbsent(c, r)) {
                        marks.markAbsent(c, at + r);
                    }
                }
            }
            at += rows;
        }
        block = to;
        absent = marks;
    }

    /** The block and marks of a batch of one partition, for its thread's pool when settled. */
    public PooledBlock buffers() {
        return segments.get(0).builder().buffers();
    }

    /** The batch's {@code now()}, in epoch seconds (taken when it was sealed). */
    public long nowSeconds() {
        return nowSeconds;
    }

    /** The pending entry of its (first) segment's tracker. */
    public CheckpointTracker.Pending pending() {
        return segments.get(0).pending();
    }

    /** The assignment its (first) segment's partition was sealed in. */
    public long epoch() {
        return segments.get(0).epoch();
    }

    /** When the first record of any of its segments was read. */
    public long firstReadNanos() {
        long first = Long.MAX_VALUE;
        for (Segment s : segments) {
            first = Math.min(first, s.builder().firstReadNanos());
        }
        return first;
    }

    public Outcome outcome() {
        return outcome;
    }

    /**
     * Why the batch failed for good, as its writer reported it (the message names the shard, the
     * rows and the server's error); set before it is settled {@link Outcome#ABANDONED}, null when
     * it was abandoned without failing (a stop) or written.
     */
    public String failure() {
        return failure;
    }

    /** The error behind {@link #failure()}, or null. */
    public Throwable failureCause() {
        return failureCause;
    }

    /** Records why the batch failed for good; the first reason counts. */
    public void fail(String message, Throwable cause) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failureCause = cause;
            failure = message;
        }
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
        return "batch " + describeRange() + " " + rows() + " rows → shard " + shard;
    }
}
