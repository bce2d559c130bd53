package dev.sluice.pipeline.runtime;

import java.util.List;
import java.util.Map;

/**
 * A snapshot of a pipeline's progress, for the CLI's progress line.
 *
 * @param recordsRead records the sources handed over
 * @param rowsWritten rows this run wrote: acknowledged by ClickHouse, or found written in its query
 *     log after an interrupted INSERT (each counted once; extra copies, and rows of replayed
 *     batches an earlier run wrote, are in {@link Delivery})
 * @param bytesWritten uncompressed Native bytes acknowledged
 * @param wireBytesWritten bytes sent on the wire (after compression) for acknowledged batches
 * @param batchesWritten acknowledged batches
 * @param recordsSkipped rejected and skipped
 * @param recordsDeadLettered rejected and dead-lettered
 * @param recordsFiltered dropped by a filter
 * @param retries INSERTs sent again (by reason in {@link Delivery#retries()})
 * @param paused the sources are paused by backpressure
 * @param inflightBytes bytes of open and unacknowledged batches
 * @param budgetBytes the in-flight budget
 * @param pendingBatches batches holding back a commit
 * @param sourceBytesRead input bytes consumed, or -1 when the sources do not tell
 * @param sourceBytesTotal input bytes in total, or -1 when unknown
 * @param delivery what became of the INSERTs that did not simply succeed
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
        long sourceBytesTotal,
        Delivery delivery) {

    /**
     * The INSERTs that did not simply succeed, so that the counts add up: the table holds {@code
     * rowsWritten + rowsDuplicated} rows of this run, plus up to {@code rowsPossiblyDuplicated},
     * plus up to {@code rowsUnresolved} when it stopped.
     *
     * @param retries INSERTs sent again, by reason: connection, server, not_written, deduplicated,
     *     unknown (only reasons that occurred)
     * @param checkedWritten interrupted or replayed INSERTs the server's log showed written (not
     *     sent again)
     * @param checkedNotWritten ... showed not written (sent again)
     * @param checkedUnknown ... whose outcome the server could not tell
     * @param rowsDuplicated extra copies known to be in the table
     * @param rowsPossiblyDuplicated rows sent again after an unknown outcome: maybe in it twice
     * @param rowsUnresolved rows of INSERTs left with an unknown outcome, not sent again
     * @param rowsAlreadyWritten rows of replayed INSERTs an earlier run wrote: not sent again, and
     *     not in {@code rowsWritten} (that run put them in the table)
     * @param notes one line per INSERT behind the unsure counts, with its source range and
     *     query_ids
     */
    public record Delivery(
            Map<String, Long> retries,
            long checkedWritten,
            long checkedNotWritten,
            long checkedUnknown,
            long rowsDuplicated,
            long rowsPossiblyDuplicated,
            long rowsUnresolved,
            long rowsAlreadyWritten,
            List<String> notes) {
        public static final Delivery NONE = new Delivery(Map.of(), 0, 0, 0, 0, 0, 0, 0, List.of());

        public Delivery {
            retries = Map.copyOf(retries);
            notes = List.copyOf(notes);
        }

        /** INSERTs looked up on the server. */
        public long checked() {
            return checkedWritten + checkedNotWritten + checkedUnknown;
        }
    }
}
