package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.ReplayPlan;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.sink.Batch;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.DedupToken;
import dev.sluice.pipeline.sink.OpenBatch;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.transform.ExpressionStage;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.TransformChain;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One pipeline thread: polls its source, decodes and transforms records straight into the open
 * batch of their partition, seals batches, records their boundaries with the source and hands them
 * to the sink, takes back settled batches and commits what its trackers allow.
 *
 * <p>{@link #runOnce()} is one turn of the loop and returns how long the thread may park before the
 * next (like Kafka's {@code Sender.runOnce}); tests drive it with a manual clock instead of
 * sleeping. The thread never blocks on the sink: sealed batches go to an unbounded queue and the
 * budget pauses the source instead (property 3) — paused, not forgotten: the loop keeps calling
 * {@link Source#idle}, so a Kafka consumer stays in its group however long ClickHouse stalls, and
 * keeps taking back settled batches, which writers hand over without waiting (property 5).
 *
 * <p>Partitions come and go through the {@link PartitionListener} the source calls from inside
 * {@code poll}/{@code idle}: an assigned partition starts at its checkpoint; a revoked one has its
 * open batch sealed, its batches awaited (bounded), its position committed, and is forgotten.
 */
final class PipelineThread implements PartitionListener, Runnable {
    static final int POLL_RECORDS = 4096;
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The longest a paused thread waits in {@link Source#idle} at a time. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * Sealed batches of one partition not yet behind its committed position, at most: their
     * boundaries travel with every commit (Kafka keeps them in the offset's metadata, 4 KiB by
     * default), so a partition with this many takes no more records until acknowledgements come
     * back and a commit drops them.
     */
    static final int MAX_IN_FLIGHT_PER_PARTITION = 64;

    /**
     * Rows staged for the expression transforms at most before they run over them (ADR 0010):
     * enough for column-wise evaluation to pay, few enough that the computed columns' growth
     * between two budget checks stays small.
     */
    static final int STAGED_ROWS = 1024;

    private enum State {
        /** Reading. */
        RUNNING,
        /** The source ended, or the pipeline drains: everything is sealed; waiting for acks. */
        FINISHING,
        /** Open batches were abandoned; waiting for the sealed ones to settle. */
        STOPPING,
        DONE
    }

    private final SharedParts parts;
    private final Source source;
    private final Decoder decoder;
    private final TransformChain chain;

    /** The expression transforms evaluated column-wise over staged rows, or null (ADR 0010). */
    private final ExpressionStage stage;

    private final BlockPool blocks;
    private final BudgetAccount account;
    private final SettledInbox inbox;
    private final CommitCoordinator commits;
    private final BatchHandoff handoff;

    private final RecordBatch records = new RecordBatch();
    private final Map<String, PartitionState> partitions = new LinkedHashMap<>();

    private PartitionState current;
    private final boolean combine;

    /** Rows and data bytes of the open batches a round would gather (not replays). */
    private int roundRows;

    private long roundBytes;

    /** The {@code now()} of the batches of the round being gathered (not replays), or -1. */
    private long roundNowSeconds = -1;

    /**
     * Where the current partition's records are consumed to once its staged rows are flushed, or
     * -1: a position never moves past a staged row (property 1).
     */
    private long consumedAfterFlush = -1;

    private boolean opened;
    private volatile boolean readToTheEnd;
    private long epochs;
    private int cursor;
    private boolean haveRecords;
    private long readNanos;
    private State state = State.RUNNING;
    private boolean sourceExhausted;
    private boolean sourcePaused;
    private volatile int pendingBatches;
    private volatile long oldestPendingNanos = Long.MAX_VALUE;
    private volatile int ownedPartitions;

    PipelineThread(
            SharedParts parts,
            Source source,
            Decoder decoder,
            List<Transform> transforms,
            BlockPool blocks) {
        this.parts = parts;
        this.source = source;
        this.decoder = decoder;
        this.chain = TransformChain.of(transforms);
        this.stage = chain.stage();
        this.blocks = blocks;
        this.account = new BudgetAccount(parts.budget(), parts.budgetGrain(), blocks);
        this.inbox = new SettledInbox(parts.metrics(), parts.clock());
        this.combine = source.partitionsInterleave();
        this.commits = new CommitCoordinator(parts, source, partitions, parts.clock().nanoTime());
        this.handoff = new BatchHandoff(parts, source, partitions, commits, inbox, account, blocks);
    }

    @Override
    public void run() {
        Thread thread = Thread.currentThread();
        inbox.wakes(thread);
        parts.budget().wakeOnResume(thread);
        try {
            while (state != State.DONE) {
                long wait;
                try {
                    wait = runOnce();
                } catch (RuntimeException | Error e) {
                    if (state == State.STOPPING) {
                        throw e; // stopping failed too: give up on this thread
                    }
                    parts.lifecycle().fail(new Failure("internal error: " + e, null, null), true);
                    wait = 0;
                }
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                }
            }
        } finally {
            parts.budget().forget(thread);
            closeSource();
        }
    }

    private void closeSource() {
        try {
            source.close();
        } catch (IOException e) {
            // Positions are committed already; a source that fails to close loses nothing.
        }
    }

    /** One turn of the loop; returns the nanoseconds the thread may park before the next. */
    long runOnce() {
        long now = parts.clock().nanoTime();
        if (!opened) {
            opened = true;
            try {
                source.open(this);
            } catch (IOException e) {
                sourceFailed("opening", e);
            }
        }
        handoff.takeSettled();
        Lifecycle.Mode mode = parts.lifecycle().mode();
        if (mode == Lifecycle.Mode.STOP && (state == State.RUNNING || state == State.FINISHING)) {
            abandonOpenBatches();
        } else if (mode == Lifecycle.Mode.DRAIN && state == State.RUNNING) {
            finish(SealReason.DRAIN, now);
        }
        long wait = MAX_WAIT_NANOS;
        if (state == State.RUNNING) {
            wait = read(now);
        } else if (state != State.DONE && handoff.inFlight() > 0) {
            // Waiting for acknowledgements: a source that must be polled to keep its partitions
            // (Kafka) is kept alive, paused, through a long drain.
            idle(IDLE_NANOS);
        }
        handoff.submitSealed();
        if ((state == State.FINISHING || state == State.STOPPING) && handoff.inFlight() == 0) {
            commit();
            account.close();
            account.dropPooled();
            state = State.DONE;
            publish();
            return 0;
        }
        if (commits.due(now)) {
            commit();
            commits.reschedule(now);
        }
        publish();
        return Math.max(0, Math.min(wait, commits.untilDue(now)));
    }

    /** The RUNNING turn: linger, backpressure, poll, process. Returns the time it may park. */
    private long read(long now) {
        long wait = sealLingering(now);
        boolean budgetPaused = account.paused();
        boolean partitionFull = haveRecords && current != null && atCeiling(current);
        if (budgetPaused || partitionFull) {
            if (budgetPaused) {
                account.dropPooled(); // pooled capacity first
            }
            if (!sourcePaused) {
                source.pause();
                sourcePaused = true;
            }
            if (budgetPaused && parts.sink().inFlight() == 0 && !handoff.hasUnrecorded()) {
                // Everything in flight is open batches: nothing will release the budget unless
                // they are sealed and sent.
                sealAll(SealReason.BACKPRESSURE, now);
            }
            if (partitionFull) {
                commit(); // acknowledged batches leave the partition's in-flight list only here
            }
            idle(Math.min(wait, IDLE_NANOS));
            return wait;
        }
        if (sourcePaused) {
            source.resume();
            sourcePaused = false;
        }
        if (!haveRecords && !sourceExhausted) {
            try {
                poll(Math.max(0, Math.min(wait, commits.untilDue(now))));
            } catch (IOException e) {
                sourceFailed("reading from", e);
                return 0;
            }
        }
        if (haveRecords && state == State.RUNNING) {
            process(parts.clock().nanoTime());
        }
        if (sourceExhausted && !haveRecords && state == State.RUNNING) {
            finish(SealReason.PARTITION_END, now);
        }
        return 0; // poll waits for data itself
    }

    /** Keeps a paused source alive; partition changes may arrive from here. */
    private void idle(long waitNanos) {
        try {
            source.idle(waitNanos);
        } catch (IOException e) {
            sourceFailed("polling", e);
        }
    }

    private void sourceFailed(String what, IOException e) {
        parts.lifecycle()
                .fail(new Failure(what + " " + source.name() + " failed: " + e, null, null), false);
    }

    private void poll(long waitNanos) throws IOException {
        int n = source.poll(records, POLL_RECORDS, waitNanos);
        if (n < 0) {
            sourceExhausted = true;
            return;
        }
        if (n == 0 && !records.partitionEnd) {
            return;
        }
        PartitionState part = partitions.get(records.partition);
        if (part == null) {
            parts.lifecycle()
                    .fail(
                            new Failure(
                                    source.name()
                                            + " delivered records of partition "
                                            + records.partition
                                            + ", which it does not own (a bug in the source)",
                                    null,
                                    null),
                            false);
            return;
        }
        readNanos = parts.clock().nanoTime();
        parts.metrics().sourceRecords.inc(n);
        cursor = 0;
        haveRecords = true;
        current = part;
        if (n > 0) {
            // Whatever precedes the first record is not a record: the source resumed here.
            current.tracker.consumed(records.position[0]);
        }
    }

    // --- partitions come and go (called by the source from inside poll or idle) -------------

    @Override
    public void assigned(String partition, Checkpoint checkpoint) {
        if (partitions.containsKey(partition)) {
            return; // still ours: nothing moved
        }
        // A source that cannot read again never resumes nor replays (a stale plan would re-seal
        // new records at old boundaries under old tokens, and a deduplicating server would drop
        // them).
        Checkpoint cp = source.replayable() ? checkpoint : Checkpoint.NONE;
        PartitionState p = new PartitionState(partition, ++epochs, cp, parts.run());
        partitions.put(partition, p);
        commits.assigned(partition, cp.position());
        parts.metrics().partitionsAssigned.inc();
    }

    @Override
    public void revoking(Collection<String> names) {
        List<PartitionState> going = owned(names);
        if (going.isEmpty()) {
            return;
        }
        long now = parts.clock().nanoTime();
        if (combine) {
            sealRound(SealReason.REVOKE, now, going::contains);
        } else {
            for (PartitionState p : going) {
                seal(p, SealReason.REVOKE, now);
            }
        }
        handoff.submitSealed();
        long deadline = parts.clock().nanoTime() + parts.revokeTimeoutNanos();
        while (pendingIn(going) && parts.clock().nanoTime() - deadline < 0) {
            try {
                parts.clock().sleep(TimeUnit.MILLISECONDS.toNanos(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            handoff.takeSettled();
        }
        if (pendingIn(going)) {
            parts.metrics().revokeTimeouts.inc();
        }
        commits.commit(going);
        forget(going);
    }

    @Override
    public void lost(Collection<String> names) {
        forget(owned(names));
    }

    @Override
    public void warning(String message) {
        parts.warnings().accept(message);
    }

    private List<PartitionState> owned(Collection<String> names) {
        List<PartitionState> mine = new ArrayList<>();
        for (String name : names) {
            PartitionState p = partitions.get(name);
            if (p != null) {
                mine.add(p);
            }
        }
        return mine;
    }

    private static boolean pendingIn(List<PartitionState> ps) {
        for (PartitionState p : ps) {
            if (p.tracker.pendingBatches() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Drops partitions this thread no longer owns: an open batch is abandoned (its records are the
     * next owner's to read), records of them not yet processed are dropped, and acknowledgements
     * still to come are ignored (their batch's epoch is gone).
     */
    private void forget(List<PartitionState> ps) {
        for (PartitionState p : ps) {
            partitions.remove(p.name);
            commits.forget(p.name);
            if (p.open != null) {
                if (p.open.pinned() == null) {
                    roundRows -= p.open.rows();
                    roundBytes -= p.open.dataBytes();
                }
                blocks.give(p.open.buffers()); // with the budget bytes it holds
                p.open = null;
            }
            if (p.ready != null) {
                blocks.give(p.ready.buffers());
                p.ready = null;
            }
            if (current == p) {
                haveRecords = false;
                current = null;
            }
            parts.metrics().partitionsRevoked.inc();
        }
        // A replayed group waiting for a partition that is gone can no longer be whole.
        for (PartitionState p : List.copyOf(partitions.values())) {
            if (p.ready != null) {
                trySealGroup(p.ready.pinned().group(), parts.clock().nanoTime());
            }
        }
    }

    // --- records become rows -------------------------------------------------------------------

    /** Processes the polled records from the cursor, until done, paused or stopped. */
    private void process(long nowNanos) {
        RecordBatch rb = records;
        PartitionState part = current;
        if (cursor == 0 && rb.partitionStart && rb.count > 0 && decoder.expectsHeader()) {
            if (!readHeader(rb)) {
                return;
            }
            part.tracker.consumed(next(rb, 0));
            cursor = 1;
        }
        while (cursor < rb.count) {
            if (account.paused()
                    || parts.lifecycle().mode() != Lifecycle.Mode.RUN
                    || atCeiling(part)) {
                // The rest waits in `records` (property 3: one record over at most); the staged
                // rows are flushed first: they never outlive this call, nor `records`.
                flushStaged(part, nowNanos);
                return;
            }
            boolean handled =
                    rb.errors > 0 && rb.error[cursor] != null
                            ? reject(rb, cursor, rb.error[cursor]) // the source could not read it
                            : processRecord(part, rb, cursor, nowNanos);
            if (!handled) {
                flushStaged(part, nowNanos); // rows staged before it (the pipeline stops)
                return;
            }
            if (part.open != null && part.open.staged() > 0) {
                consumedAfterFlush = next(rb, cursor);
            } else {
                part.tracker.consumed(next(rb, cursor));
            }
            cursor++;
        }
        haveRecords = false;
        if (!flushStagedAndSeal(part, nowNanos)) {
            return;
        }
        if (rb.partitionEnd) {
            part.tracker.consumed(rb.endPosition);
            part.ended = true;
            if (seal(part, SealReason.PARTITION_END, nowNanos)) {
                dropEmptyBatch(part);
            }
        }
    }

    private static boolean atCeiling(PartitionState p) {
        return p.inFlightBatches() >= MAX_IN_FLIGHT_PER_PARTITION;
    }

    /** Reads a partition's header record; false when the pipeline must stop instead. */
    private boolean readHeader(RecordBatch rb) {
        if (rb.errors > 0 && rb.error[0] != null) {
            return reject(rb, 0, rb.error[0]);
        }
        try {
            decoder.header(rb, 0);
            return true;
        } catch (RecordException e) {
            return reject(rb, 0, e.getMessage());
        }
    }

    private static long next(RecordBatch rb, int i) {
        return i + 1 < rb.count ? rb.position[i + 1] : rb.endPosition;
    }

    /** Appends record {@code i} as a row; false when the pipeline must stop instead. */
    private boolean processRecord(PartitionState part, RecordBatch rb, int i, long nowNanos) {
        long position = rb.position[i];
        OpenBatch batch = batchFor(part, position, nowNanos);
        if (batch == null) {
            return false;
        }
        if (batch.isEmpty()) {
            batch.nowSeconds(nowFor(part, batch, position, nowNanos), nowNanos);
        }
        batch.beginRow();
        try {
            decoder.decode(rb, i, batch);
            if (!chain.applyRow(batch, rb, i, batch.nowSeconds())) {
                batch.rollbackRow();
                parts.metrics().filtered.inc();
                return true;
            }
        } catch (RecordException | ColumnValueException e) {
            batch.rollbackRow();
            return reject(rb, i, e.getMessage());
        } catch (DecoderUnavailableException e) {
            // Not the record's fault (a schema registry is down): stop before it, unconsumed.
            batch.rollbackRow();
            parts.lifecycle()
                    .fail(new Failure(e.getMessage(), rb.partition, rb.describe(i)), false);
            return false;
        } catch (RuntimeException e) {
            batch.rollbackRow();
            parts.lifecycle()
                    .fail(
                            new Failure(
                                    "the decoder or a transform failed (a bug in it): " + e,
                                    rb.partition,
                                    rb.describe(i)),
                            false);
            return false;
        }
        if (stage != null) {
            return stageRow(part, batch, position, i, nowNanos);
        }
        if (batch.commitRow(position)) {
            batch.pending(part.tracker.open(position, nowNanos), readNanos);
        }
        long dataBefore = batch.dataBytes();
        account.charge(batch);
        if (combine && batch.pinned() == null) {
            roundRows++;
            roundBytes += batch.dataBytes() - dataBefore;
        }
        return sealIfDue(part, batch, nowNanos);
    }

    /**
     * After rows were committed: seals the batch at the end of the ledger entry it re-creates, or
     * once it (or the round) is full. False when the pipeline must stop instead.
     */
    private boolean sealIfDue(PartitionState part, OpenBatch batch, long nowNanos) {
        LedgerEntry pinned = batch.pinned();
        if (pinned != null) {
            if (!batch.isEmpty() && batch.lastPosition() >= pinned.last()) {
                if (pinned.group() != null && !pinned.sentAlone()) {
                    readyForGroup(part, nowNanos);
                } else {
                    return seal(part, SealReason.REPLAY, nowNanos);
                }
            }
        } else if (combine) {
            SealReason bySize = parts.seal().bySize(roundRows, roundBytes);
            if (bySize != null) {
                return sealRound(bySize, nowNanos, p -> true);
            }
        } else {
            SealReason bySize = parts.seal().bySize(batch.rows(), batch.dataBytes());
            if (bySize != null) {
                return seal(part, bySize, nowNanos);
            }
        }
        return true;
    }

    /**
     * Stages a complete row for the expression transforms; they run over the staged rows when
     * enough are staged, before the batch could be sealed by size or at its replay end, and when
     * the polled records are done (ADR 0010). Staged rows count toward the batch's size.
     */
    private boolean stageRow(
            PartitionState part, OpenBatch batch, long position, int record, long nowNanos) {
        batch.stageRow(position, record);
        long dataBefore = batch.dataBytes();
        account.charge(batch);
        LedgerEntry pinned = batch.pinned();
        if (combine && pinned == null) {
            roundRows++;
            roundBytes += batch.dataBytes() - dataBefore;
        }
        boolean due =
                batch.staged() >= STAGED_ROWS
                        || (pinned != null && position >= pinned.last())
                        || (pinned == null
                                && (combine
                                                ? parts.seal().bySize(roundRows, roundBytes)
                                                : parts.seal()
                                                        .bySize(
                                                                batch.rows() + batch.staged(),
                                                                batch.dataBytes()))
                                        != null);
        return !due || flushStagedAndSeal(part, nowNanos);
    }

    /** {@link #flushStaged}, then the seals the committed rows call for. */
    private boolean flushStagedAndSeal(PartitionState part, long nowNanos) {
        OpenBatch batch = part.open;
        if (batch == null || batch.staged() == 0) {
            return true;
        }
        return flushStaged(part, nowNanos) && sealIfDue(part, part.open, nowNanos);
    }

    /**
     * Runs the expression transforms over the staged rows of {@code part}'s open batch, column-wise
     * (ADR 0010), commits the rows they keep, counts those they filter and applies the error policy
     * to those they refuse, in record order. Only while the polled records of the staged rows are
     * at hand (within {@link #process}). False when the pipeline must stop at a refused row: rows
     * from it on are neither committed nor consumed, and are read again (property 1).
     */
    private boolean flushStaged(PartitionState part, long nowNanos) {
        OpenBatch batch = part == null ? null : part.open;
        if (batch == null || batch.staged() == 0) {
            return true;
        }
        int staged = batch.staged();
        ExpressionStage.Outcome out;
        try {
            out =
                    stage.run(
                            batch.block(),
                            batch.rows(),
                            staged,
                            records,
                            batch.stagedRecords(),
                            batch.nowSeconds());
        } catch (RuntimeException e) {
            batch.clearStaged();
            consumedAfterFlush = -1;
            parts.lifecycle()
                    .fail(
                            new Failure(
                                    "an expression transform failed (a bug in it): " + e,
                                    part.name,
                                    null),
                            false);
            return false;
        }
        int stopAt = staged;
        for (int r = 0; r < out.rejected(); r++) {
            int j = out.rejectedStaged(r);
            if (!reject(records, batch.stagedRecords()[j], out.error(r).getMessage())) {
                stopAt = j;
                break;
            }
        }
        long stopPosition = stopAt < staged ? batch.stagedPosition(stopAt) : -1;
        boolean first = false;
        int committed = 0;
        for (int i = 0; i < out.kept() && out.keptStaged(i) < stopAt; i++) {
            first |= batch.commitStaged(out.keptStaged(i));
            committed++;
        }
        batch.clearStaged();
        if (first) {
            batch.pending(part.tracker.open(batch.firstPosition(), nowNanos), readNanos);
        }
        long dataBefore = batch.dataBytes();
        account.charge(batch);
        if (combine && batch.pinned() == null) {
            roundRows -= staged - committed;
            roundBytes += batch.dataBytes() - dataBefore;
        }
        if (stopPosition >= 0) {
            part.tracker.consumed(stopPosition);
            consumedAfterFlush = -1;
            return false;
        }
        parts.metrics().filtered.inc(out.filtered());
        if (consumedAfterFlush >= 0) {
            part.tracker.consumed(consumedAfterFlush);
            consumedAfterFlush = -1;
        }
        return true;
    }

    /**
     * The {@code now()} of a batch that has no row yet, decided again at each record until it has
     * one: the recorded one for a replay; for a record between two recorded batches of a replay,
     * the next one's (the original run evaluated it in that batch's context, unless it waited there
     * longer than the linger); the one the batch already has if younger than the linger (its
     * records were all dropped); else the round's for a batch of several partitions, else the
     * clock's. One reading per batch, as the server takes one per block (property 2: a replay
     * computes what the original did).
     */
    private long nowFor(PartitionState part, OpenBatch batch, long position, long nowNanos) {
        LedgerEntry pinned = batch.pinned();
        if (pinned != null && pinned.nowSeconds() >= 0) {
            return pinned.nowSeconds();
        }
        if (pinned == null && part.replay != null) {
            LedgerEntry next = part.replay.at(position);
            if (next != null && next.nowSeconds() >= 0) {
                return next.nowSeconds();
            }
        }
        if (batch.nowSeconds() >= 0
                && nowNanos - parts.seal().lingerDeadline(batch.nowTakenNanos()) < 0) {
            return batch.nowSeconds();
        }
        long clock = Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
        if (!combine || pinned != null) {
            return clock;
        }
        if (roundRows == 0 || roundNowSeconds < 0) {
            roundNowSeconds = clock; // a new round
        }
        return roundNowSeconds;
    }

    /**
     * The open batch a record at {@code position} goes to. During a replay, the current batch is
     * sealed first when the record lies beyond the ledger entry it re-creates, or when it enters an
     * entry the batch is not re-creating; an empty batch is pinned to the entry holding the record.
     */
    private OpenBatch batchFor(PartitionState part, long position, long nowNanos) {
        ReplayPlan plan = part.replay;
        LedgerEntry entry = plan == null ? null : plan.at(position);
        OpenBatch open = part.open;
        if (plan != null && open != null && !open.isEmpty()) {
            LedgerEntry pinned = open.pinned();
            boolean boundary =
                    pinned != null
                            ? position > pinned.last()
                            : entry != null && position >= entry.first();
            if (boundary && !seal(part, SealReason.REPLAY, nowNanos)) {
                return null;
            }
        }
        if (part.open == null) {
            part.open = new OpenBatch(part.name, blocks.take());
        }
        open = part.open;
        if (plan != null && open.isEmpty()) {
            open.pin(entry != null && entry.covers(position) ? entry : null);
        }
        return open;
    }

    /** Applies the error policy; false when the pipeline must stop. */
    private boolean reject(RecordBatch rb, int i, String reason) {
        String stop;
        try {
            stop = parts.errors().reject(rb, i, reason);
        } catch (IOException e) {
            stop = "cannot write the dead-letter file (" + e.getMessage() + ") for: " + reason;
        }
        if (stop != null) {
            parts.lifecycle().fail(new Failure(stop, rb.partition, rb.describe(i)), false);
            return false;
        }
        return true;
    }

    // --- sealing, recording, sending ----------------------------------------------------------

    /**
     * Seals the open batch of {@code part}; it is sent at the end of the turn, once its boundaries
     * are committed with the source ({@link BatchHandoff#submitSealed}). True when the batch was
     * sealed or there was nothing to seal, false when the pipeline stops instead.
     */
    private boolean seal(PartitionState part, SealReason reason, long nowNanos) {
        if (!flushStaged(part, nowNanos)) {
            return false; // staged rows exist only within process(), where records are at hand
        }
        OpenBatch open = part.open;
        if (open == null || open.isEmpty()) {
            return true;
        }
        if (parts.lifecycle().mode() == Lifecycle.Mode.STOP) {
            return false; // seal nothing further: the open batch will be abandoned
        }
        String problem = misaligned(open);
        if (problem != null) {
            parts.lifecycle()
                    .fail(
                            new Failure(
                                    problem
                                            + " (batch of "
                                            + part.name
                                            + " from position "
                                            + open.firstPosition()
                                            + ")",
                                    part.name,
                                    null),
                            false);
            return false;
        }
        LedgerEntry pinned = open.pinned();
        if (pinned != null
                && open.lastPosition() < pinned.last()
                && (reason == SealReason.DRAIN || reason == SealReason.REVOKE)) {
            // A replayed batch cut short by a drain or a revocation is not sent at all: sent, it
            // would need a token of its own and write again rows the server may hold under the
            // recorded one. Its records hold the commit back; the next run (or owner) replays the
            // recorded batch whole.
            blocks.give(open.buffers()); // with the budget bytes it holds
            part.open = null;
            parts.metrics().abandonedBatches.inc();
            return true;
        }
        if (pinned != null && pinned.group() != null) {
            return sealMember(part, open, pinned, reason);
        }
        // The recorded token only for a batch that is exactly the recorded one: a batch sealed
        // early must not claim the rest of the range, nor may the rest of a range sealed early
        // claim the whole — a server holding that token would drop the rows it lacks (ADR 0005).
        boolean replayed =
                pinned != null
                        && open.firstPosition() == pinned.first()
                        && open.lastPosition() == pinned.last()
                        && pinned.shard() < parts.router().shards();
        LedgerEntry bounds;
        if (replayed) {
            bounds = pinned;
        } else {
            // The batch's now() for transforms, DEFAULTs and keys: one reading per batch, when
            // its first row was decoded, as the server takes one per block — recorded, so that a
            // replay uses it again.
            long nowSeconds = batchNow(open);
            bounds =
                    new LedgerEntry(
                            part.name,
                            open.firstPosition(),
                            open.lastPosition(),
                            parts.router().shardFor(part.name, open.firstPosition()),
                            nowSeconds);
            part.sealed(bounds);
        }
        String token =
                DedupToken.of(
                        parts.pipeline(),
                        part.run,
                        source.name(),
                        part.name,
                        bounds.first(),
                        bounds.last(),
                        bounds.shard());
        long nowSeconds =
                bounds.nowSeconds() >= 0
                        ? bounds.nowSeconds()
                        : Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
        Batch batch =
                new Batch(inbox, open, bounds, replayed, token, reason, nowSeconds, part.epoch);
        if (combine && pinned == null) {
            roundRows -= open.rows();
            roundBytes -= open.dataBytes();
        }
        part.open = null;
        handoff.sealed(batch);
        return true;
    }

    /**
     * Seals a replayed member of a batch of several partitions on its own: its batch cannot be
     * re-created whole here (another consumer owns a member, or the range was cut short). The
     * group's INSERTs may be in the table already, and a server that deduplicates would not know
     * this member's rows among them; so the batch carries the group's token, and its writer looks
     * the group up on every replica of the group's shard before sending it (docs/adr/0011): written
     * — not sent again. It goes to the group's shard, with the group's {@code now()}, under a token
     * of its range, and is recorded again with the group marked "sent alone" ({@link
     * LedgerEntry#alone}): a later replay looks the group up and sends the member alone again, but
     * never waits for it nor re-creates the group whole (that would write again the rows of members
     * already sent alone).
     */
    private boolean sealMember(
            PartitionState part, OpenBatch open, LedgerEntry pinned, SealReason reason) {
        boolean sameShards = pinned.shard() < parts.router().shards();
        boolean whole =
                sameShards
                        && open.firstPosition() == pinned.first()
                        && open.lastPosition() == pinned.last();
        long nowSeconds =
                pinned.nowSeconds() >= 0
                        ? pinned.nowSeconds()
                        : Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
        LedgerEntry bounds;
        if (whole) {
            bounds = pinned.alone(); // marked: never waited for nor re-created whole again
        } else {
            int shard =
                    sameShards
                            ? pinned.shard()
                            : parts.router().shardFor(part.name, open.firstPosition());
            bounds =
                    new LedgerEntry(
                                    part.name,
                                    open.firstPosition(),
                                    open.lastPosition(),
                                    shard,
                                    nowSeconds,
                                    pinned.group())
                            .alone();
        }
        if (bounds != pinned) {
            part.sealed(bounds);
        }
        String token =
                DedupToken.of(
                        parts.pipeline(),
                        part.run,
                        source.name(),
                        part.name,
                        bounds.first(),
                        bounds.last(),
                        bounds.shard());
        String groupToken =
                DedupToken.group(
                        parts.pipeline(),
                        pinned.groupRun() != null ? pinned.groupRun() : part.run,
                        source.name(),
                        pinned.baseGroup(),
                        pinned.shard());
        part.open = null;
        handoff.sealed(
                Batch.memberAlone(
                        inbox,
                        open,
                        bounds,
                        whole,
                        token,
                        groupToken,
                        reason,
                        nowSeconds,
                        part.epoch));
        return true;
    }

    /**
     * Seals, as one batch, the open batches of the partitions {@code which} selects (not replays):
     * a source whose partitions are read side by side gets few INSERTs however many partitions it
     * has. A single one is sealed as a batch of its own.
     */
    private boolean sealRound(
            SealReason reason, long nowNanos, java.util.function.Predicate<PartitionState> which) {
        if (current != null && !flushStaged(current, nowNanos)) {
            return false; // only the partition being processed can have staged rows
        }
        List<PartitionState> members = new ArrayList<>();
        for (PartitionState p : partitions.values()) {
            if (p.open != null && !p.open.isEmpty() && p.open.pinned() == null && which.test(p)) {
                members.add(p);
            }
        }
        if (members.isEmpty()) {
            return true;
        }
        if (members.size() == 1) {
            return seal(members.get(0), reason, nowNanos);
        }
        return sealCombined(members, reason);
    }

    /**
     * The open batches of {@code members} as one batch: their rows in partition-name order, each
     * partition's range recorded with the group ({@code <hash>.<members>} of all ranges) so that a
     * replay re-creates the same batch, and a token of the group (property 2).
     */
    private boolean sealCombined(List<PartitionState> members, SealReason reason) {
        if (parts.lifecycle().mode() == Lifecycle.Mode.STOP) {
            return false;
        }
        for (PartitionState m : members) {
            String problem = misaligned(m.open);
            if (problem != null) {
                parts.lifecycle()
                        .fail(
                                new Failure(problem + " (batch of " + m.name + ")", m.name, null),
                                false);
                return false;
            }
        }
        members.sort((a, b) -> a.name.compareTo(b.name));
        // The round's now(); each member records its own (the same unless it was opened in an
        // earlier round), and a replay of the group takes the first member's, as here.
        long nowSeconds = batchNow(members.get(0).open);
        List<LedgerEntry> ranges = new ArrayList<>();
        for (PartitionState m : members) {
            ranges.add(new LedgerEntry(m.name, m.open.firstPosition(), m.open.lastPosition(), 0));
        }
        String group = DedupToken.groupOf(ranges);
        int shard = parts.router().shardFor("g" + group, 0);
        // The token's run goes with the group: a member replayed alone by an owner whose partition
        // carries another run looks the group up under this one (docs/adr/0011).
        String run = members.get(0).run;
        String recorded = LedgerEntry.groupWithRun(group, run);
        List<Batch.Segment> segments = new ArrayList<>();
        for (PartitionState m : members) {
            LedgerEntry bounds =
                    new LedgerEntry(
                            m.name,
                            m.open.firstPosition(),
                            m.open.lastPosition(),
                            shard,
                            batchNow(m.open),
                            recorded);
            m.sealed(bounds);
            segments.add(new Batch.Segment(m.open, bounds, m.epoch));
            roundRows -= m.open.rows();
            roundBytes -= m.open.dataBytes();
            m.open = null;
        }
        String token = DedupToken.group(parts.pipeline(), run, source.name(), group, shard);
        handoff.sealed(new Batch(inbox, segments, shard, false, token, reason, nowSeconds));
        return true;
    }

    /** The now() an open batch computes with (read at its first row; the clock if it has none). */
    private long batchNow(OpenBatch open) {
        return open.nowSeconds() >= 0
                ? open.nowSeconds()
                : Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
    }

    /**
     * A replayed part of a batch of several partitions is complete: it waits aside for the other
     * parts, and the batch is sent whole once all are ({@link #trySealGroup}).
     */
    private void readyForGroup(PartitionState part, long nowNanos) {
        if (part.ready != null) {
            // The partition read on past a part still waiting for its batch: that part is sent
            // alone (looked up first) rather than dropped — its rows would hold the commit back.
            sealAlone(part, nowNanos);
        }
        part.ready = part.open;
        part.open = null;
        trySealGroup(part.ready.pinned().group(), nowNanos);
    }

    /**
     * Sends a replayed batch of several partitions once every part is complete — whole, with its
     * recorded token, so a server that deduplicates drops it if it has it. When a part cannot come
     * any more (its partition is not this thread's, or its range was cut short), the complete parts
     * are sent alone, each with a token of its own range, once the group's INSERTs are looked up
     * and found not written ({@link #sealMember}).
     */
    private void trySealGroup(String group, long nowNanos) {
        List<PartitionState> ready = new ArrayList<>();
        int expecting = 0;
        for (PartitionState p : partitions.values()) {
            if (p.ready != null && group.equals(p.ready.pinned().group())) {
                ready.add(p);
            } else if (p.open != null
                    && p.open.pinned() != null
                    && group.equals(p.open.pinned().group())) {
                expecting++;
            } else if (p.replay != null && p.replay.expects(group)) {
                expecting++;
            }
        }
        if (ready.isEmpty()) {
            return;
        }
        int members = ready.get(0).ready.pinned().members();
        boolean exact = true;
        for (PartitionState p : ready) {
            LedgerEntry e = p.ready.pinned();
            exact &=
                    p.ready.firstPosition() == e.first()
                            && p.ready.lastPosition() == e.last()
                            && e.shard() < parts.router().shards();
        }
        if (ready.size() == members && exact) {
            ready.sort((a, b) -> a.name.compareTo(b.name));
            LedgerEntry any = ready.get(0).ready.pinned();
            List<Batch.Segment> segments = new ArrayList<>();
            for (PartitionState p : ready) {
                segments.add(new Batch.Segment(p.ready, p.ready.pinned(), p.epoch));
                p.ready = null;
            }
            long nowSeconds =
                    any.nowSeconds() >= 0
                            ? any.nowSeconds()
                            : Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
            String token =
                    DedupToken.group(
                            parts.pipeline(),
                            any.groupRun() != null ? any.groupRun() : ready.get(0).run,
                            source.name(),
                            any.baseGroup(),
                            any.shard());
            handoff.sealed(
                    new Batch(
                            inbox,
                            segments,
                            any.shard(),
                            true,
                            token,
                            SealReason.REPLAY,
                            nowSeconds));
        } else if (ready.size() + expecting < members || !exact) {
            for (PartitionState p : ready) {
                sealAlone(p, nowNanos);
            }
        }
    }

    /**
     * A replayed part whose batch cannot be re-created whole: sent alone, under its own range,
     * unless the group's INSERTs are found written ({@link #sealMember}).
     */
    private void sealAlone(PartitionState p, long nowNanos) {
        OpenBatch later = p.open;
        p.open = p.ready;
        p.ready = null;
        seal(p, SealReason.REPLAY, nowNanos);
        if (p.open == null) {
            p.open = later;
        }
    }

    /**
     * Replayed parts still waiting for their batch: under {@code reason}, sent alone or dropped.
     */
    private void settleWaitingParts(SealReason reason, long nowNanos) {
        for (PartitionState p : partitions.values()) {
            if (p.ready == null) {
                continue;
            }
            if (reason == SealReason.DRAIN || reason == SealReason.REVOKE) {
                // Not sent: the next run or owner replays the batch whole.
                blocks.give(p.ready.buffers());
                p.ready = null;
                parts.metrics().abandonedBatches.inc();
            } else {
                sealAlone(p, nowNanos);
            }
        }
    }

    private static String misaligned(OpenBatch open) {
        try {
            open.block().rows();
            return null;
        } catch (IllegalStateException e) {
            return "the decoder or a transform did not append one value per column and row"
                    + " (a bug in it): "
                    + e.getMessage();
        }
    }

    private void sealAll(SealReason reason, long nowNanos) {
        if (combine && !sealRound(reason, nowNanos, p -> true)) {
            return;
        }
        for (PartitionState part : partitions.values()) {
            if (!seal(part, reason, nowNanos)) {
                return;
            }
        }
        settleWaitingParts(reason, nowNanos);
    }

    private long sealLingering(long now) {
        long wait = MAX_WAIT_NANOS;
        if (combine) {
            // One round for all: its linger starts with the oldest first row among them.
            long oldest = Long.MAX_VALUE;
            for (PartitionState part : partitions.values()) {
                OpenBatch open = part.open;
                if (open != null && !open.isEmpty() && open.pinned() == null) {
                    oldest = Math.min(oldest, open.pending().openedNanos());
                }
            }
            if (oldest == Long.MAX_VALUE) {
                return wait;
            }
            long deadline = parts.seal().lingerDeadline(oldest);
            if (now - deadline >= 0) {
                return sealRound(SealReason.LINGER, now, p -> !atCeiling(p)) ? wait : 0;
            }
            return Math.min(wait, deadline - now);
        }
        for (PartitionState part : partitions.values()) {
            OpenBatch open = part.open;
            if (open == null || open.isEmpty() || open.pinned() != null || atCeiling(part)) {
                continue;
            }
            long deadline = parts.seal().lingerDeadline(open.pending().openedNanos());
            if (now - deadline >= 0) {
                if (!seal(part, SealReason.LINGER, now)) {
                    return 0;
                }
            } else {
                wait = Math.min(wait, deadline - now);
            }
        }
        return wait;
    }

    /** No more reading: seal everything, then wait for it to be written. */
    private void finish(SealReason reason, long now) {
        state = State.FINISHING;
        readToTheEnd = reason == SealReason.PARTITION_END;
        haveRecords = false; // records not processed yet are not consumed: they are read again
        if (!sourcePaused) {
            source.pause(); // nothing more is read; a Kafka consumer only keeps its group
            sourcePaused = true;
        }
        if (combine && !sealRound(reason, now, p -> true)) {
            return;
        }
        for (PartitionState part : partitions.values()) {
            if (!seal(part, reason, now)) {
                return;
            }
            dropEmptyBatch(part);
        }
        settleWaitingParts(reason, now);
    }

    /** Stopping: open batches are never sent; their records hold back the commits (property 1). */
    private void abandonOpenBatches() {
        state = State.STOPPING;
        haveRecords = false;
        for (PartitionState part : partitions.values()) {
            OpenBatch open = part.open;
            if (open != null) {
                blocks.give(open.buffers()); // with the budget bytes it holds
                part.open = null;
            }
            if (part.ready != null) {
                blocks.give(part.ready.buffers());
                part.ready = null;
            }
        }
        roundRows = 0;
        roundBytes = 0;
    }

    private void dropEmptyBatch(PartitionState part) {
        if (part.open != null && part.open.isEmpty()) {
            blocks.give(part.open.buffers());
            part.open = null;
        }
    }

    // --- commits
    // ----------------------------------------------------------------------------------

    /** Commits every partition whose position moved, then forgets partitions that are finished. */
    private void commit() {
        if (!commits.commitMoved()) {
            return;
        }
        partitions
                .values()
                .removeIf(
                        p ->
                                p.ended
                                        && p != current
                                        && p.open == null
                                        && p.tracker.pendingBatches() == 0);
    }

    private void publish() {
        int pending = 0;
        long oldest = Long.MAX_VALUE;
        for (PartitionState part : partitions.values()) {
            pending += part.tracker.pendingBatches();
            oldest = Math.min(oldest, part.tracker.oldestPendingNanos());
        }
        pendingBatches = pending;
        oldestPendingNanos = oldest;
        ownedPartitions = partitions.size();
    }

    boolean done() {
        return state == State.DONE;
    }

    /** True when the thread stopped reading because its source had nothing more, not on request. */
    boolean readToTheEnd() {
        return readToTheEnd;
    }

    /** The committed position of every partition this thread owns or finished. */
    Map<String, Long> committedPositions() {
        return commits.committedPositions();
    }

    int pendingBatches() {
        return pendingBatches;
    }

    long oldestPendingNanos() {
        return oldestPendingNanos;
    }

    /** Partitions this thread owned at the end of its last turn. */
    int ownedPartitions() {
        return ownedPartitions;
    }

    Source source() {
        return source;
    }
}
