package dev.sluice.pipeline.source.framing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/** Boundaries of line records: just past the first newline at or after each target. */
final class LineSplitter implements Splitter {
    /** Most lines are short: a small read finds the newline after a target. */
    private static final int PROBE = 64 * 1024;

    @Override
    public long[] boundaries(FileChannel file, long from, long end, long[] targets)
            throws IOException {
        long[] out = new long[targets.length];
        int count = 0;
        byte[] buf = new byte[PROBE];
        long last = from;
        for (long target : targets) {
            long at = Math.max(target - 1, last);
            long found = -1;
            while (at < end && found < 0) {
                int n = Splitter.read(file, buf, at, (int) Math.min(PROBE, end - at));
                if (n <= 0) {
                    break;
                }
                int i = ByteScan.indexOf(buf, 0, n, (byte) '\n');
                if (i >= 0) {
                    found = at + i + 1;
                } else {
                    at += n;
                }
            }
            if (found < 0 || found >= end) {
                break; // the last record runs to the end: no boundary after it
            }
            if (found > last) {
                out[count++] = found;
                last = found;
            }
        }
        return Arrays.copyOf(out, count);
    }
}
