package dev.sluice.pipeline.writer;

import java.util.Map;

/**
 * A writer's counts so far, summed over its shards (the same figures as its {@code etl_sink_*}
 * series, docs/metrics.md).
 *
 * @param rowsWritten rows the server acknowledged (or that its query log shows written)
 * @param bytesWritten their uncompressed Native bytes
 * @param wireBytes bytes sent on the wire for them (after compression)
 * @param batches batches written
 * @param inserts INSERTs written (a batch split by partition or default group makes several)
 * @param retries INSERTs sent again, by reason ({@code connection}, {@code server}, ...)
 * @param batchesInFlight batches queued or being sent
 * @param bytesInFlight bytes of submitted rows not yet settled
 */
public record WriterStats(
        long rowsWritten,
        long bytesWritten,
        long wireBytes,
        long batches,
        long inserts,
        Map<String, Long> retries,
        long batchesInFlight,
        long bytesInFlight) {
    public WriterStats {
        retries = Map.copyOf(retries);
    }
}
