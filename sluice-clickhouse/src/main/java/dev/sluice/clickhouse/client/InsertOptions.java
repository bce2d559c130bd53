package dev.sluice.clickhouse.client;

/**
 * How an {@link Insert} cuts its rows into blocks.
 *
 * @param maxBlockRows a block is sent when it holds this many rows
 * @param maxBlockBytes ... or when its encoded size reaches this many bytes (checked every {@link
 *     #BYTES_CHECK_INTERVAL} rows, so a block may exceed it by that many rows)
 * @param queryId the INSERT's query id, or null for a random one
 */
public record InsertOptions(int maxBlockRows, long maxBlockBytes, String queryId) {
    /** Rows between two checks of the block's byte size. */
    public static final int BYTES_CHECK_INTERVAL = 256;

    /** ClickHouse's own max_insert_block_size, and 256 MiB. */
    public static final InsertOptions DEFAULTS = new InsertOptions(1_048_576, 256L << 20, null);

    public InsertOptions {
        if (maxBlockRows <= 0) {
            throw new IllegalArgumentException("maxBlockRows must be positive: " + maxBlockRows);
        }
        if (maxBlockBytes <= 0) {
            throw new IllegalArgumentException("maxBlockBytes must be positive: " + maxBlockBytes);
        }
    }

    public InsertOptions withMaxBlockRows(int rows) {
        return new InsertOptions(rows, maxBlockBytes, queryId);
    }

    public InsertOptions withMaxBlockBytes(long bytes) {
        return new InsertOptions(maxBlockRows, bytes, queryId);
    }

    public InsertOptions withQueryId(String id) {
        return new InsertOptions(maxBlockRows, maxBlockBytes, id);
    }
}
