package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.DedupToken;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The round a pipeline thread gathers from a source whose partitions are read side by side (Kafka):
 * the open batches of every partition (not replays), sealed together as one batch of several
 * partitions — many partitions, few INSERTs (docs/pipeline.md, "Batches"). It counts their rows and
 * data bytes, which the size limits apply to together, and its linger starts with the oldest first
 * row among them; it keeps the round's {@code now()}, which every batch opened during it takes;
 * sealed, the rows go in partition-name order, each member's range recorded with the group, so that
 * a replay re-creates the same batch under the same token (property 2). Part of the {@link
 * BatchAccumulator}; used by its pipeline thread only.
 */
final class Round {
    private final BatchAccumulator batches;
    private final PipelineContext context;
    private final SealPolicy policy;
    private final BatchHandoff handoff;
    private final SettledInbox inbox;
    private final Map<String, PartitionState> partitions;

    private int rows;
    private long bytes;

    /** The {@code now()} of the round being gathered, or -1 before the first. */
    private long nowSeconds = -1;

    Round(
            BatchAccumulator batches,
            PipelineContext context,
            BatchHandoff handoff,
            SettledInbox inbox,
            Map<String, PartitionState> partitions) {
        this.batches = batches;
        this.context = context;
        this.policy = context.seal();
        this.handoff = handoff;
        this.inbox = inbox;
        this.partitions = partitions;
    }

    /** The size reason to seal the round now, or null. */
    SealReason bySize() {
        return policy.bySize(rows, bytes);
    }

    /** A batch of the round grew by {@code rows} rows (fewer: negative) and {@code bytes}. */
    void grew(int rows, long bytes) {
        this.rows += rows;
        this.bytes += bytes;
    }

    /** {@code batch} leaves the round (sealed or dropped) with its rows and data bytes. */
    void remove(BatchBuilder batch) {
        rows -= batch.rows();
        bytes -= batch.dataBytes();
    }

    /** Every open batch was abandoned. */
    void clear() {
        rows = 0;
        bytes = 0;
    }

    /**
     * The round's {@code now()}: {@code clockSeconds} when a new round starts (no row in it yet),
     * else the one it started with.
     */
    long nowSeconds(long clockSeconds) {
        if (rows == 0 || nowSeconds < 0) {
            nowSeconds = clockSeconds; // a new round
        }
        return nowSeconds;
    }

    /**
     * Seals, as one batch per table, the open batches of the partitions {@code which} selects (not
     * replays): a source whose partitions are read side by side gets few INSERTs however many
     * partitions it has. A single one is sealed as a batch of its own.
     */
    boolean seal(SealReason reason, long nowNanos, Predicate<PartitionState> which) {
        if (!batches.flushCurrent(nowNanos)) {
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
        // One batch per table: its rows go in the INSERTs of one table.
        Map<Lane, List<PartitionState>> byLane = new LinkedHashMap<>();
        for (PartitionState m : members) {
            byLane.computeIfAbsent(m.lane, l -> new ArrayList<>()).add(m);
        }
        for (List<PartitionState> same : byLane.values()) {
            boolean sealed =
                    same.size() == 1
                            ? batches.seal(same.get(0), reason, nowNanos)
                            : sealCombined(same, reason);
            if (!sealed) {
                return false;
            }
        }
        return true;
    }

    /**
     * The open batches of {@code members} as one batch: their rows in partition-name order, each
     * partition's range recorded with the group ({@code <hash>.<members>} of all ranges) so that a
     * replay re-creates the same batch, and a token of the group (property 2).
     */
    private boolean sealCombined(List<PartitionState> members, SealReason reason) {
        if (context.lifecycle().mode() == Lifecycle.Mode.STOP) {
            return false;
        }
        for (PartitionState m : members) {
            String problem = BatchAccumulator.misaligned(m.open);
            if (problem != null) {
                context.lifecycle()
                        .fail(
                                new Failure(problem + " (batch of " + m.name + ")", m.name, null),
                                false);
                return false;
            }
        }
        members.sort((a, b) -> a.name.compareTo(b.name));
        // The round's now(); each member records its own (the same unless it was opened in an
        // earlier round), and a replay of the group takes the first member's, as here.
        long nowSeconds = batches.batchNow(members.get(0).open);
        List<LedgerEntry> ranges = new ArrayList<>();
        for (PartitionState m : members) {
            ranges.add(new LedgerEntry(m.name, m.open.firstPosition(), m.open.lastPosition(), 0));
        }
        String group = DedupToken.groupOf(ranges);
        int shard = context.router().shardFor("g" + group, 0);
        // The token's run goes with the group: a member replayed alone by an owner whose partition
        // carries another run looks the group up under this one (docs/adr/0011).
        String run = members.get(0).run;
        String recorded = LedgerEntry.groupWithRun(group, run);
        List<SealedBatch.Segment> segments = new ArrayList<>();
        for (PartitionState m : members) {
            LedgerEntry bounds =
                    new LedgerEntry(
                            m.name,
                            m.open.firstPosition(),
                            m.open.lastPosition(),
                            shard,
                            batches.batchNow(m.open),
                            recorded);
            m.sealed(bounds);
            segments.add(new SealedBatch.Segment(m.open, bounds, m.epoch));
            remove(m.open);
            m.open = null;
        }
        String token = batches.groupToken(run, group, shard);
        handoff.sealed(new SealedBatch(inbox, segments, shard, false, token, reason, nowSeconds));
        return true;
    }

    /**
     * Seals the round once its linger is up — it starts with the oldest first row among its open
     * batches — leaving out partitions at their ceiling of batches in flight; returns how long
     * until it is up.
     *
     * @param maxWaitNanos the longest it returns
     */
    long sealLingering(long now, long maxWaitNanos) {
        long wait = maxWaitNanos;
        long oldest = Long.MAX_VALUE;
        for (PartitionState part : partitions.values()) {
            BatchBuilder open = part.open;
            if (open != null && !open.isEmpty() && open.pinned() == null) {
                oldest = Math.min(oldest, open.pending().openedNanos());
            }
        }
        if (oldest == Long.MAX_VALUE) {
            return wait;
        }
        long deadline = policy.lingerDeadline(oldest);
        if (now - deadline >= 0) {
            return seal(SealReason.LINGER, now, p -> !p.atCeiling()) ? wait : 0;
        }
        return Math.min(wait, deadline - now);
    }
}
