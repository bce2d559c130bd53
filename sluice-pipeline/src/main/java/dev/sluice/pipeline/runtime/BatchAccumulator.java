package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.ReplayPlan;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.DedupToken;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.source.Source;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A pipeline thread's open batches, one per partition, like the accumulator of Kafka's producer:
 * rows go into the open batch of their partition, which is sealed at {@code batch.max_rows} or
 * {@code batch.max_bytes}, {@code batch.linger} after its first row, at the partition's end, on a
 * drain, a revocation or a paused budget — or, from a source whose partitions are read side by
 * side, together with the others as one batch of several partitions (a {@link Round}). A sealed
 * batch gets its boundaries, shard, {@code now()} and deduplication token here (property 2) and
 * goes to the {@link BatchHandoff}. Batches that re-create ledger entries are the {@link
 * ReplayedBatches}' to seal. Used by its pipeline thread only.
 */
final class BatchAccumulator {

    /**
     * Rows staged for the expression transforms (ADR 0010), which live in the open batch of the
     * partition being processed and must be settled before it is sealed.
     */
    interface StagedRows {
        /** Settles the staged rows of {@code part}'s open batch; false when the pipeline stops. */
        boolean flush(PartitionState part, long nowNanos);

        /** The same for the partition whose polled records are being processed, if any. */
        boolean flushCurrent(long nowNanos);
    }

    private final PipelineContext context;
    private final SealPolicy seal;
    private final Source source;
    private final BlockPool blocks;
    private final BudgetAccount account;
    private final BatchHandoff handoff;
    private final SettledInbox inbox;
    private final Map<String, PartitionState> partitions;
    private final boolean combine;
    private final Round round;
    private final ReplayedBatches replays;
    private StagedRows staged;

    /**
     * @param partitions the thread's partitions, by name (the thread adds and removes them)
     * @param inbox the owner of the batches sealed here, told when they are settled
     */
    BatchAccumulator(
            PipelineContext context,
            Source source,
            BlockPool blocks,
            BudgetAccount account,
            BatchHandoff handoff,
            SettledInbox inbox,
            Map<String, PartitionState> partitions) {
        this.context = context;
        this.seal = context.seal();
        this.source = source;
        this.blocks = blocks;
        this.account = account;
        this.handoff = handoff;
        this.inbox = inbox;
        this.partitions = partitions;
        this.combine = source.partitionsInterleave();
        this.round = new Round(this, context, handoff, inbox, partitions);
        this.replays = new ReplayedBatches(this, context, blocks, handoff, inbox, partitions);
    }

    /** Where the rows staged in open batches are settled before a seal (set once, at start). */
    void stagedRows(StagedRows staged) {
        this.staged = staged;
    }

    /** Settles the rows staged for the partition being processed, if any; false: it stops. */
    boolean flushCurrent(long nowNanos) {
        return staged.flushCurrent(nowNanos);
    }

    // --- rows go in ------------------------------------------------------------------------------

    /**
     * The open batch a record at {@code position} goes to. During a replay, the current batch is
     * sealed first when the record lies beyond the ledger entry it re-creates, or when it enters an
     * entry the batch is not re-creating; an empty batch is pinned to the entry holding the record.
     * Null when the pipeline stops instead.
     */
    BatchBuilder batchFor(PartitionState part, long position, long nowNanos) {
        ReplayPlan plan = part.replay;
        LedgerEntry entry = plan == null ? null : plan.at(position);
        if (plan != null && !replays.sealBefore(part, entry, position, nowNanos)) {
            return null;
        }
        if (part.open == null) {
            Lane lane = part.lane;
            part.open =
                    new BatchBuilder(
                            part.name,
                            lane.columns == null
                                    ? blocks.take()
                                    : blocks.take(lane.columns, lane.target));
        }
        BatchBuilder open = part.open;
        if (plan != null && open.isEmpty()) {
            ReplayedBatches.pin(open, entry, position);
        }
        return open;
    }

    /**
     * The {@code now()} of a batch that has no row yet, decided again at each record until it has
     * one: the recorded one for a replay ({@link ReplayedBatches#recordedNow}); the one the batch
     * already has if younger than the linger (its records were all dropped); else the round's for a
     * batch of several partitions, else the clock's. One reading per batch, as the server takes one
     * per block (property 2: a replay computes what the original did).
     */
    long nowFor(PartitionState part, BatchBuilder batch, long position, long nowNanos) {
        long recorded = ReplayedBatches.recordedNow(part, batch, position);
        if (recorded >= 0) {
            return recorded;
        }
        if (batch.nowSeconds() >= 0 && nowNanos - seal.lingerDeadline(batch.nowTakenNanos()) < 0) {
            return batch.nowSeconds();
        }
        long clock = clockSeconds();
        if (!combine || batch.pinned() != null) {
            return clock;
        }
        return round.nowSeconds(clock);
    }

    /**
     * The batch grew by {@code rows} rows (committed or staged; fewer when staged rows were
     * filtered): its growth is charged to the budget (property 3) and counted in the round.
     */
    void grew(BatchBuilder batch, int rows) {
        long dataBefore = batch.dataBytes();
        account.charge(batch);
        if (combine && batch.pinned() == null) {
            round.grew(rows, batch.dataBytes() - dataBefore);
        }
    }

    /**
     * After rows were committed: seals the batch at the end of the ledger entry it re-creates, or
     * once it (or the round) is full. False when the pipeline must stop instead.
     */
    boolean sealIfDue(PartitionState part, BatchBuilder batch, long nowNanos) {
        if (batch.pinned() != null) {
            return replays.sealIfComplete(part, batch, nowNanos);
        }
        if (combine) {
            SealReason bySize = round.bySize();
            if (bySize != null) {
                return round.seal(bySize, nowNanos, p -> true);
            }
        } else {
            SealReason bySize = seal.bySize(batch.rows(), batch.dataBytes());
            if (bySize != null) {
                return seal(part, bySize, nowNanos);
            }
        }
        return true;
    }

    /**
     * True when the batch, counting its staged rows, would be sealed once they are committed: at
     * the end of the ledger entry it re-creates (the last staged row at {@code position}), or by
     * size.
     */
    boolean dueWithStaged(BatchBuilder batch, long position) {
        LedgerEntry pinned = batch.pinned();
        if (pinned != null) {
            return position >= pinned.last();
        }
        SealReason bySize =
                combine
                        ? round.bySize()
                        : seal.bySize(batch.rows() + batch.staged(), batch.dataBytes());
        return bySize != null;
    }

    // --- sealing ---------------------------------------------------------------------------------

    /**
     * Seals the open batch of {@code part}; it is sent at the end of the turn, once its boundaries
     * are committed with the source ({@link BatchHandoff#submitSealed}). True when the batch was
     * sealed or there was nothing to seal, false when the pipeline stops instead.
     */
    boolean seal(PartitionState part, SealReason reason, long nowNanos) {
        if (!staged.flush(part, nowNanos)) {
            return false; // staged rows exist only within process(), where records are at hand
        }
        BatchBuilder open = part.open;
        if (open == null || open.isEmpty()) {
            return true;
        }
        if (context.lifecycle().mode() == Lifecycle.Mode.STOP) {
            return false; // seal nothing further: the open batch will be abandoned
        }
        String problem = misaligned(open);
        if (problem != null) {
            context.lifecycle()
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
        if (open.pinned() != null) {
            return replays.seal(part, open, reason);
        }
        sealAs(part, open, newBounds(part, open), false, reason);
        return true;
    }

    /**
     * The boundaries of a batch not re-created exactly: its own range, the shard it hashes to and
     * its {@code now()} — recorded with its partition, which commits them before the batch is sent.
     */
    LedgerEntry newBounds(PartitionState part, BatchBuilder open) {
        // The batch's now() for transforms, DEFAULTs and keys: one reading per batch, when its
        // first row was decoded, as the server takes one per block — recorded, so that a replay
        // uses it again.
        long nowSeconds = batchNow(open);
        LedgerEntry bounds =
                new LedgerEntry(
                        part.name,
                        open.firstPosition(),
                        open.lastPosition(),
                        context.router().shardFor(part.name, open.firstPosition()),
                        nowSeconds);
        part.sealed(bounds);
        return bounds;
    }

    /**
     * Seals {@code open} as a batch of one partition under {@code bounds} and their token, and
     * hands it over.
     *
     * @param replayed true when {@code bounds} is the recorded entry the batch re-creates exactly
     */
    void sealAs(
            PartitionState part,
            BatchBuilder open,
            LedgerEntry bounds,
            boolean replayed,
            SealReason reason) {
        String token = token(part, bounds);
        long nowSeconds = bounds.nowSeconds() >= 0 ? bounds.nowSeconds() : clockSeconds();
        SealedBatch batch =
                new SealedBatch(
                        inbox, open, bounds, replayed, token, reason, nowSeconds, part.epoch);
        if (combine && open.pinned() == null) {
            round.remove(open);
        }
        part.open = null;
        handoff.sealed(batch);
    }

    /**
     * Seals every open batch — as one round when partitions are combined — and sends alone (or, on
     * a drain or a revocation, drops) the replayed parts still waiting for their batch.
     *
     * @param dropEmpty true to give empty open batches back to the pool (nothing more is read)
     */
    void sealAll(SealReason reason, long nowNanos, boolean dropEmpty) {
        if (combine && !round.seal(reason, nowNanos, p -> true)) {
            return;
        }
        for (PartitionState part : partitions.values()) {
            if (!seal(part, reason, nowNanos)) {
                return;
            }
            if (dropEmpty) {
                dropEmptyBatch(part);
            }
        }
        replays.settleWaitingParts(reason, nowNanos);
    }

    /**
     * Seals the open batches of the partitions {@code which} selects — as rounds when partitions
     * are combined. False when the pipeline stops instead.
     */
    boolean sealWhere(Predicate<PartitionState> which, SealReason reason, long nowNanos) {
        if (combine && !round.seal(reason, nowNanos, which)) {
            return false;
        }
        for (PartitionState p : partitions.values()) {
            if (which.test(p) && !seal(p, reason, nowNanos)) {
                return false;
            }
        }
        return true;
    }

    /** Seals the open batches of {@code ps} — as one round when partitions are combined. */
    void sealEach(List<PartitionState> ps, SealReason reason, long nowNanos) {
        if (combine) {
            round.seal(reason, nowNanos, ps::contains);
        } else {
            for (PartitionState p : ps) {
                seal(p, reason, nowNanos);
            }
        }
    }

    /**
     * Seals the batches (or the round) whose linger is up, except those of partitions at their
     * ceiling of batches in flight; returns how long until the next one is.
     *
     * @param maxWaitNanos the longest it returns
     */
    long sealLingering(long now, long maxWaitNanos) {
        if (combine) {
            return round.sealLingering(now, maxWaitNanos);
        }
        long wait = maxWaitNanos;
        for (PartitionState part : partitions.values()) {
            BatchBuilder open = part.open;
            if (open == null || open.isEmpty() || open.pinned() != null || part.atCeiling()) {
                continue;
            }
            long deadline = seal.lingerDeadline(open.pending().openedNanos());
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

    // --- batches dropped -------------------------------------------------------------------------

    /** An empty open batch goes back to the pool. */
    void dropEmptyBatch(PartitionState part) {
        if (part.open != null && part.open.isEmpty()) {
            blocks.give(part.open.buffers());
            part.open = null;
        }
    }

    /** The partition's open batch, if any, goes back to the pool as it is. */
    void discardOpen(PartitionState part) {
        if (part.open != null) {
            blocks.give(part.open.buffers());
            part.open = null;
        }
    }

    /** Stopping: open batches are never sent; their records hold back the commits (property 1). */
    void abandonAll() {
        for (PartitionState part : partitions.values()) {
            BatchBuilder open = part.open;
            if (open != null) {
                blocks.give(open.buffers()); // with the budget bytes it holds
                part.open = null;
            }
            if (part.ready != null) {
                blocks.give(part.ready.buffers());
                part.ready = null;
            }
        }
        round.clear();
    }

    /**
     * The partition is no longer the thread's: its open batch is abandoned (its records are the
     * next owner's to read), with a replayed part waiting for its batch.
     */
    void forget(PartitionState p) {
        if (p.open != null) {
            if (p.open.pinned() == null) {
                round.remove(p.open);
            }
            blocks.give(p.open.buffers()); // with the budget bytes it holds
            p.open = null;
        }
        if (p.ready != null) {
            blocks.give(p.ready.buffers());
            p.ready = null;
        }
    }

    /**
     * Partitions were forgotten: replayed groups waiting for one of them can no longer be whole.
     */
    void forgotten() {
        replays.regroup();
    }

    // --- what a sealed batch is made of ----------------------------------------------------------

    /** The deduplication token of a batch of one partition over {@code bounds} (property 2). */
    String token(PartitionState part, LedgerEntry bounds) {
        return DedupToken.of(
                context.pipeline(),
                part.run,
                source.name(),
                part.name,
                bounds.first(),
                bounds.last(),
                bounds.shard());
    }

    /** The deduplication token of a batch of several partitions, group {@code group}. */
    String groupToken(String run, String group, int shard) {
        return DedupToken.group(context.pipeline(), run, source.name(), group, shard);
    }

    /** The now() an open batch computes with (read at its first row; the clock if it has none). */
    long batchNow(BatchBuilder open) {
        return open.nowSeconds() >= 0 ? open.nowSeconds() : clockSeconds();
    }

    /** The clock's time in epoch seconds. */
    long clockSeconds() {
        return Math.floorDiv(context.clock().currentTimeMillis(), 1000);
    }

    /** Why the decoder or transforms left the batch's columns of unequal length, or null. */
    static String misaligned(BatchBuilder open) {
        try {
            open.block().rows();
            return null;
        } catch (IllegalStateException e) {
            return "the decoder or a transform did not append one value per column and row"
                    + " (a bug in it): "
                    + e.getMessage();
        }
    }
}
