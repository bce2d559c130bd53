package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.sink.BlockPool;
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
final class PipelineThread implements PartitionListener, BatchAccumulator.StagedRows, Runnable {
    static final int POLL_RECORDS = 4096;
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The longest a paused thread waits in {@link Source#idle} at a time. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

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
    private final BatchAccumulator batches;

    private final RecordBatch records = new RecordBatch();
    private final Map<String, PartitionState> partitions = new LinkedHashMap<>();

    private PartitionState current;

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
        this.commits = new CommitCoordinator(parts, source, partitions, parts.clock().nanoTime());
        this.handoff = new BatchHandoff(parts, source, partitions, commits, inbox, account, blocks);
        this.batches =
                new BatchAccumulator(parts, source, blocks, account, handoff, inbox, partitions);
        batches.stagedRows(this);
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
        long wait = batches.sealLingering(now, MAX_WAIT_NANOS);
        boolean budgetPaused = account.paused();
        boolean partitionFull = haveRecords && current != null && current.atCeiling();
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
                batches.sealAll(SealReason.BACKPRESSURE, now, false);
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
        batches.sealEach(going, SealReason.REVOKE, now);
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
            batches.forget(p);
            if (current == p) {
                haveRecords = false;
                current = null;
            }
            parts.metrics().partitionsRevoked.inc();
        }
        batches.forgotten(); // a replayed group waiting for one of them can no longer be whole
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
                    || part.atCeiling()) {
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
            if (batches.seal(part, SealReason.PARTITION_END, nowNanos)) {
                batches.dropEmptyBatch(part);
            }
        }
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
        OpenBatch batch = batches.batchFor(part, position, nowNanos);
        if (batch == null) {
            return false;
        }
        if (batch.isEmpty()) {
            batch.nowSeconds(batches.nowFor(part, batch, position, nowNanos), nowNanos);
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
        batches.grew(batch, 1);
        return batches.sealIfDue(part, batch, nowNanos);
    }

    /**
     * Stages a complete row for the expression transforms; they run over the staged rows when
     * enough are staged, before the batch could be sealed by size or at its replay end, and when
     * the polled records are done (ADR 0010). Staged rows count toward the batch's size.
     */
    private boolean stageRow(
            PartitionState part, OpenBatch batch, long position, int record, long nowNanos) {
        batch.stageRow(position, record);
        batches.grew(batch, 1);
        boolean due = batch.staged() >= STAGED_ROWS || batches.dueWithStaged(batch, position);
        return !due || flushStagedAndSeal(part, nowNanos);
    }

    /** {@link #flushStaged}, then the seals the committed rows call for. */
    private boolean flushStagedAndSeal(PartitionState part, long nowNanos) {
        OpenBatch batch = part.open;
        if (batch == null || batch.staged() == 0) {
            return true;
        }
        return flushStaged(part, nowNanos) && batches.sealIfDue(part, part.open, nowNanos);
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
        batches.grew(batch, committed - staged);
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

    /** No more reading: seal everything, then wait for it to be written. */
    private void finish(SealReason reason, long now) {
        state = State.FINISHING;
        readToTheEnd = reason == SealReason.PARTITION_END;
        haveRecords = false; // records not processed yet are not consumed: they are read again
        if (!sourcePaused) {
            source.pause(); // nothing more is read; a Kafka consumer only keeps its group
            sourcePaused = true;
        }
        batches.sealAll(reason, now, true);
    }

    /** Stopping: open batches are never sent; their records hold back the commits (property 1). */
    private void abandonOpenBatches() {
        state = State.STOPPING;
        haveRecords = false;
        batches.abandonAll();
    }

    // --- staged rows are settled before a seal (BatchAccumulator.StagedRows) ---------------------

    @Override
    public boolean flush(PartitionState part, long nowNanos) {
        return flushStaged(part, nowNanos);
    }

    @Override
    public boolean flushCurrent(long nowNanos) {
        return current == null || flushStaged(current, nowNanos);
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
