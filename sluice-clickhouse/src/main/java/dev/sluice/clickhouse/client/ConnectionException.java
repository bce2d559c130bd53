package dev.sluice.clickhouse.client;

/**
 * The connection could not be made or was lost: refused, reset, timed out, closed by the server.
 * Whether the server applied a request that was in flight is unknown.
 */
public class ConnectionException extends ClickHouseException {
    public ConnectionException(String message) {
        super(message);
    }

    public ConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
