package dev.sluice.pipeline.sink;

import java.util.Locale;

/** Why a batch was sealed; a label of {@code etl_sink_seals_total}. */
public enum SealReason {
    /** It reached {@code batch.max_rows}. */
    ROWS,
    /** It reached {@code batch.max_bytes}. */
    BYTES,
    /** Its first row is {@code batch.linger} old. */
    LINGER,
    /** Its partition has no more records. */
    PARTITION_END,
    /** Its last record is the last of a batch recorded in the ledger before a restart. */
    REPLAY,
    /** The sources are paused and nothing else is in flight that could release the budget. */
    BACKPRESSURE,
    /** The pipeline is draining. */
    DRAIN,
    /** Its partition is being revoked (moved to another consumer of the group). */
    REVOKE,
    /** Handed to the writer as a whole by its submitter ({@code ClickHouseWriter.submit}). */
    SUBMIT,
    /** The writer was flushed or closed while it gathered rows. */
    FLUSH,
    /**
     * Its table was altered: the writer gathered rows of the older layout, and rows of the new one
     * came.
     */
    TABLE_CHANGED;

    /** The metric label: lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
