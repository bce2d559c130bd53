package dev.sluice.pipeline.sink;

import java.util.Locale;

/** Why an INSERT was sent again: the {@code reason} label of {@code etl_sink_retries_total}. */
public enum RetryReason {
    /** The connection failed before the INSERT's data was sent: nothing was written. */
    CONNECTION,
    /** The server refused the INSERT with an error that passes (too many parts, memory, ...). */
    SERVER,
    /** The connection failed after the data was sent; the server's log shows it not written. */
    NOT_WRITTEN,
    /** The connection failed after the data was sent; the table drops repeated blocks. */
    DEDUPLICATED,
    /**
     * The connection failed after the data was sent and its outcome stayed unknown; sent again
     * under {@code on_unknown_outcome: resend}: its rows may be in the table twice.
     */
    UNKNOWN;

    /** The metric label and the word in summaries. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
