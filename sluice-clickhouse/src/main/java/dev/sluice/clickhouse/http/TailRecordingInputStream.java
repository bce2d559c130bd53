package dev.sluice.clickhouse.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Remembers the last bytes read through it. Once a 200 response has started, the server can only
 * report a later failure by appending the exception text to the body, possibly in the middle of a
 * block; when decoding then breaks, the tail holds the explanation.
 */
final class TailRecordingInputStream extends FilterInputStream {
    private final byte[] ring;
    private long total;

    TailRecordingInputStream(InputStream in, int capacity) {
        super(in);
        this.ring = new byte[capacity];
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            ring[(int) (total++ % ring.length)] = (byte) b;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            record(b, off, n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Through read, so that skipped bytes are recorded too.
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    private void record(byte[] b, int off, int n) {
        if (n >= ring.length) {
            off += n - ring.length;
            total += n - ring.length;
            n = ring.length;
        }
        int pos = (int) (total % ring.length);
        int first = Math.min(n, ring.length - pos);
        System.arraycopy(b, off, ring, pos, first);
        System.arraycopy(b, off + first, ring, 0, n - first);
        total += n;
    }

    /**
     * The last bytes read (at most the capacity), oldest first, followed by up to {@code more}
     * bytes still unread; a failure while reading the rest ends it quietly.
     */
    byte[] tailAndRest(int more) {
        int kept = (int) Math.min(total, ring.length);
        byte[] rest = new byte[0];
        try {
            rest = in.readNBytes(more);
        } catch (IOException ignored) {
            // the stream broke: what was read is all there is
        }
        byte[] out = new byte[kept + rest.length];
        int start = (int) ((total - kept) % ring.length);
        int first = Math.min(kept, ring.length - start);
        System.arraycopy(ring, start, out, 0, first);
        System.arraycopy(ring, 0, out, first, kept - first);
        System.arraycopy(rest, 0, out, kept, rest.length);
        return out;
    }
}
