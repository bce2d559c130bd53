package dev.sluice.pipeline.source.framing;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;

/**
 * A {@link ChunkInput} over a stream that ends (a decompressing stream, a test's bytes). Reads fill
 * the whole request, because decompressors hand out a few kilobytes per call and a big read makes a
 * big batch.
 */
public final class StreamInput implements ChunkInput {
    private final InputStream in;
    private final LongSupplier consumed;
    private IOException pending;
    private boolean ended;

    /**
     * @param consumed bytes of the underlying input consumed so far (for a decompressing stream:
     *     the compressed bytes)
     */
    public StreamInput(InputStream in, LongSupplier consumed) {
        this.in = in;
        this.consumed = consumed;
    }

    @Override
    public int read(byte[] b, int off, int len, long waitNanos) throws IOException {
        if (pending != null) {
            IOException e = pending;
            pending = null;
            ended = true;
            throw e;
        }
        int total = 0;
        while (total < len && !ended) {
            int n;
            try {
                n = in.read(b, off + total, len - total);
            } catch (IOException e) {
                if (total == 0) {
                    ended = true;
                    throw e;
                }
                // Hand out what came before the failure; report it on the next call.
                pending = e;
                return total;
            }
            if (n < 0) {
                ended = true;
            } else {
                total += n;
            }
        }
        return total == 0 && ended ? -1 : total;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = 0;
        while (skipped < n && !ended) {
            long s = in.skip(n - skipped);
            if (s > 0) {
                skipped += s;
            } else if (in.read() < 0) {
                // skip() may return 0 before the end; a read tells the end apart.
                ended = true;
            } else {
                skipped++;
            }
        }
        return skipped;
    }

    @Override
    public long consumed() {
        return consumed.getAsLong();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
