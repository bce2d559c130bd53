package dev.sluice.clickhouse.client;

/**
 * The connection failed after an INSERT's data may have reached the server, before the server
 * acknowledged it: the server may have written the rows, or not. Native: the server had started the
 * INSERT (it sent the table's header) when the failure came; HTTP: the request had been connected.
 * A failure before that point is a plain {@link ConnectionException} and nothing was written.
 *
 * <p>ClickHouse 18.16 writes the data of an INSERT whose client went away after a complete data
 * block (it takes the end of the stream for the end of the data), and a stalled server applies an
 * INSERT whose client has long timed out once it runs again. So the answer is on the server: look
 * the {@link #queryId()} up in {@code system.processes} and {@code system.query_log} ({@code
 * dev.sluice.clickhouse.status.QueryTrace}).
 */
public class InsertOutcomeUnknownException extends ConnectionException {
    private final String queryId;

    public InsertOutcomeUnknownException(String queryId, ConnectionException cause) {
        super(
                cause.getMessage()
                        + " after the INSERT's data was sent; whether the server wrote it is"
                        + " unknown (query_id "
                        + queryId
                        + ")",
                cause);
        this.queryId = queryId;
    }

    /** The INSERT's query id, as the server logs it. */
    public String queryId() {
        return queryId;
    }
}
