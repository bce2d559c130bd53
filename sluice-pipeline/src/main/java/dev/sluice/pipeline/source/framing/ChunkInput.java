package dev.sluice.pipeline.source.framing;

import java.io.Closeable;
import java.io.IOException;

/**
 * The bytes of one partition, in the order they come: a file (decompressed when compressed), a
 * pipe. Reads fill as much as they can without waiting for data that has not arrived.
 */
public interface ChunkInput extends Closeable {

    /**
     * Reads into {@code b[off, off + len)}.
     *
     * @param waitNanos how long to wait when nothing is available yet (inputs that cannot wait,
     *     such as files, ignore it)
     * @return the bytes read; 0 when none are available yet (a file that may still grow, an idle
     *     pipe); -1 at the end of input
     * @throws IOException the input is unreadable or cut short (a truncated .gz); bytes read before
     *     the failure are returned first, the exception comes with the next call
     */
    int read(byte[] b, int off, int len, long waitNanos) throws IOException;

    /** Skips {@code n} bytes; returns how many were skipped, fewer only at the end of input. */
    long skip(long n) throws IOException;

    /** Bytes of the underlying input consumed so far (compressed bytes when compressed). */
    long consumed();
}
