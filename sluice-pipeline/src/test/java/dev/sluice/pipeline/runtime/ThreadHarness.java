package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.BatchSink;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.sink.ShardRouter;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.RecordingDeadLetters;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.time.ManualClock;
import dev.sluice.pipeline.transform.Transform;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One {@link PipelineThread} with fakes around it, driven turn by turn on a manual clock: the sink
 * only collects sealed batches, and the test settles them.
 */
final class ThreadHarness {
    static final TableSchema TABLE = Tables.table("t", "n UInt64", "s String");

    final ManualClock clock = new ManualClock();
    final List<String> events = new CopyOnWriteArrayList<>();
    final MemorySource source = new MemorySource("mem", events);
    final Collector sink = new Collector();
    final Lifecycle lifecycle = new Lifecycle();
    final RecordingDeadLetters deadLetters = new RecordingDeadLetters(events);
    final List<String> warnings = new CopyOnWriteArrayList<>();
    TableSchema table = TABLE;
    List<String> inputs = List.of("n", "s");
    ErrorPolicy policy = ErrorPolicy.FAIL;
    long maxErrors = -1;
    int maxRows = 1000;
    long maxBytes = 1 << 20;
    long lingerNanos = 1_000_000_000L;
    long commitIntervalNanos = 5_000_000_000L;
    long budgetBytes = 64 << 20;
    double high = 0.8;
    double low = 0.5;
    long grain = 64;
    int shards = 2;
    long revokeTimeoutNanos = 1_000_000_000L;

    /** Where the source keeps its checkpoints (a checkpoint directory, for crash tests). */
    LocalCheckpoints checkpoints;

    List<Transform> transforms = List.of();

    /** The tables and lanes of a thread that follows them; null: one decoder for every record. */
    Lanes lanes;

    InflightBudget budget;
    Metrics metrics;
    PipelineThread thread;

    /** The sink: collects batches; a batch is in flight until the test settles it. */
    final class Collector implements BatchSink {
        final List<SealedBatch> submitted = new ArrayList<>();
        int settled;

        /** Acknowledge every batch the moment it is submitted, as a writer racing ahead would. */
        boolean ackOnSubmit;

        @Override
        public void submit(SealedBatch batch) {
            submitted.add(batch);
            if (ackOnSubmit) {
                ack(batch);
            }
        }

        @Override
        public int inFlight() {
            return submitted.size() - settled;
        }

        void ack(SealedBatch b) {
            settled++;
            b.settle(SealedBatch.Outcome.WRITTEN);
        }

        void ackAll() {
            for (SealedBatch b : submitted) {
                if (b.outcome() == SealedBatch.Outcome.IN_FLIGHT) {
                    ack(b);
                }
            }
        }
    }

    ThreadHarness start() {
        budget = new InflightBudget(budgetBytes, high, low, () -> metrics.pauseEvents.inc());
        metrics = new Metrics("test", shards, new NoProbes());
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        DeadLetterLog log = new DeadLetterLog(deadLetters);
        if (checkpoints != null) {
            source.checkpoints(checkpoints);
        }
        PipelineContext context =
                new PipelineContext(
                        "test",
                        checkpoints == null ? "r1" : checkpoints.run(),
                        new SealPolicy(maxRows, maxBytes, lingerNanos),
                        new ShardRouter(Collections.nCopies(shards, 1)),
                        sink,
                        budget,
                        new RecordErrors(policy, maxErrors, log, metrics),
                        new Committer(log, metrics),
                        lifecycle,
                        metrics,
                        clock,
                        commitIntervalNanos,
                        revokeTimeoutNanos,
                        grain,
                        warnings::add);
        thread =
                lanes != null
                        ? new PipelineThread(
                                context,
                                source,
                                lanes,
                                null,
                                new BlockPool(null, 0, budget::release))
                        : new PipelineThread(
                                context,
                                source,
                                new TestDecoder(columns, inputs),
                                transforms,
                                new BlockPool(columns));
        return this;
    }

    /** Runs turns until the thread would park (or is done), at most {@code max} turns. */
    void turns(int max) {
        for (int i = 0; i < max && !thread.done(); i++) {
            thread.runOnce();
        }
    }

    /** Runs turns until the thread is done; fails after {@code max}. */
    void runToEnd(int max) {
        for (int i = 0; i < max; i++) {
            if (thread.done()) {
                return;
            }
            sink.ackAll();
            thread.runOnce();
        }
        if (!thread.done()) {
            throw new AssertionError("the thread did not finish in " + max + " turns");
        }
    }

    List<SealedBatch> batches() {
        return sink.submitted;
    }
}
