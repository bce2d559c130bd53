package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.ServerException;
import java.io.UncheckedIOException;

/**
 * How a failed insert is handled. Retryable: the connection failed or timed out (whether the server
 * applied the insert is unknown — a deduplicating server drops the retry if it did; property 2), or
 * the server reported a passing condition ({@link ServerException#isRetryable()}: too many parts,
 * memory limit, shutting down, overload). Fatal: everything that would fail again unchanged —
 * unknown table or column, type mismatch, authentication, a block that does not match the table's
 * header, protocol errors and bugs.
 */
public enum ErrorClass {
    /** Retry on a new connection (the old one is broken). */
    CONNECTION,
    /** Retry; the connection is still usable. */
    SERVER,
    /** Stop the pipeline with this error. */
    FATAL;

    public static ErrorClass of(Throwable e) {
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
}
