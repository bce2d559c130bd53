package dev.sluice.clickhouse.client;

/** Base of every failure this client reports. Messages never contain a password. */
public class ClickHouseException extends RuntimeException {
    public ClickHouseException(String message) {
        super(message);
    }

    public ClickHouseException(String message, Throwable cause) {
        super(message, cause);
    }
}
