package dev.sluice.pipeline.errors;

import dev.sluice.pipeline.source.RecordBatch;
import java.io.IOException;

/**
 * Where rejected records go under {@link ErrorPolicy#DEAD_LETTER}: one NDJSON line per record with
 * its source, partition, position, line, the raw record and the reason. Flushed durably before the
 * positions of those records are committed (property 1).
 */
public interface DeadLetters extends AutoCloseable {
    void write(RecordBatch batch, int index, String reason) throws IOException;

    /** Makes everything written so far durable (fsync). */
    void flush() throws IOException;

    long count();

    @Override
    void close() throws IOException;
}
