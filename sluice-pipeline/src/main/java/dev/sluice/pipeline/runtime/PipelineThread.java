package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.ReplayPlan;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.sink.Batch;
import dev.sluice.pipeline.sink.BatchOwner;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.DedupToken;
import dev.sluice.pipeline.sink.OpenBatch;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.transform.Transform;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One pipeline thread: polls its source, decodes and transforms records straight into the open
 * batch of their partition, seals batches and hands them to the sink, takes back settled batches
 * and commits what its trackers allow.
 *
 * <p>{@link #runOnce()} is one turn of the loop and returns how long the thread may park before the
 * next (like Kafka's {@code Sender.runOnce}); tests drive it with a manual clock instead of
 * sleeping. The thread never blocks on the sink: sealed batches go to an unbounded queue and the
 * budget pauses polling instead (property 3); while paused, the loop keeps taking back settled
 * batches, which writers hand over without waiting (property 5).
 */
final class PipelineThread implements BatchOwner, Runnable {
    static final int POLL_RECORDS = 4096;
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private enum State {
        /** Reading. */
        RUNNING,
        /** The source ended, or the pipeline drains: everything is sealed; waiting for acks. */
        FINISHING,
        /** Open batches were abandoned; waiting for the sealed ones to settle. */
        STOPPING,
        DONE
    }

    /** One partition's progress. */
    private static final class Partition {
        final String name;
        final CheckpointTracker tracker;
        final ReplayPlan replay;
        OpenBatch open;
        boolean ended;

        Partition(String name, CheckpointTracker tracker, ReplayPlan replay) {
            this.name = name;
            this.tracker = tracker;
            this.replay = replay;
        }
    }

    private final SharedParts parts;
    private final Source source;
    private final Decoder decoder;
    private final Transform[] transforms;
    private final BlockPool blocks;

    private final RecordBatch records = new RecordBatch();
    private final Map<String, Partition> partitions = new HashMap<>();
    private final Map<String, Long> committed = new HashMap<>();
    private final ConcurrentLinkedQueue<Batch> settled = new ConcurrentLinkedQueue<>();
    private Partition current;
    private int cursor;
    private boolean haveRecords;
    private long readNanos;
    private State state = State.RUNNING;
    private boolean sourceExhausted;
    private boolean sourcePaused;
    private int inFlight;
    private long credit;
    private long nextCommitNanos;
    private volatile Thread thread;
    private volatile int pendingBatches;
    private volatile long oldestPendingNanos = Long.MAX_VALUE;

    PipelineThread(
            SharedParts parts,
            Source source,
            Decoder decoder,
            List<Transform> transforms,
            BlockPool blocks) {
        this.parts = parts;
        this.source = source;
        this.decoder = decoder;
        this.transforms = transforms.toArray(new Transform[0]);
        this.blocks = blocks;
        this.nextCommitNanos = parts.clock().nanoTime() + parts.commitIntervalNanos();
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
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
        takeSettled();
        Lifecycle.Mode mode = parts.lifecycle().mode();
        if (mode == Lifecycle.Mode.STOP && (state == State.RUNNING || state == State.FINISHING)) {
            abandonOpenBatches();
        } else if (mode == Lifecycle.Mode.DRAIN && state == State.RUNNING) {
            finish(SealReason.DRAIN, now);
        }
        long wait = MAX_WAIT_NANOS;
        if (state == State.RUNNING) {
            wait = read(now);
        }
        if ((state == State.FINISHING || state == State.STOPPING) && inFlight == 0) {
            commit();
            parts.budget().release(credit);
            credit = 0;
            state = State.DONE;
            publish();
            return 0;
        }
        if (now - nextCommitNanos >= 0) {
            commit();
            nextCommitNanos = now + parts.commitIntervalNanos();
        }
        publish();
        return Math.max(0, Math.min(wait, nextCommitNanos - now));
    }

    /** The RUNNING turn: linger, backpressure, poll, process. Returns the time it may park. */
    private long read(long now) {
        long wait = sealLingering(now);
        if (parts.budget().paused()) {
            if (!sourcePaused) {
                source.pause();
                sourcePaused = true;
            }
            if (parts.sink().inFlight() == 0) {
                // Everything in flight is open batches: nothing will release the budget unless
                // they are sealed and sent.
                sealAll(SealReason.BACKPRESSURE, now);
            }
            return wait;
        }
        if (sourcePaused) {
            source.resume();
            sourcePaused = false;
        }
        if (!haveRecords && !sourceExhausted) {
            try {
                poll(Math.max(0, Math.min(wait, nextCommitNanos - now)));
            } catch (IOException e) {
                parts.lifecycle()
                        .fail(
                                new Failure(
                                        "reading from " + source.name() + " failed: " + e,
                                        null,
                                        null),
                                false);
                return 0;
            }
        }
        if (haveRecords) {
            process(parts.clock().nanoTime());
        }
        if (sourceExhausted && !haveRecords && state == State.RUNNING) {
            finish(SealReason.PARTITION_END, now);
        }
        return 0; // poll waits for data itself
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
        readNanos = parts.clock().nanoTime();
        parts.metrics().sourceRecords.inc(n);
        cursor = 0;
        haveRecords = true;
        current = partition(records.partition);
        if (n > 0) {
            // Whatever precedes the first record is not a record: the source resumed here.
            current.tracker.consumed(records.position[0]);
        }
    }

    private Partition partition(String name) {
        Partition p = partitions.get(name);
        if (p == null) {
            List<LedgerEntry> replay = parts.replay().apply(name);
            p =
                    new Partition(
                            name,
                            new CheckpointTracker(parts.resumeFrom().getOrDefault(name, -1L)),
                            replay.isEmpty() ? null : new ReplayPlan(replay));
            partitions.put(name, p);
        }
        return p;
    }

    /** Processes the polled records from the cursor, until done, paused or stopped. */
    private void process(long nowNanos) {
        RecordBatch rb = records;
        Partition part = current;
        if (cursor == 0 && rb.partitionStart && rb.count > 0 && decoder.expectsHeader()) {
            if (!readHeader(rb)) {
                return;
            }
            part.tracker.consumed(next(rb, 0));
            cursor = 1;
        }
        while (cursor < rb.count) {
            if (parts.budget().paused() || parts.lifecycle().mode() != Lifecycle.Mode.RUN) {
                return; // the rest waits in `records` (property 3: one record over at most)
            }
            boolean handled =
                    rb.errors > 0 && rb.error[cursor] != null
                            ? reject(rb, cursor, rb.error[cursor]) // the source could not read it
                            : processRecord(part, rb, cursor, nowNanos);
            if (!handled) {
                return;
            }
            part.tracker.consumed(next(rb, cursor));
            cursor++;
        }
        haveRecords = false;
        if (rb.partitionEnd) {
            part.tracker.consumed(rb.endPosition);
            part.ended = true;
            if (seal(part, SealReason.PARTITION_END, nowNanos)) {
                dropEmptyBatch(part);
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
    private boolean processRecord(Partition part, RecordBatch rb, int i, long nowNanos) {
        long position = rb.position[i];
        OpenBatch batch = batchFor(part, position, nowNanos);
        if (batch == null) {
            return false;
        }
        batch.beginRow();
        try {
            decoder.decode(rb, i, batch);
            for (Transform t : transforms) {
                if (!t.apply(batch, rb, i)) {
                    batch.rollbackRow();
                    parts.metrics().filtered.inc();
                    return true;
                }
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
        if (batch.commitRow(position)) {
            batch.pending(part.tracker.open(position, nowNanos), readNanos);
        }
        account(batch);
        LedgerEntry pinned = batch.pinned();
        if (pinned != null) {
            if (position >= pinned.last()) {
                seal(part, SealReason.REPLAY, nowNanos);
            }
        } else {
            SealReason bySize = parts.seal().bySize(batch.rows(), batch.accountedBytes());
            if (bySize != null) {
                seal(part, bySize, nowNanos);
            }
        }
        return true;
    }

    /**
     * The open batch a record at {@code position} goes to. During a replay, the current batch is
     * sealed first when the record lies beyond the ledger entry it re-creates, or when it enters an
     * entry the batch is not re-creating; an empty batch is pinned to the entry holding the record.
     */
    private OpenBatch batchFor(Partition part, long position, long nowNanos) {
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

    /** Counts the batch's growth against the budget, taking from the budget a grain at a time. */
    private void account(OpenBatch batch) {
        long bytes = batch.block().dataBytes();
        long delta = bytes - batch.accountedBytes();
        if (delta > credit) {
            long grant = Math.max(parts.budgetGrain(), delta - credit);
            parts.budget().acquire(grant);
            credit += grant;
        }
        credit -= delta;
        batch.accountedBytes(bytes);
        if (credit > 2 * parts.budgetGrain()) {
            parts.budget().release(credit - parts.budgetGrain());
            credit = parts.budgetGrain();
        }
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

    /**
     * Seals the open batch of {@code part} and submits it; true when the batch was sealed or there
     * was nothing to seal, false when the pipeline stops instead.
     */
    private boolean seal(Partition part, SealReason reason, long nowNanos) {
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
        // The recorded token only for a batch that ends where the recorded one ended: a batch
        // sealed early must not claim the rest of the range, or a server holding that token would
        // drop the remainder when it comes in a later run.
        boolean replayed =
                pinned != null
                        && open.lastPosition() >= pinned.last()
                        && pinned.shard() < parts.router().shards();
        LedgerEntry bounds =
                replayed
                        ? pinned
                        : new LedgerEntry(
                                part.name,
                                open.firstPosition(),
                                open.lastPosition(),
                                parts.router().shardFor(part.name, open.firstPosition()));
        String token =
                DedupToken.of(
                        parts.pipeline(),
                        parts.run(),
                        source.name(),
                        part.name,
                        bounds.first(),
                        bounds.last(),
                        bounds.shard());
        // The batch's now() for DEFAULTs and keys: one reading per batch, on the injected clock,
        // as the server takes one per block.
        long nowSeconds = Math.floorDiv(parts.clock().currentTimeMillis(), 1000);
        Batch batch = new Batch(this, open, bounds, replayed, token, reason, nowSeconds);
        part.open = null;
        inFlight++;
        parts.metrics().seals(reason).inc();
        parts.metrics().batchRows.observe(batch.rows());
        parts.sink().submit(batch);
        return true;
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
        for (Partition part : partitions.values()) {
            if (!seal(part, reason, nowNanos)) {
                return;
            }
        }
    }

    private long sealLingering(long now) {
        long wait = MAX_WAIT_NANOS;
        for (Partition part : partitions.values()) {
            OpenBatch open = part.open;
            if (open == null || open.isEmpty() || open.pinned() != null) {
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
        haveRecords = false; // records not processed yet are not consumed: they are read again
        for (Partition part : partitions.values()) {
            if (!seal(part, reason, now)) {
                return;
            }
            dropEmptyBatch(part);
        }
    }

    /** Stopping: open batches are never sent; their records hold back the commits (property 1). */
    private void abandonOpenBatches() {
        state = State.STOPPING;
        haveRecords = false;
        for (Partition part : partitions.values()) {
            OpenBatch open = part.open;
            if (open != null) {
                parts.budget().release(open.accountedBytes());
                blocks.give(open.buffers());
                part.open = null;
            }
        }
    }

    private void dropEmptyBatch(Partition part) {
        if (part.open != null && part.open.isEmpty()) {
            blocks.give(part.open.buffers());
            part.open = null;
        }
    }

    /** Takes back the batches writers settled: acknowledgements reach the trackers here. */
    private void takeSettled() {
        for (Batch b; (b = settled.poll()) != null; ) {
            inFlight--;
            if (b.outcome() == Batch.Outcome.WRITTEN) {
                partitions.get(b.partition()).tracker.acknowledge(b.pending());
            } else {
                parts.metrics().abandonedBatches.inc();
            }
            blocks.give(b.buffers());
        }
    }

    /** Called by a writer thread: never waits (property 5). */
    @Override
    public void settled(Batch batch) {
        parts.budget().release(batch.bytes());
        if (batch.outcome() == Batch.Outcome.WRITTEN) {
            parts.metrics()
                    .e2eSeconds
                    .observe((parts.clock().nanoTime() - batch.firstReadNanos()) / 1e9);
        }
        settled.add(batch);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Commits what the trackers allow, then forgets partitions that are finished. */
    private void commit() {
        Map<String, Long> changed = new HashMap<>();
        for (Partition part : partitions.values()) {
            if (part.tracker.advance()) {
                changed.put(part.name, part.tracker.committed());
            }
        }
        try {
            parts.committer().commit(source, changed);
        } catch (IOException e) {
            parts.lifecycle()
                    .fail(
                            new Failure("cannot commit positions: " + e.getMessage(), null, null),
                            false);
            return;
        }
        committed.putAll(changed);
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
        for (Partition part : partitions.values()) {
            pending += part.tracker.pendingBatches();
            oldest = Math.min(oldest, part.tracker.oldestPendingNanos());
        }
        pendingBatches = pending;
        oldestPendingNanos = oldest;
    }

    boolean done() {
        return state == State.DONE;
    }

    /** The committed position of every partition this thread committed. */
    Map<String, Long> committedPositions() {
        return committed;
    }

    int pendingBatches() {
        return pendingBatches;
    }

    long oldestPendingNanos() {
        return oldestPendingNanos;
    }

    Source source() {
        return source;
    }
}
