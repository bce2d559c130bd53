package dev.sluice.clickhouse.client;

/**
 * The operation was cancelled from another thread ({@code cancel()}). A query cancelled with the
 * protocol's Cancel packet leaves its connection usable ({@link #connectionKept()}); an INSERT
 * cannot be taken back, so cancelling one drops the connection, and blocks already sent may have
 * been written.
 */
public class CancelledException extends ClickHouseException {
    private final boolean connectionKept;

    public CancelledException(String message, boolean connectionKept, Throwable cause) {
        super(message, cause);
        this.connectionKept = connectionKept;
    }

    /** True when the connection stays usable after the cancellation. */
    public boolean connectionKept() {
        return connectionKept;
    }
}
