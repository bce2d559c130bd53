package dev.sluice.pipeline.runtime;

/**
 * A snapshot of a pipeline's progress, for the CLI's progress line.
 *
 * @param recordsRead records the sources handed over
 * @param rowsWritten rows durably acknowledged by ClickHouse
 * @param bytesWritten uncompressed Native bytes acknowledged
 * @param wireBytesWritten bytes sent on the wire (after compression) for acknowledged batches
 * @param batchesWritten acknowledged batches
 * @param recordsSkipped rejected and skipped
 * @param recordsDeadLettered rejected and dead-lettered
 * @param recordsFiltered dropped by a filter
 * @param retries insert attempts repeated
 * @param paused the sources are paused by backpressure
 * @param inflightBytes bytes of open and unacknowledged batches
 * @param budgetBytes the in-flight budget
 * @param pendingBatches batches holding back a commit
 * @param sourceBytesRead input bytes consumed, or -1 when the sources do not tell
 * @param sourceBytesTotal input bytes in total, or -1 when unknown
 */
public record PipelineStats(
        long recordsRead,
        long rowsWritten,
        long bytesWritten,
        long wireBytesWritten,
        long batchesWritten,
        long recordsSkipped,
        long recordsDeadLettered,
        long recordsFiltered,
        long retries,
        boolean paused,
        long inflightBytes,
        long budgetBytes,
        long pendingBatches,
        long sourceBytesRead,
        long sourceBytesTotal) {}
