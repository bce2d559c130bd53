package dev.sluice.pipeline.source.framing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Boundaries of CSV records, found by one pass with {@link CsvFramer}'s state machine (see there
 * for the rules), reduced to what decides a boundary: inside a quoted field only the next quote
 * matters; outside one only newlines and quotes do, and a quote opens a field only when the byte
 * before it is a delimiter or a newline (or it starts the record). Both searches go eight bytes at
 * a time ({@link ByteScan}). {@code CsvSplitterPropertiesTest} checks it against the framer on
 * random records.
 */
final class CsvSplitter implements Splitter {
    private final byte delimiter;

    // Scan state, across blocks.
    private boolean quoted;
    private boolean afterQuote; // a quote in a quoted field: the next byte says what it was
    private byte prev;
    private long[] targets;
    private int next;
    private long need; // the smallest boundary the current target takes
    private long[] out;
    private int count;
    private long end;

    CsvSplitter(char delimiter) {
        Framer.csv(delimiter); // the same rules for the delimiter (throws on a bad one)
        this.delimiter = (byte) delimiter;
    }

    @Override
    public synchronized long[] boundaries(FileChannel file, long from, long end, long[] targets)
            throws IOException {
        this.targets = targets;
        this.end = end;
        this.next = 0;
        this.need = targets.length > 0 ? targets[0] : Long.MAX_VALUE;
        this.out = new long[targets.length];
        this.count = 0;
        this.quoted = false;
        this.afterQuote = false;
        this.prev = '\n';
        byte[] buf = new byte[BLOCK];
        long pos = from;
        if (from == 0) {
            int n = Splitter.read(file, buf, 0, 3);
            if (n == 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
                pos = 3;
            }
        }
        while (next < targets.length && pos < end) {
            int n = Splitter.read(file, buf, pos, (int) Math.min(BLOCK, end - pos));
            if (n <= 0) {
                break;
            }
            scan(buf, n, pos);
            pos += n;
        }
        return Arrays.copyOf(out, count);
    }

    private void scan(byte[] buf, int n, long pos) {
        int i = 0;
        while (i < n && next < targets.length) {
            if (afterQuote) {
                afterQuote = false;
                byte c = buf[i];
                if (c == '"') {
                    quoted = true; // "" inside a quoted field
                } else {
                    if (c == '\n') {
                        recordEnd(pos + i);
                    }
                    prev = c;
                }
                i++;
            } else if (quoted) {
                int q = ByteScan.indexOf(buf, i, n, (byte) '"');
                if (q < 0) {
                    return;
                }
                quoted = false;
                afterQuote = true;
                i = q + 1;
            } else {
                int q = ByteScan.indexOf(buf, i, n, (byte) '"');
                int stop = q < 0 ? n : q;
                newlines(buf, i, stop, pos);
                if (q < 0) {
                    if (n > i) {
                        prev = buf[n - 1];
                    }
                    return;
                }
                byte before = q > i ? buf[q - 1] : prev;
                quoted = before == delimiter || before == '\n';
                prev = '"';
                i = q + 1;
            }
        }
    }

    /** Record ends (newlines outside quoted fields) in {@code buf[from, to)}, for the targets. */
    private void newlines(byte[] buf, int from, int to, long pos) {
        while (next < targets.length) {
            long want = need - 1 - pos; // a newline there makes a boundary
            int at = (int) Math.max(from, Math.min(want, to));
            if (at >= to) {
                return;
            }
            int nl = ByteScan.indexOf(buf, at, to, (byte) '\n');
            if (nl < 0) {
                return;
            }
            recordEnd(pos + nl);
            from = nl + 1;
        }
    }

    /** A record ends at the newline at {@code offset}. */
    private void recordEnd(long offset) {
        long boundary = offset + 1;
        if (next >= targets.length || boundary < need) {
            return;
        }
        if (boundary >= end) {
            next = targets.length; // nothing after it to cut off
            return;
        }
        out[count++] = boundary;
        next++;
        need = next < targets.length ? Math.max(targets[next], boundary + 1) : Long.MAX_VALUE;
    }
}
