package dev.sluice.pipeline.writer;

/**
 * Why a {@link ClickHouseWriter} could not be opened, or why a submission was not written: the
 * message names the table, the shard and replica, the rows (as the submission described them) and
 * the server's own error. A submission's completion fails with it; its rows are not in the table —
 * except where the message says the outcome is unknown (the connection broke after the data was
 * sent and the server could not tell; the message gives the query id to look up).
 */
public class WriterException extends RuntimeException {
    public WriterException(String message) {
        super(message);
    }

    public WriterException(String message, Throwable cause) {
        super(message, cause);
    }
}
