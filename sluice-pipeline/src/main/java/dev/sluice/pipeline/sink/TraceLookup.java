package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import java.time.Duration;
import java.time.LocalDate;

/**
 * Reads what the server at a replica URL records about the query ids starting with a prefix ({@link
 * QueryTrace#lookup}), over a connection of its own.
 */
@FunctionalInterface
public interface TraceLookup {
    /**
     * @param since the query log's first date to read
     * @param timeout for connecting and for each query
     * @param logging what start-up learned of the server's query log
     * @throws dev.sluice.clickhouse.client.ClickHouseException when the server cannot be asked
     */
    QueryTrace trace(
            String url, String prefix, LocalDate since, Duration timeout, QueryLogging logging);
}
