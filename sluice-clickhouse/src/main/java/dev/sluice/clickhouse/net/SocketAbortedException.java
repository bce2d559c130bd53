package dev.sluice.clickhouse.net;

import java.io.IOException;

/**
 * A read or write failed because the socket was closed on purpose while it waited — by the watchdog
 * at a deadline, by a cancel, or by a close from another thread; the message says which.
 */
public final class SocketAbortedException extends IOException {
    public SocketAbortedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
