package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.HeaderMismatchException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.ServerException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * How a failed insert is handled (docs/pipeline.md, "Server errors"). A server error is fatal only
 * when its code is on the explicit deny-list of errors that fail again unchanged ({@link
 * ServerException.Kind#PERMANENT}: unknown table or column, type mismatch, syntax, settings,
 * authentication, access, a read-only user); an error about the block's values ({@link
 * ServerException.Kind#CONTENT}) is bisected down to the rejected rows; an error about its size
 * ({@link ServerException.Kind#SIZE}: memory limit, too many rows or bytes) splits it in halves;
 * every other server error is retried with backoff, until {@code retry.give_up_after}. A
 * client-side failure that is neither a connection nor a server error (a protocol error, a bug) is
 * fatal.
 *
 * <p>An INSERT whose columns do not match the table's — a column the table does not have, a type
 * that differs — says the table may have been altered while data flows ({@link #SCHEMA}): the
 * writer describes the table again, and only when it is unchanged does the error count as it would
 * otherwise ({@link #unchanged}). The server says so with NO_SUCH_COLUMN_IN_TABLE (16), a column
 * the INSERT names and the table lacks (a dropped one); THERE_IS_NO_COLUMN (8),
 * NOT_FOUND_COLUMN_IN_BLOCK (10) and NUMBER_OF_COLUMNS_DOESNT_MATCH (20), columns of the block and
 * the table that do not pair up; TYPE_MISMATCH (53); and, on 18.16 over HTTP, BAD_CAST (368) "Bad
 * cast from type DB::ColumnVector&lt;unsigned int&gt; to ..." when a Native block's column type
 * differs from the table's (measured: the server reads the block's column as the table's type).
 * Over the native protocol the client compares the block with the server's header itself ({@link
 * HeaderMismatchException}) before sending anything.
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
    /**
     * The INSERT's columns do not match the table's: describe the table again, send the batch as
     * the table is now; when the table is unchanged, the error counts as {@link #unchanged} says.
     */
    SCHEMA,
    /** Stop the pipeline with this error. */
    FATAL;

    /** Server errors about columns of the INSERT that the table does not have as sent. */
    private static final Set<Integer> SCHEMA_CODES =
            Set.of(
                    8, // THERE_IS_NO_COLUMN
                    10, // NOT_FOUND_COLUMN_IN_BLOCK
                    16, // NO_SUCH_COLUMN_IN_TABLE
                    20, // NUMBER_OF_COLUMNS_DOESNT_MATCH
                    53, // TYPE_MISMATCH
                    368 // BAD_CAST: 18.16 reading a Native column of another type (HTTP)
                    );

    public static ErrorClass of(Throwable e) {
        return tableMayHaveChanged(e) ? SCHEMA : unchanged(e);
    }

    /**
     * The class of {@code e} when the table is known not to have changed: what {@link #of} says of
     * every error but a schema mismatch.
     */
    public static ErrorClass unchanged(Throwable e) {
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

    /**
     * True when {@code e} says the INSERT's columns are not the table's (see the class comment).
     */
    static boolean tableMayHaveChanged(Throwable e) {
        if (e instanceof HeaderMismatchException) {
            return true;
        }
        if (e instanceof ServerException s && SCHEMA_CODES.contains(s.code())) {
            // BAD_CAST has other causes than a column read as another type: only that one counts.
            return s.code() != 368
                    || String.valueOf(s.serverMessage()).contains("Bad cast from type");
        }
        return false;
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
