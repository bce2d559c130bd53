package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import java.util.Map;

/**
 * Inserts a filled block as one INSERT: the interface the pipeline writes through, whatever the
 * transport. The block's column names and type names must match the table's (a mismatch is an error
 * naming the column, not a cast).
 */
public interface BlockInserter extends AutoCloseable {

    /**
     * Sends {@code block} into {@code table} and waits for the server's acknowledgement.
     *
     * @param queryId the INSERT's query id (findable in {@code system.processes} and {@code
     *     system.query_log}); null for a random one
     * @throws InsertOutcomeUnknownException when the connection failed after the data may have
     *     reached the server (written or not: ask the server); any other {@link
     *     ConnectionException} means the data did not reach it
     */
    InsertResult insert(String table, Block block, Map<String, String> settings, String queryId);

    ServerInfo server();

    /** False once the connection is closed or broken. */
    boolean isOpen();

    @Override
    void close();
}
