package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.BatchQueue;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.ShardRouter;
import dev.sluice.pipeline.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What every pipeline thread of a pipeline shares.
 *
 * @param run the job's run id, part of every token (from the ledger, or drawn for this run)
 * @param resumeFrom committed positions when the pipeline started, by partition
 * @param replay the ledger entries to re-create, by partition (empty lists without a ledger)
 * @param budgetGrain bytes a thread takes from the budget at a time, so that the shared counter is
 *     touched once per grain rather than once per record
 */
record SharedParts(
        String pipeline,
        String run,
        SealPolicy seal,
        ShardRouter router,
        BatchQueue sink,
        InflightBudget budget,
        RecordErrors errors,
        Committer committer,
        Lifecycle lifecycle,
        Metrics metrics,
        Clock clock,
        long commitIntervalNanos,
        Map<String, Long> resumeFrom,
        Function<String, List<LedgerEntry>> replay,
        long budgetGrain) {}
