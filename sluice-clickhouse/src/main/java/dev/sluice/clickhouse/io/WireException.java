package dev.sluice.clickhouse.io;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A failure to read or write ClickHouse wire bytes: truncated input, malformed data, or the I/O
 * error underneath. Unchecked so that encoders can run inside tight loops without throws clauses;
 * callers at the connection boundary turn it into their own exception type.
 */
public class WireException extends RuntimeException {

    public WireException(String message) {
        super(message);
    }

    public WireException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps an I/O error, keeping it reachable as the cause. */
    public static WireException io(String what, IOException e) {
        return new WireException(what + ": " + e.getMessage(), new UncheckedIOException(e));
    }
}
