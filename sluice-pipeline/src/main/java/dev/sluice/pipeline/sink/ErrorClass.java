package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.ServerException;
import java.io.UncheckedIOException;

/**
 * How a failed insert is handled (docs/pipeline.md, "Server errors"). A server error is fatal only
 * when its code is on the explicit deny-list of errors that fail again unchanged ({@link
 * ServerException.Kind#PERMANENT}: unknown table or column, type mismatch, syntax, settings,
 * authentication, access, a read-only user); an error about the block's values ({@link
 * ServerException.Kind#CONTENT}) is bisected down to the rejected rows; an error about its size
 * ({@link ServerException.Kind#SIZE}: memory limit, too many rows or bytes) splits it in halves;
 * every other server error is retried with backoff, until {@code retry.give_up_after}. A
 * client-side failure that is neither a connection nor a server error (a block that does not match
 * the table's header, a protocol error, a bug) is fatal.
 */
public enum ErrorClass {
    /** Retry on a new connection (the old one is broken); the data did not reach the server. */
    CONNECTION,
    /**
     * The connection broke after the data was sent: the server may have written it. Ask the server,
     * or resend where the table drops repeated blocks.
     */
    INTERRUPTED,
    /** A server error that may pass: retry with backoff. */
    SERVER,
    /** The server refused values of the block: bisect it down to the rejected rows. */
    CONTENT,
    /** The block is too big for a server limit: send it in halves. */
    SIZE,
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
            return switch (s.kind()) {
                case PERMANENT -> FATAL;
                case CONTENT -> CONTENT;
                case SIZE -> SIZE;
                case TRANSIENT -> SERVER;
            };
        }
        return FATAL;
    }

    /** The same INSERT is sent again (after backoff, or a look-up of its outcome). */
    public boolean retryable() {
        return this == CONNECTION || this == INTERRUPTED || this == SERVER;
    }

    /** The INSERT is sent in smaller parts instead: its rows, or its size, are what failed. */
    public boolean splits() {
        return this == CONTENT || this == SIZE;
    }

    /** The connection is broken: drop it. */
    public boolean brokeConnection() {
        return this == CONNECTION || this == INTERRUPTED;
    }
}
