package dev.sluice.pipeline.metrics;

import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.sink.ErrorClass;
import dev.sluice.pipeline.sink.OutcomeCheck;
import dev.sluice.pipeline.sink.RetryReason;
import dev.sluice.pipeline.sink.SealReason;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every {@code etl_*} series of one pipeline (docs/metrics.md lists them), registered once, here,
 * into a registry the pipeline owns — not the global default, so one JVM can run several pipelines,
 * as tests do (property 7). Hot paths update the pre-resolved data points held in public final
 * fields; nothing looks up a label at run time. Gauges of live state are read from {@link Probes}
 * when scraped.
 */
public final class Metrics {
    private static final double[] SECONDS_BUCKETS = {
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300
    };
    private static final double[] ROWS_BUCKETS = {
        1, 10, 100, 1_000, 10_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 4_000_000
    };

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<ShardMetrics> shards;
    private final Map<SealReason, CounterDataPoint> seals = new EnumMap<>(SealReason.class);
    private final Map<Presorter.Outcome, CounterDataPoint> presorted =
            new EnumMap<>(Presorter.Outcome.class);
    private final CounterDataPoint presortSkipped;

    /** Records the sources handed to the pipeline. */
    public final CounterDataPoint sourceRecords;

    public final CounterDataPoint skipped;
    public final CounterDataPoint filtered;
    public final CounterDataPoint deadLettered;
    public final CounterDataPoint pauseEvents;
    public final CounterDataPoint commits;
    public final CounterDataPoint abandonedBatches;
    public final CounterDataPoint partitionsAssigned;
    public final CounterDataPoint partitionsRevoked;
    public final CounterDataPoint revokeTimeouts;
    public final CounterDataPoint lateAcknowledgements;

    /** Tables found altered because the server refused an INSERT made for their older layout. */
    public final CounterDataPoint tableChangesByRefusal;

    /** Tables found altered by the writer's periodic look at their columns. */
    public final CounterDataPoint tableChangesByCheck;

    public final DistributionDataPoint commitSeconds;
    public final DistributionDataPoint e2eSeconds;
    public final DistributionDataPoint batchRows;

    public Metrics(String pipeline, int shardCount, Probes probes) {
        sourceRecords =
                counter("etl_source_records_total", "Records read from the source.", "pipeline")
                        .labelValues(pipeline);
        skipped =
                counter(
                                "etl_records_skipped_total",
                                "Records rejected by the decoder or a transform and skipped"
                                        + " (on_error: skip).",
                                "pipeline")
                        .labelValues(pipeline);
        filtered =
                counter(
                                "etl_records_filtered_total",
                                "Records a transform dropped on purpose (a filter).",
                                "pipeline")
                        .labelValues(pipeline);
        deadLettered =
                counter(
                                "etl_dead_letter_records_total",
                                "Records rejected and written to the dead-letter file.",
                                "pipeline")
                        .labelValues(pipeline);
        pauseEvents =
                counter(
                                "etl_backpressure_pause_events_total",
                                "Times the sources were paused because in-flight bytes reached the"
                                        + " high watermark.",
                                "pipeline")
                        .labelValues(pipeline);
        commits =
                counter(
                                "etl_checkpoint_commits_total",
                                "Source position commits (each may cover several partitions).",
                                "pipeline")
                        .labelValues(pipeline);
        abandonedBatches =
                counter(
                                "etl_sink_abandoned_batches_total",
                                "Sealed batches this run will not write (stop, or a fatal error);"
                                        + " their records are read again after a restart.",
                                "pipeline")
                        .labelValues(pipeline);
        partitionsAssigned =
                counter(
                                "etl_source_partitions_assigned_total",
                                "Partitions a pipeline thread started to own (files opened, Kafka"
                                        + " partitions assigned).",
                                "pipeline")
                        .labelValues(pipeline);
        partitionsRevoked =
                counter(
                                "etl_source_partitions_revoked_total",
                                "Partitions a pipeline thread gave up (revoked or lost in a"
                                        + " rebalance).",
                                "pipeline")
                        .labelValues(pipeline);
        revokeTimeouts =
                counter(
                                "etl_source_revoke_timeouts_total",
                                "Revocations that gave up waiting for their partitions' batches:"
                                        + " the next owner reads them again.",
                                "pipeline")
                        .labelValues(pipeline);
        lateAcknowledgements =
                counter(
                                "etl_sink_late_acknowledgements_total",
                                "Batches acknowledged after their partition was revoked: dropped"
                                        + " (the partition's next owner replays them).",
                                "pipeline")
                        .labelValues(pipeline);
        Counter tableChanges =
                counter(
                        "etl_sink_table_changes_total",
                        "Tables found altered while data flowed and described again, by how:"
                                + " refusal (the server refused an INSERT made for the table as it"
                                + " was), check (the periodic look at the table's columns).",
                        "pipeline",
                        "noticed");
        tableChangesByRefusal = tableChanges.labelValues(pipeline, "refusal");
        tableChangesByCheck = tableChanges.labelValues(pipeline, "check");
        commitSeconds =
                Histogram.builder()
                        .name("etl_checkpoint_commit_duration_seconds")
                        .help("Time a commit to the source took (a state file, consumer offsets).")
                        .labelNames("pipeline")
                        .classicUpperBounds(SECONDS_BUCKETS)
                        .classicOnly()
                        .withoutExemplars()
                        .register(registry)
                        .labelValues(pipeline);
        e2eSeconds =
                Histogram.builder()
                        .name("etl_e2e_latency_seconds")
                        .help(
                                "From reading a batch's first record to the server's"
                                        + " acknowledgement of the batch.")
                        .labelNames("pipeline")
                        .classicUpperBounds(SECONDS_BUCKETS)
                        .classicOnly()
                        .withoutExemplars()
                        .register(registry)
                        .labelValues(pipeline);
        batchRows =
                Histogram.builder()
                        .name("etl_sink_batch_rows")
                        .help("Rows per sealed batch.")
                        .labelNames("pipeline")
                        .classicUpperBounds(ROWS_BUCKETS)
                        .classicOnly()
                        .withoutExemplars()
                        .register(registry)
                        .labelValues(pipeline);
        Counter sealCounter =
                counter(
                        "etl_sink_seals_total",
                        "Batches sealed, by reason: rows, bytes, linger, partition_end, replay,"
                                + " backpressure, drain, revoke.",
                        "pipeline",
                        "reason");
        for (SealReason r : SealReason.values()) {
            seals.put(r, sealCounter.labelValues(pipeline, r.label()));
        }
        Counter presortCounter =
                counter(
                        "etl_sink_presort_blocks_total",
                        "Blocks pre-sorted before sending (presort), by outcome: sorted,"
                                + " already_sorted, unsorted (a key or value not computed here),"
                                + " skipped_no_backlog (presort: auto, no batch waiting).",
                        "pipeline",
                        "outcome");
        for (Presorter.Outcome o : Presorter.Outcome.values()) {
            String outcome =
                    switch (o) {
                        case SORTED -> "sorted";
                        case ALREADY_SORTED -> "already_sorted";
                        case KEY_UNSUPPORTED, VALUE_UNSUPPORTED -> "unsorted";
                    };
            presorted.put(o, presortCounter.labelValues(pipeline, outcome));
        }
        presortSkipped = presortCounter.labelValues(pipeline, "skipped_no_backlog");
        shards = shardMetrics(pipeline, shardCount);
        gauges(pipeline, shardCount, probes);
    }

    private List<ShardMetrics> shardMetrics(String pipeline, int shardCount) {
        Counter records =
                counter(
                        "etl_sink_records_total",
                        "Rows this run wrote: acknowledged by ClickHouse, or found written in its"
                                + " query log after an interrupted INSERT.",
                        "pipeline",
                        "shard");
        Counter bytes =
                counter(
                        "etl_sink_bytes_total",
                        "Uncompressed Native bytes of written INSERTs.",
                        "pipeline",
                        "shard");
        Counter wireBytes =
                counter(
                        "etl_sink_wire_bytes_total",
                        "Bytes sent on the wire (after compression) for acknowledged batches.",
                        "pipeline",
                        "shard");
        Counter batches =
                counter(
                        "etl_sink_batches_total",
                        "Batches this run wrote (every INSERT of them acknowledged or found"
                                + " written).",
                        "pipeline",
                        "shard");
        Counter inserts =
                counter(
                        "etl_sink_inserts_total",
                        "INSERTs known written: one per batch, more when a batch is split by"
                                + " partition or sent in default groups.",
                        "pipeline",
                        "shard");
        Counter retries =
                counter(
                        "etl_sink_retries_total",
                        "INSERTs sent again, by reason: connection (failed before the data was"
                                + " sent), server (a passing server error), not_written (interrupted"
                                + " after the data was sent; the server's log shows it not"
                                + " written), deduplicated (interrupted; the table drops repeated"
                                + " blocks), unknown (interrupted; outcome unknown, sent again"
                                + " under on_unknown_outcome: resend).",
                        "pipeline",
                        "shard",
                        "reason");
        Counter errors =
                counter(
                        "etl_sink_errors_total",
                        "Failed insert attempts, by class: connection, interrupted (after the"
                                + " data was sent) and server (retried), content (bisected),"
                                + " size (split), fatal (stops the pipeline).",
                        "pipeline",
                        "shard",
                        "class");
        Counter checks =
                counter(
                        "etl_sink_outcome_checks_total",
                        "INSERTs whose outcome was looked up on the server (interrupted after"
                                + " their data was sent, or replayed after a restart), by result:"
                                + " written (not sent again), not_written (sent again), unknown.",
                        "pipeline",
                        "shard",
                        "result");
        Counter duplicated =
                counter(
                        "etl_sink_rows_duplicated_total",
                        "Extra copies of rows in the table: an INSERT found written more than"
                                + " once.",
                        "pipeline",
                        "shard");
        Counter possiblyDuplicated =
                counter(
                        "etl_sink_rows_possibly_duplicated_total",
                        "Rows sent again after their INSERT's outcome stayed unknown: they may be"
                                + " in the table twice.",
                        "pipeline",
                        "shard");
        Counter unresolved =
                counter(
                        "etl_sink_rows_unresolved_total",
                        "Rows of INSERTs whose outcome is unknown and that this run did not send"
                                + " again (it stopped); a resumed run looks them up first.",
                        "pipeline",
                        "shard");
        Counter alreadyWritten =
                counter(
                        "etl_sink_rows_already_written_total",
                        "Rows of batches replayed after a restart that an earlier run had written"
                                + " (found in the server's query log): not sent again, not"
                                + " counted as written by this run.",
                        "pipeline",
                        "shard");
        Counter rejected =
                counter(
                        "etl_sink_rows_rejected_total",
                        "Rows the server rejected for their content (found by bisecting their"
                                + " batch): dead-lettered or skipped by errors.policy, the rest of"
                                + " the batch written.",
                        "pipeline",
                        "shard");
        Counter reencoded =
                counter(
                        "etl_sink_rows_reencoded_total",
                        "Rows staged for a table that was altered while they were in flight,"
                                + " re-encoded for it as it is now (columns dropped, converted or"
                                + " left to their DEFAULT).",
                        "pipeline",
                        "shard");
        Counter splits =
                counter(
                        "etl_sink_splits_total",
                        "INSERTs sent in halves, by reason: size (the server refused the block's"
                                + " size: memory limit, too many rows or bytes), content (bisecting"
                                + " toward the rows the server rejected).",
                        "pipeline",
                        "shard",
                        "reason");
        Histogram duration =
                Histogram.builder()
                        .name("etl_sink_insert_duration_seconds")
                        .help("Duration of a successful INSERT: sending the block to the ack.")
                        .labelNames("pipeline", "shard")
                        .classicUpperBounds(SECONDS_BUCKETS)
                        .classicOnly()
                        .withoutExemplars()
                        .register(registry);
        List<ShardMetrics> list = new ArrayList<>(shardCount);
        for (int s = 0; s < shardCount; s++) {
            String shard = Integer.toString(s);
            Map<RetryReason, CounterDataPoint> byReason = new EnumMap<>(RetryReason.class);
            for (RetryReason r : RetryReason.values()) {
                byReason.put(r, retries.labelValues(pipeline, shard, r.label()));
            }
            Map<ErrorClass, CounterDataPoint> byClass = new EnumMap<>(ErrorClass.class);
            for (ErrorClass c : ErrorClass.values()) {
                byClass.put(c, errors.labelValues(pipeline, shard, label(c)));
            }
            Map<OutcomeCheck, CounterDataPoint> byResult = new EnumMap<>(OutcomeCheck.class);
            for (OutcomeCheck c : OutcomeCheck.values()) {
                byResult.put(c, checks.labelValues(pipeline, shard, c.label()));
            }
            list.add(
                    new ShardMetrics(
                            records.labelValues(pipeline, shard),
                            bytes.labelValues(pipeline, shard),
                            wireBytes.labelValues(pipeline, shard),
                            batches.labelValues(pipeline, shard),
                            inserts.labelValues(pipeline, shard),
                            duration.labelValues(pipeline, shard),
                            duplicated.labelValues(pipeline, shard),
                            possiblyDuplicated.labelValues(pipeline, shard),
                            unresolved.labelValues(pipeline, shard),
                            alreadyWritten.labelValues(pipeline, shard),
                            rejected.labelValues(pipeline, shard),
                            splits.labelValues(pipeline, shard, "size"),
                            splits.labelValues(pipeline, shard, "content"),
                            reencoded.labelValues(pipeline, shard),
                            byReason,
                            byClass,
                            byResult));
        }
        return List.copyOf(list);
    }

    private void gauges(String pipeline, int shardCount, Probes probes) {
        gauge(
                "etl_backpressure_paused",
                "1 while the sources are paused by the in-flight byte budget.",
                pipeline,
                () -> probes.paused() ? 1 : 0);
        gauge(
                "etl_inflight_bytes",
                "Bytes of open batches plus sealed, unacknowledged batches.",
                pipeline,
                probes::inflightBytes);
        gauge(
                "etl_inflight_budget_bytes",
                "The in-flight byte budget (backpressure.max_inflight_bytes).",
                pipeline,
                probes::budgetBytes);
        gauge(
                "etl_checkpoint_pending_batches",
                "Batches holding back a commit: open with rows, or sealed and unacknowledged.",
                pipeline,
                probes::pendingBatches);
        gauge(
                "etl_source_partitions_owned",
                "Partitions the pipeline threads own now.",
                pipeline,
                probes::ownedPartitions);
        gauge(
                "etl_checkpoint_watermark_age_seconds",
                "Age of the oldest pending batch: how far commits lag behind reading.",
                pipeline,
                probes::watermarkAgeSeconds);
        GaugeWithCallback.builder()
                .name("etl_sink_queued_batches")
                .help("Sealed batches queued for or being sent by a shard's writers.")
                .labelNames("pipeline", "shard")
                .callback(
                        cb -> {
                            for (int s = 0; s < shardCount; s++) {
                                cb.call(probes.queuedBatches(s), pipeline, Integer.toString(s));
                            }
                        })
                .register(registry);
    }

    private Counter counter(String name, String help, String... labels) {
        return Counter.builder()
                .name(name)
                .help(help)
                .labelNames(labels)
                .withoutExemplars()
                .register(registry);
    }

    private void gauge(
            String name, String help, String pipeline, java.util.function.DoubleSupplier value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("pipeline")
                .callback(cb -> cb.call(value.getAsDouble(), pipeline))
                .register(registry);
    }

    private static String label(ErrorClass c) {
        return c.name().toLowerCase(Locale.ROOT);
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    public ShardMetrics shard(int index) {
        return shards.get(index);
    }

    public CounterDataPoint seals(SealReason reason) {
        return seals.get(reason);
    }

    /** The pre-sorted blocks counter for {@code outcome}. */
    public CounterDataPoint presorted(Presorter.Outcome outcome) {
        return presorted.get(outcome);
    }

    /**
     * Blocks {@code presort: auto} left unsorted because their writer had no batch waiting (the
     * pipeline, not the server, was the slower side).
     */
    public CounterDataPoint presortSkipped() {
        return presortSkipped;
    }

    /** Sum over shards of one of their counters, for the stats snapshot. */
    public long sumOverShards(java.util.function.Function<ShardMetrics, CounterDataPoint> c) {
        long n = 0;
        for (ShardMetrics s : shards) {
            n += c.apply(s).getLongValue();
        }
        return n;
    }

    /** Retries for every reason, summed over shards. */
    public long retriesTotal() {
        long n = 0;
        for (ShardMetrics s : shards) {
            n += s.retriesTotal();
        }
        return n;
    }

    /** Retries for {@code reason}, summed over shards. */
    public long retries(RetryReason reason) {
        return sumOverShards(s -> s.retries(reason));
    }

    /** Outcome look-ups that found {@code result}, summed over shards. */
    public long checks(OutcomeCheck result) {
        return sumOverShards(s -> s.checks(result));
    }
}
