package dev.sluice.rigs.verdict;

/**
 * The runtime's counters and gauges at one instant (docs/metrics.md), as the verdict rule reads
 * them.
 *
 * @param nanos when ({@code System.nanoTime})
 * @param sinkRecords {@code etl_sink_records_total}, summed over shards
 * @param pauseEvents {@code etl_backpressure_pause_events_total}
 * @param paused {@code etl_backpressure_paused} was 1
 * @param pendingBatches {@code etl_checkpoint_pending_batches}
 * @param inflightBytes {@code etl_inflight_bytes}
 */
public record CounterSample(
        long nanos,
        long sinkRecords,
        long pauseEvents,
        boolean paused,
        long pendingBatches,
        long inflightBytes) {}
