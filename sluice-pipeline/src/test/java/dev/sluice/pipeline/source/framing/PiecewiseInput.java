package dev.sluice.pipeline.source.framing;

import java.io.EOFException;
import java.io.IOException;

/**
 * Test input handing out its bytes in pieces of given sizes (cycling), optionally failing at the
 * end like a truncated .gz, optionally reporting "no data yet" between pieces like a followed file.
 */
final class PiecewiseInput implements ChunkInput {
    private final byte[] data;
    private final int[] pieces;
    private final boolean failAtEnd;
    private final boolean pauseBetweenPieces;
    private int at;
    private int piece;
    private boolean paused;

    PiecewiseInput(byte[] data, int[] pieces, boolean failAtEnd, boolean pauseBetweenPieces) {
        this.data = data;
        this.pieces = pieces;
        this.failAtEnd = failAtEnd;
        this.pauseBetweenPieces = pauseBetweenPieces;
    }

    static PiecewiseInput of(byte[] data, int... pieces) {
        return new PiecewiseInput(
                data, pieces.length == 0 ? new int[] {1 << 30} : pieces, false, false);
    }

    @Override
    public int read(byte[] b, int off, int len, long waitNanos) throws IOException {
        if (pauseBetweenPieces && paused) {
            paused = false;
            return 0;
        }
        if (at == data.length) {
            if (failAtEnd) {
                throw new EOFException("Unexpected end of ZLIB input stream");
            }
            return -1;
        }
        int n =
                Math.min(
                        len,
                        Math.min(data.length - at, Math.max(1, pieces[piece++ % pieces.length])));
        System.arraycopy(data, at, b, off, n);
        at += n;
        paused = true;
        return n;
    }

    @Override
    public long skip(long n) {
        long s = Math.min(n, data.length - at);
        at += (int) s;
        return s;
    }

    @Override
    public long consumed() {
        return at;
    }

    @Override
    public void close() {}
}
