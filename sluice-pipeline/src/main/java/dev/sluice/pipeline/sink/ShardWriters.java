package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.sort.ShardKey;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * The writers of every shard: one {@link ShardWriter} per shard, each with its {@code
 * inflight_per_shard} writer threads. Sealed batches go to the shard chosen at sealing (or, with a
 * sharding key, their rows to the shards it picks); submitting never blocks.
 */
public final class ShardWriters implements BatchSink {
    private final List<ShardWriter> writers;
    private final AtomicInteger inFlight;
    private final DeliveryNotes notes;
    private volatile KeyedSplit keyed;

    private ShardWriters(List<ShardWriter> writers, AtomicInteger inFlight, DeliveryNotes notes) {
        this.writers = writers;
        this.inFlight = inFlight;
        this.notes = notes;
    }

    /**
     * Rows go to the shard {@code key} picks (sink.clickhouse.shard_by) instead of whole batches to
     * the shard chosen at sealing; the parts' copies take and give back budget bytes.
     */
    public ShardWriters keyed(ShardKey key, LongConsumer acquire, LongConsumer release) {
        this.keyed = new KeyedSplit(key, acquire, release);
        return this;
    }

    /**
     * Builds the writers of every shard of {@code sink}.
     *
     * @param inserters opens a connection to a replica URL
     * @param plan how batches that name no table ({@link SealedBatch#target()}) become INSERTs into
     *     the sink's table; each writer thread gets its own shaper of it; null when every batch
     *     names its table
     * @param policies per shard: how an INSERT whose acknowledgement was lost is handled (null with
     *     {@code plan})
     * @param lookup asks a replica about an INSERT's attempts
     * @param unresolved INSERTs an earlier run left with an unknown outcome, and this run's
     * @param splits INSERTs sent in halves for their size, by earlier runs and this one
     * @param rejected where rows the server rejects for their content go (errors.policy)
     * @param random the jitter source of the backoff, and of this start's query-id nonce
     */
    public static ShardWriters create(
            SinkSpec sink,
            Function<String, BlockInserter> inserters,
            InsertPlan plan,
            List<OutcomePolicy> policies,
            TraceLookup lookup,
            UnresolvedInserts unresolved,
            SplitInserts splits,
            RejectedRows rejected,
            Metrics metrics,
            SinkSupervisor supervisor,
            Clock clock,
            Random random) {
        if (policies != null && policies.size() != sink.shards().size()) {
            throw new IllegalArgumentException(
                    policies.size() + " outcome policies for " + sink.shards().size() + " shards");
        }
        String nonce = Long.toString(random.nextLong() >>> 24, 36);
        DeliveryNotes notes = new DeliveryNotes();
        AtomicInteger inFlight = new AtomicInteger();
        List<ShardWriter> writers = new ArrayList<>();
        for (int s = 0; s < sink.shards().size(); s++) {
            ShardSpec shard = sink.shards().get(s);
            List<BatchSender> senders = new ArrayList<>();
            for (int lane = 0; lane < sink.inflightPerShard(); lane++) {
                senders.add(
                        new BatchSender(
                                        s,
                                        sink.table(),
                                        sink.settings(),
                                        new Replicas(shard.replicas(), inserters, lane),
                                        new Backoff(sink.retry(), random),
                                        clock,
                                        plan == null ? null : plan.newShaper(metrics),
                                        metrics.shard(s),
                                        supervisor,
                                        policies == null ? null : policies.get(s),
                                        lookup,
                                        unresolved,
                                        notes,
                                        nonce,
                                        splits,
                                        rejected)
                                .shapers(p -> p.newShaper(metrics)));
            }
            writers.add(new ShardWriter(s, senders, supervisor, inFlight));
        }
        return new ShardWriters(List.copyOf(writers), inFlight, notes);
    }

    /** The INSERTs written twice, maybe twice, or left unknown so far: one line each. */
    public List<String> deliveryNotes() {
        return notes.lines();
    }

    public void start(String threadNamePrefix) {
        writers.forEach(w -> w.start(threadNamePrefix));
    }

    @Override
    public void submit(SealedBatch batch) {
        KeyedSplit split = keyed;
        if (split == null) {
            inFlight.incrementAndGet();
            writers.get(batch.shard()).submit(batch);
            return;
        }
        for (SealedBatch part : split.split(batch)) {
            inFlight.incrementAndGet();
            writers.get(part.shard()).submit(part);
        }
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    /** Batches queued or being sent by shard {@code shard}. */
    public int inFlight(int shard) {
        return writers.get(shard).inFlight();
    }

    /** No more batches will be submitted: writers end once their queues are empty. */
    public void finish() {
        writers.forEach(ShardWriter::finish);
    }

    /** Stops the writers after their current attempt; what is queued is abandoned. */
    public void interrupt() {
        writers.forEach(ShardWriter::interrupt);
    }

    /**
     * Waits for every writer to end until {@code deadlineNanos} (System.nanoTime); true if all did.
     */
    public boolean join(long deadlineNanos) throws InterruptedException {
        for (ShardWriter w : writers) {
            if (!w.join(deadlineNanos)) {
                return false;
            }
        }
        return true;
    }
}
