package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.ServerException;
import java.io.UncheckedIOException;

/**
 * How a failed insert is handled. Retryable: the connection failed or timed out before the INSERT's
 * data was sent (nothing was written), the connection failed after it (the outcome is unknown until
 * the server is asked, docs/pipeline.md), or the server reported a passing condition ({@link
 * ServerException#isRetryable()}: too many parts, memory limit, shutting down, overload). Fatal:
 * everything that would fail again unchanged — unknown table or column, type mismatch,
 * authentication, a block that does not match the table's header, protocol errors and bugs.
 */
public enum ErrorClass {
    /** Retry on a new connection (the old one is broken); the data did not reach the server. */
    CONNECTION,
    /**
     * The connection broke after the data was sent: the server may have written it. Ask the server,
     * or resend where the table drops repeated blocks.
     */
    INTERRUPTED,
    /** Retry; the connection is still usable. */
    SERVER,
    /** Stop the pipeline with this error. */
    FATAL;

    public static ErrorClass of(Throwable e) {
        if (e instanceof InsertOutcomeUnknownException) {
            return INTERRUPTED;
        }
        if (e instanceof ConnectionException || e instanceof UncheckedIOException) {
            return CONNECTION;
        }
        if (e instanceof ServerException s) {
            return s.isRetryable() ? SERVER : FATAL;
        }
        return FATAL;
    }

    public boolean retryable() {
        return this != FATAL;
    }

    /** The connection is broken: drop it. */
    public boolean brokeConnection() {
        return this == CONNECTION || this == INTERRUPTED;
    }
}
