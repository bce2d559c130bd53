package dev.sluice.clickhouse.client;

/** The server sent something this client did not expect or cannot decode. */
public class ProtocolException extends ClickHouseException {
    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
