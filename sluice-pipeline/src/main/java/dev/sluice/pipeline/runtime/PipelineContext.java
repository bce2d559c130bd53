package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.BatchSink;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.ShardRouter;
import dev.sluice.pipeline.time.Clock;
import java.util.function.Consumer;

/**
 * What every pipeline thread of a pipeline shares: its name and run, how batches are sealed and
 * routed, the sink, the in-flight budget, the error policy, the committer, the lifecycle, the
 * metrics, the clock and the intervals the threads keep.
 *
 * @param run the job's run id, part of every token whose partition's checkpoint has none (from the
 *     checkpoint directory, or drawn for this run)
 * @param revokeTimeoutNanos how long a revocation waits for the revoked partitions' batches
 * @param warnings where the threads report what the operator should know while running
 * @param budgetGrain bytes a thread takes from the budget at a time, so that the shared counter is
 *     touched once per grain rather than once per record
 */
record PipelineContext(
        String pipeline,
        String run,
        SealPolicy seal,
        ShardRouter router,
        BatchSink sink,
        InflightBudget budget,
        RecordErrors errors,
        Committer committer,
        Lifecycle lifecycle,
        Metrics metrics,
        Clock clock,
        long commitIntervalNanos,
        long revokeTimeoutNanos,
        long budgetGrain,
        Consumer<String> warnings) {}
