package dev.sluice.clickhouse.client;

/**
 * What a finished INSERT cost and what the server acknowledged.
 *
 * @param rows rows sent
 * @param blocks Data blocks sent (not counting the end marker)
 * @param uncompressedBytes Native block bytes before compression
 * @param wireBytes bytes written to the socket for the data packets (after compression)
 * @param serverWrittenRows rows the server reported written, or -1 when the revision does not carry
 *     it (below 54420)
 * @param serverWrittenBytes bytes the server reported written, or -1
 * @param elapsedNanos from sending the query to the server's end of stream
 */
public record InsertResult(
        String queryId,
        long rows,
        long blocks,
        long uncompressedBytes,
        long wireBytes,
        long serverWrittenRows,
        long serverWrittenBytes,
        long elapsedNanos) {

    /** Uncompressed over wire bytes; 1.0 when nothing was sent. */
    public double compressionRatio() {
        return wireBytes == 0 ? 1.0 : (double) uncompressedBytes / wireBytes;
    }
}
