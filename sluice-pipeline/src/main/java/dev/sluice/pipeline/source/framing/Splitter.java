package dev.sluice.pipeline.source.framing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Finds record boundaries in a file that can be read at any offset, so that it can be cut into
 * chunks that are framed and decoded side by side: every record lies wholly in one chunk, and a
 * chunk's records are exactly those a {@link RecordReader} with the matching {@link Framer} finds
 * in that stretch when reading the whole file.
 *
 * <ul>
 *   <li>{@link #lines()} (NDJSON, TSV): a newline always ends a record, so the boundary for a
 *       target is just past the first newline at or after {@code target - 1}; only a few bytes
 *       around each target are read.
 *   <li>{@link #csv(char)}: a newline inside a quoted field does not end a record, and whether a
 *       newline is inside one depends on every quote before it. So the file is scanned once from
 *       {@code from} (a record start) up to the last boundary, with the framer's state machine —
 *       jumping from quote to quote eight bytes at a time, which is what makes the pass cheap next
 *       to decoding.
 * </ul>
 */
public interface Splitter {
    /** How much is read at a time. */
    int BLOCK = 1 << 20;

    /**
     * For each of {@code targets} (ascending, each in {@code (from, end)}), the first record start
     * at or after it that is also after the boundary found for the previous target, while it is
     * below {@code end}: ascending, distinct boundaries, possibly fewer than the targets (a record
     * longer than the distance between two targets; a quoted field open to the end).
     *
     * @param from a record start (0: the start of the file, after which a UTF-8 byte order mark is
     *     skipped as the reader skips it)
     */
    long[] boundaries(FileChannel file, long from, long end, long[] targets) throws IOException;

    /** NDJSON and TSV: records are lines. */
    static Splitter lines() {
        return new LineSplitter();
    }

    /** CSV (RFC 4180, as {@link Framer#csv} frames it). */
    static Splitter csv(char delimiter) {
        return new CsvSplitter(delimiter);
    }

    /** The number of newlines in {@code [from, to)} of {@code file}: a line number's offset. */
    static long newlines(FileChannel file, long from, long to) throws IOException {
        byte[] buf = new byte[BLOCK];
        long n = 0;
        for (long at = from; at < to; ) {
            int got = read(file, buf, at, (int) Math.min(BLOCK, to - at));
            if (got <= 0) {
                break;
            }
            n += ByteScan.count(buf, 0, got, (byte) '\n');
            at += got;
        }
        return n;
    }

    /**
     * Reads up to {@code len} bytes at {@code at}; fewer only at the end of the file (-1 there).
     */
    static int read(FileChannel file, byte[] buf, long at, int len) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, len);
        while (bb.hasRemaining()) {
            int n = file.read(bb, at + bb.position());
            if (n < 0) {
                break;
            }
        }
        return bb.position() == 0 && len > 0 ? -1 : bb.position();
    }
}
