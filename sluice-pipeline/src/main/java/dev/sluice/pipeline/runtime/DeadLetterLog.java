package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.source.PolledRecords;
import java.io.IOException;

/**
 * The pipeline's dead-letter file, shared by its threads: writes are serialized, and a commit
 * flushes it (fsync) when something was written since the last flush, so no position is committed
 * past a dead letter that could still be lost (property 1).
 */
final class DeadLetterLog implements AutoCloseable {
    private final DeadLetters out;
    private long written;
    private long flushed;

    DeadLetterLog(DeadLetters out) {
        this.out = out;
    }

    synchronized void write(PolledRecords batch, int index, String reason) throws IOException {
        out.write(batch, index, reason);
        written++;
    }

    /** A row the server rejected for its content (see {@link DeadLetters#writeRow}). */
    synchronized void writeRow(
            String source, String partition, long position, byte[] row, String reason)
            throws IOException {
        out.writeRow(source, partition, position, row, reason);
        written++;
    }

    /** Makes every dead letter written so far durable. */
    synchronized void flush() throws IOException {
        if (flushed != written) {
            out.flush();
            flushed = written;
        }
    }

    @Override
    public synchronized void close() throws IOException {
        flush();
        out.close();
    }
}
