package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.BatchSink;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.source.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pipeline thread's batches from sealing until it takes them back, like the sender of Kafka's
 * producer: the batches a turn sealed are handed to the sink at its end, once their boundaries are
 * committed with the source (property 2); settled ones come back through the {@link SettledInbox},
 * and their acknowledgements reach their partitions' trackers unless the partition was revoked
 * since (property 1). Used by its pipeline thread only.
 */
final class BatchHandoff {
    private final Source source;
    private final BatchSink sink;
    private final Lifecycle lifecycle;
    private final Metrics metrics;
    private final Map<String, PartitionState> partitions;
    private final CommitCoordinator commits;
    private final SettledInbox inbox;
    private final BudgetAccount account;
    private final BlockPool blocks;

    /** Sealed batches whose boundaries are not yet committed with the source: not sent yet. */
    private final List<SealedBatch> unrecorded = new ArrayList<>();

    /** Batches sealed and not yet taken back. */
    private int inFlight;

    BatchHandoff(
            PipelineContext context,
            Source source,
            Map<String, PartitionState> partitions,
            CommitCoordinator commits,
            SettledInbox inbox,
            BudgetAccount account,
            BlockPool blocks) {
        this.source = source;
        this.sink = context.sink();
        this.lifecycle = context.lifecycle();
        this.metrics = context.metrics();
        this.partitions = partitions;
        this.commits = commits;
        this.inbox = inbox;
        this.account = account;
        this.blocks = blocks;
    }

    /** A sealed batch joins the turn's: sent at its end, after its boundaries are committed. */
    void sealed(SealedBatch batch) {
        account.holdCopy(batch); // the one block it is copied into, if several
        inFlight++;
        metrics.seals(batch.reason()).inc();
        metrics.batchRows.observe(batch.rows());
        unrecorded.add(batch);
    }

    /** True when batches sealed this turn are still to be recorded and sent. */
    boolean hasUnrecorded() {
        return !unrecorded.isEmpty();
    }

    /** Batches sealed and not yet taken back settled. */
    int inFlight() {
        return inFlight;
    }

    /**
     * Hands the batches sealed this turn to the sink — after committing their boundaries with the
     * source, so that whoever replays their partitions (this host after a crash, another consumer
     * of the group) re-creates exactly these batches with these tokens (property 2). One commit
     * covers every partition sealed in the turn.
     */
    void submitSealed() {
        if (unrecorded.isEmpty()) {
            return;
        }
        if (lifecycle.abandonQueued()) {
            abandonUnrecorded(); // the sink failed: nothing more is sent
            return;
        }
        if (source.replayable()) {
            List<PartitionState> touched = new ArrayList<>();
            for (SealedBatch b : unrecorded) {
                for (SealedBatch.Segment sg : b.segments()) {
                    PartitionState p = partitions.get(sg.partition());
                    if (p != null && p.epoch == sg.epoch() && !touched.contains(p)) {
                        touched.add(p);
                    }
                }
            }
            if (!commits.commit(touched)) {
                abandonUnrecorded();
                return;
            }
        }
        for (SealedBatch b : unrecorded) {
            sink.submit(b);
        }
        unrecorded.clear();
    }

    /** Batches never sent: they settle at once as abandoned and hold their commits back. */
    private void abandonUnrecorded() {
        List<SealedBatch> never = new ArrayList<>(unrecorded);
        unrecorded.clear();
        for (SealedBatch b : never) {
            b.settle(SealedBatch.Outcome.ABANDONED);
        }
    }

    /**
     * Takes back the batches writers settled: acknowledgements reach the trackers here, unless the
     * batch's partition was revoked since it was sealed (its new owner reads it again).
     */
    void takeSettled() {
        for (SealedBatch b; (b = inbox.poll()) != null; ) {
            inFlight--;
            account.releaseCopy(b);
            boolean written = b.outcome() == SealedBatch.Outcome.WRITTEN;
            for (SealedBatch.Segment sg : b.segments()) {
                PartitionState p = partitions.get(sg.partition());
                boolean mine = p != null && p.epoch == sg.epoch();
                if (written) {
                    if (mine) {
                        p.tracker.acknowledge(sg.pending());
                    } else {
                        metrics.lateAcknowledgements.inc();
                    }
                }
                blocks.give(sg.builder().buffers()); // the budget bytes go to the pool with them
            }
            if (!written) {
                metrics.abandonedBatches.inc();
            }
        }
        if (account.paused()) {
            account.dropPooled();
        }
    }
}
