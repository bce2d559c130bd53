package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.transform.Transform;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One pipeline thread: the loop that ties its parts together. Each turn ({@link #runOnce()}) takes
 * back the batches writers settled ({@link BatchHandoff}, through the {@link SettledInbox}), seals
 * the batches whose linger is up ({@link BatchAccumulator}), polls its source and has the {@link
 * RecordProcessor} decode and transform the records straight into the open batches of their
 * partitions, hands the batches the turn sealed to the sink once their boundaries are recorded with
 * the source, and commits what the partitions' trackers allow ({@link CommitCoordinator}). It
 * returns how long the thread may park before the next turn (like Kafka's {@code Sender.runOnce});
 * tests drive it with a manual clock instead of sleeping.
 *
 * <p>The thread never blocks on the sink: sealed batches go to an unbounded queue and the budget
 * ({@link BudgetAccount}) pauses the source instead (property 3) — paused, not forgotten: the loop
 * keeps calling {@link Source#idle}, so a Kafka consumer stays in its group however long ClickHouse
 * stalls, and keeps taking back settled batches, which writers hand over without waiting (property
 * 5).
 *
 * <p>Partitions come and go through the {@link PartitionListener} the source calls from inside
 * {@code poll}/{@code idle}: an assigned partition starts at its checkpoint; a revoked one has its
 * open batch sealed, its batches awaited (bounded), its position committed, and is forgotten.
 *
 * <p>A partition's records go to one table (its topic's, {@link Lanes}) and are decoded in that
 * table's {@link Lane}; when the writer found the table altered, the lane is made again for its new
 * columns once the batch open for the old ones is sealed ({@link PartitionLanes}). Partitions read
 * side by side are gathered into one batch per table.
 */
final class PipelineThread implements PartitionListener, Runnable {
    static final int POLL_RECORDS = 4096;
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The longest a paused thread waits in {@link Source#idle} at a time. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private enum State {
        /** Reading. */
        RUNNING,
        /** The source ended, or the pipeline drains: everything is sealed; waiting for acks. */
        FINISHING,
        /** Open batches were abandoned; waiting for the sealed ones to settle. */
        STOPPING,
        DONE
    }

    private final PipelineContext context;
    private final Source source;
    private final BudgetAccount account;
    private final SettledInbox inbox;
    private final CommitCoordinator commits;
    private final BatchHandoff handoff;
    private final BatchAccumulator batches;
    private final RecordProcessor processor;
    private final PartitionLanes lanes;

    private final Map<String, PartitionState> partitions = new LinkedHashMap<>();

    private boolean opened;
    private volatile boolean readToTheEnd;
    private long epochs;
    private State state = State.RUNNING;
    private boolean sourceExhausted;
    private boolean sourcePaused;
    private volatile int pendingBatches;
    private volatile long oldestPendingNanos = Long.MAX_VALUE;
    private volatile int ownedPartitions;

    /** A thread whose every record is decoded by {@code decoder} into {@code blocks}' columns. */
    PipelineThread(
            PipelineContext context,
            Source source,
            Decoder decoder,
            List<Transform> transforms,
            BlockPool blocks) {
        this(context, source, null, new Lane(null, null, null, decoder, transforms), blocks);
    }

    /**
     * A thread whose partitions' records go to the tables {@code lanes} picks, each decoded in a
     * lane of its own that follows the table's changes.
     *
     * @param first the lane of the sink's one table, made at start-up (null when tables follow the
     *     records' topics)
     */
    PipelineThread(
            PipelineContext context, Source source, Lanes lanes, Lane first, BlockPool blocks) {
        this.context = context;
        this.source = source;
        this.account = new BudgetAccount(context.budget(), context.budgetGrain(), blocks);
        this.inbox = new SettledInbox(context.metrics(), context.clock());
        this.commits =
                new CommitCoordinator(context, source, partitions, context.clock().nanoTime());
        this.handoff =
                new BatchHandoff(context, source, partitions, commits, inbox, account, blocks);
        this.batches =
                new BatchAccumulator(context, source, blocks, account, handoff, inbox, partitions);
        this.processor = new RecordProcessor(context, account, batches);
        batches.stagedRows(processor);
        this.lanes = new PartitionLanes(context, partitions, batches, blocks, lanes, first);
    }

    @Override
    public void run() {
        Thread thread = Thread.currentThread();
        inbox.wakes(thread);
        context.budget().wakeOnResume(thread);
        try {
            while (state != State.DONE) {
                long wait;
                try {
                    wait = runOnce();
                } catch (RuntimeException | Error e) {
                    if (state == State.STOPPING) {
                        throw e; // stopping failed too: give up on this thread
                    }
                    context.lifecycle().fail(new Failure("internal error: " + e, null, null), true);
                    wait = 0;
                }
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                }
            }
        } finally {
            context.budget().forget(thread);
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
        long now = context.clock().nanoTime();
        if (!opened) {
            opened = true;
            try {
                source.open(this);
            } catch (IOException e) {
                sourceFailed("opening", e);
            }
        }
        handoff.takeSettled();
        Lifecycle.Mode mode = context.lifecycle().mode();
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
        PartitionState current = processor.current();
        boolean partitionFull = processor.hasRecords() && current != null && current.atCeiling();
        if (budgetPaused || partitionFull) {
            if (budgetPaused) {
                account.dropPooled(); // pooled capacity first
            }
            if (!sourcePaused) {
                source.pause();
                sourcePaused = true;
            }
            if (budgetPaused && context.sink().inFlight() == 0 && !handoff.hasUnrecorded()) {
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
        if (!processor.hasRecords() && !sourceExhausted) {
            try {
                poll(Math.max(0, Math.min(wait, commits.untilDue(now))));
            } catch (IOException e) {
                sourceFailed("reading from", e);
                return 0;
            }
        }
        if (processor.hasRecords() && state == State.RUNNING) {
            processor.process(context.clock().nanoTime());
        }
        if (sourceExhausted && !processor.hasRecords() && state == State.RUNNING) {
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
        context.lifecycle()
                .fail(new Failure(what + " " + source.name() + " failed: " + e, null, null), false);
    }

    private void poll(long waitNanos) throws IOException {
        PolledRecords records = processor.records();
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
            context.lifecycle()
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
        long readNanos = context.clock().nanoTime();
        context.metrics().sourceRecords.inc(n);
        processor.polled(part, readNanos);
        if ((part.lane == null || part.lane.stale()) && !lanes.follow(part, records)) {
            processor.dropRecords(); // the pipeline fails: nothing of this poll is consumed
            return;
        }
        if (n > 0) {
            // Whatever precedes the first record is not a record: the source resumed here.
            part.tracker.consumed(records.position[0]);
        }
    }

    // --- partitions come and go (called by the source from inside poll or idle) ------------------

    @Override
    public void assigned(String partition, Checkpoint checkpoint) {
        if (partitions.containsKey(partition)) {
            return; // still ours: nothing moved
        }
        // A source that cannot read again never resumes nor replays (a stale plan would re-seal
        // new records at old boundaries under old tokens, and a deduplicating server would drop
        // them).
        Checkpoint cp = source.replayable() ? checkpoint : Checkpoint.NONE;
        PartitionState p = new PartitionState(partition, ++epochs, cp, context.run());
        partitions.put(partition, p);
        commits.assigned(partition, cp.position());
        context.metrics().partitionsAssigned.inc();
    }

    @Override
    public void revoking(Collection<String> names) {
        List<PartitionState> going = owned(names);
        if (going.isEmpty()) {
            return;
        }
        long now = context.clock().nanoTime();
        batches.sealEach(going, SealReason.REVOKE, now);
        handoff.submitSealed();
        long deadline = context.clock().nanoTime() + context.revokeTimeoutNanos();
        while (pendingIn(going) && context.clock().nanoTime() - deadline < 0) {
            try {
                context.clock().sleep(TimeUnit.MILLISECONDS.toNanos(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            handoff.takeSettled();
        }
        if (pendingIn(going)) {
            context.metrics().revokeTimeouts.inc();
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
        context.warnings().accept(message);
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
            processor.forget(p);
            context.metrics().partitionsRevoked.inc();
        }
        batches.forgotten(); // a replayed group waiting for one of them can no longer be whole
    }

    /** No more reading: seal everything, then wait for it to be written. */
    private void finish(SealReason reason, long now) {
        state = State.FINISHING;
        readToTheEnd = reason == SealReason.PARTITION_END;
        processor.dropRecords(); // records not processed yet are not consumed: read again
        if (!sourcePaused) {
            source.pause(); // nothing more is read; a Kafka consumer only keeps its group
            sourcePaused = true;
        }
        batches.sealAll(reason, now, true);
    }

    /** Stopping: open batches are never sent; their records hold back the commits (property 1). */
    private void abandonOpenBatches() {
        state = State.STOPPING;
        processor.dropRecords();
        batches.abandonAll();
    }

    // --- commits and progress --------------------------------------------------------------------

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
                                        && p != processor.current()
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
