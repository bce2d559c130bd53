package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The batches a pipeline thread re-creates from its partitions' ledger entries after a restart or a
 * rebalance (docs/pipeline.md, "The ledger"; property 2): an open batch is <i>pinned</i> to the
 * entry holding its first record, sealed at the entry's end and sent under the recorded shard,
 * {@code now()} and token when it is exactly the recorded batch — or, cut short, under a token of
 * its own range. A member of a batch of several partitions waits aside, complete, until every
 * member is ({@link PartitionState#ready}), and the batch is sent whole; a member whose batch
 * cannot be re-created whole is sent alone, once its writer has looked the group up (ADR 0011).
 * Part of the {@link BatchAccumulator}; used by its pipeline thread only.
 */
final class ReplayedBatches {
    private final BatchAccumulator batches;
    private final PipelineContext context;
    private final BlockPool blocks;
    private final BatchHandoff handoff;
    private final SettledInbox inbox;
    private final Map<String, PartitionState> partitions;

    ReplayedBatches(
            BatchAccumulator batches,
            PipelineContext context,
            BlockPool blocks,
            BatchHandoff handoff,
            SettledInbox inbox,
            Map<String, PartitionState> partitions) {
        this.batches = batches;
        this.context = context;
        this.blocks = blocks;
        this.handoff = handoff;
        this.inbox = inbox;
        this.partitions = partitions;
    }

    // --- pinning ---------------------------------------------------------------------------------

    /**
     * Before a record at {@code position} of a partition being replayed ({@code entry}: the entry
     * holding it or lying ahead, or null): seals the open batch when the record lies beyond the
     * entry the batch re-creates, or when it enters an entry the batch is not re-creating. False
     * when the pipeline stops instead.
     */
    boolean sealBefore(PartitionState part, LedgerEntry entry, long position, long nowNanos) {
        BatchBuilder open = part.open;
        if (open == null || open.isEmpty()) {
            return true;
        }
        LedgerEntry pinned = open.pinned();
        boolean boundary =
                pinned != null
                        ? position > pinned.last()
                        : entry != null && position >= entry.first();
        return !boundary || batches.seal(part, SealReason.REPLAY, nowNanos);
    }

    /**
     * An empty open batch of a partition being replayed is pinned to the entry holding the record.
     */
    static void pin(BatchBuilder open, LedgerEntry entry, long position) {
        open.pin(entry != null && entry.covers(position) ? entry : null);
    }

    /**
     * The recorded {@code now()} for a batch that has no row yet, or -1: its entry's; for a record
     * between two recorded batches, the next one's (the original run evaluated it in that batch's
     * context, unless it waited there longer than the linger).
     */
    static long recordedNow(PartitionState part, BatchBuilder batch, long position) {
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
        return -1;
    }

    // --- sealing ---------------------------------------------------------------------------------

    /**
     * After rows were committed to a pinned batch: once it reaches its entry's end it is sealed,
     * or, a member of a batch of several partitions, set aside until the others are complete. False
     * when the pipeline must stop instead.
     */
    boolean sealIfComplete(PartitionState part, BatchBuilder batch, long nowNanos) {
        LedgerEntry pinned = batch.pinned();
        if (!batch.isEmpty() && batch.lastPosition() >= pinned.last()) {
            if (pinned.group() != null && !pinned.sentAlone()) {
                readyForGroup(part, nowNanos);
            } else {
                return batches.seal(part, SealReason.REPLAY, nowNanos);
            }
        }
        return true;
    }

    /**
     * Seals {@code part}'s open batch {@code open}, which is pinned to a ledger entry; true when it
     * was sealed or dropped.
     */
    boolean seal(PartitionState part, BatchBuilder open, SealReason reason) {
        LedgerEntry pinned = open.pinned();
        if (open.lastPosition() < pinned.last()
                && (reason == SealReason.DRAIN || reason == SealReason.REVOKE)) {
            // A replayed batch cut short by a drain or a revocation is not sent at all: sent, it
            // would need a token of its own and write again rows the server may hold under the
            // recorded one. Its records hold the commit back; the next run (or owner) replays the
            // recorded batch whole.
            blocks.give(open.buffers()); // with the budget bytes it holds
            part.open = null;
            context.metrics().abandonedBatches.inc();
            return true;
        }
        if (pinned.group() != null) {
            return sealMember(part, open, pinned, reason);
        }
        // The recorded token only for a batch that is exactly the recorded one: a batch sealed
        // early must not claim the rest of the range, nor may the rest of a range sealed early
        // claim the whole — a server holding that token would drop the rows it lacks (ADR 0005).
        boolean replayed =
                open.firstPosition() == pinned.first()
                        && open.lastPosition() == pinned.last()
                        && pinned.shard() < context.router().shards();
        batches.sealAs(
                part, open, replayed ? pinned : batches.newBounds(part, open), replayed, reason);
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
            PartitionState part, BatchBuilder open, LedgerEntry pinned, SealReason reason) {
        boolean sameShards = pinned.shard() < context.router().shards();
        boolean whole =
                sameShards
                        && open.firstPosition() == pinned.first()
                        && open.lastPosition() == pinned.last();
        long nowSeconds = pinned.nowSeconds() >= 0 ? pinned.nowSeconds() : batches.clockSeconds();
        LedgerEntry bounds;
        if (whole) {
            bounds = pinned.alone(); // marked: never waited for nor re-created whole again
        } else {
            int shard =
                    sameShards
                            ? pinned.shard()
                            : context.router().shardFor(part.name, open.firstPosition());
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
        String token = batches.token(part, bounds);
        String groupToken =
                batches.groupToken(
                        pinned.groupRun() != null ? pinned.groupRun() : part.run,
                        pinned.baseGroup(),
                        pinned.shard());
        part.open = null;
        handoff.sealed(
                SealedBatch.memberAlone(
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

    // --- groups ----------------------------------------------------------------------------------

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
                            && e.shard() < context.router().shards();
        }
        if (ready.size() == members && exact) {
            ready.sort((a, b) -> a.name.compareTo(b.name));
            LedgerEntry any = ready.get(0).ready.pinned();
            List<SealedBatch.Segment> segments = new ArrayList<>();
            for (PartitionState p : ready) {
                segments.add(new SealedBatch.Segment(p.ready, p.ready.pinned(), p.epoch));
                p.ready = null;
            }
            long nowSeconds = any.nowSeconds() >= 0 ? any.nowSeconds() : batches.clockSeconds();
            String token =
                    batches.groupToken(
                            any.groupRun() != null ? any.groupRun() : ready.get(0).run,
                            any.baseGroup(),
                            any.shard());
            handoff.sealed(
                    new SealedBatch(
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
        BatchBuilder later = p.open;
        p.open = p.ready;
        p.ready = null;
        batches.seal(p, SealReason.REPLAY, nowNanos);
        if (p.open == null) {
            p.open = later;
        }
    }

    /**
     * Replayed parts still waiting for their batch: under {@code reason}, sent alone or dropped.
     */
    void settleWaitingParts(SealReason reason, long nowNanos) {
        for (PartitionState p : partitions.values()) {
            if (p.ready == null) {
                continue;
            }
            if (reason == SealReason.DRAIN || reason == SealReason.REVOKE) {
                // Not sent: the next run or owner replays the batch whole.
                blocks.give(p.ready.buffers());
                p.ready = null;
                context.metrics().abandonedBatches.inc();
            } else {
                sealAlone(p, nowNanos);
            }
        }
    }

    /**
     * Partitions were forgotten: a replayed group waiting for one of them can no longer be whole.
     */
    void regroup() {
        for (PartitionState p : List.copyOf(partitions.values())) {
            if (p.ready != null) {
                trySealGroup(p.ready.pinned().group(), context.clock().nanoTime());
            }
        }
    }
}
