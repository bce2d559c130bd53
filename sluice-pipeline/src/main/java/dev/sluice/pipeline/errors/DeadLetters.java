package dev.sluice.pipeline.errors;

import dev.sluice.pipeline.source.PolledRecords;
import java.io.IOException;

/**
 * Where rejected records go under {@link ErrorPolicy#DEAD_LETTER}: one NDJSON line per record with
 * its source, partition, position, line, the raw record and the reason — or, for a row the server
 * rejected for its content, the row as it was sent (its columns' values; the raw record is not kept
 * past decoding) instead of the raw record. Flushed durably before the positions of those records
 * are committed (property 1).
 */
public interface DeadLetters extends AutoCloseable {
    void write(PolledRecords batch, int index, String reason) throws IOException;

    /**
     * A row ClickHouse rejected for its content (docs/pipeline.md, "Server errors").
     *
     * @param source the source's name ({@code file}, {@code kafka}, ...)
     * @param partition the partition of the row's record
     * @param position the record's position in its partition
     * @param row the row as sent, one JSON object of its columns (JSONEachRow); UTF-8 bytes, or
     *     other bytes when a String column holds some
     * @param reason the server's error
     */
    void writeRow(String source, String partition, long position, byte[] row, String reason)
            throws IOException;

    /** Makes everything written so far durable (fsync). */
    void flush() throws IOException;

    long count();

    @Override
    void close() throws IOException;
}
