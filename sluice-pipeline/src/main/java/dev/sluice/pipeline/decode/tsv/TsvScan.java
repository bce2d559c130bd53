package dev.sluice.pipeline.decode.tsv;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds the next tab or backslash eight bytes at a time. A byte loop that exits early is not
 * vectorized by HotSpot and costs about a cycle per byte, which on ~200-byte payloads was most of
 * the TSV decoder's time; the "has a zero byte" bit trick tests a whole long per step.
 */
final class TsvScan {
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;
    private static final long TABS = '\t' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;

    private TsvScan() {}

    /** The index of the first tab or backslash in {@code a[from, to)}, or {@code to}. */
    static int tabOrBackslash(byte[] a, int from, int to) {
        int i = from;
        for (int last = to - 8; i <= last; i += 8) {
            long x = (long) LONGS.get(a, i);
            long t = x ^ TABS;
            long b = x ^ BACKSLASHES;
            // A zero byte of t or b marks a match. Little-endian: the lowest flag is the first
            // match; a false flag can only sit above a true one of the same pattern.
            long found = ((t - ONES) & ~t | (b - ONES) & ~b) & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (a[i] == '\t' || a[i] == '\\') {
                return i;
            }
        }
        return to;
    }
}
