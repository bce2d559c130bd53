package dev.sluice.pipeline.decode.tsv;

import dev.sluice.pipeline.decode.convert.Escapes;

/**
 * ClickHouse's TabSeparated escaping: {@code \t \n \\ \0 \b \f \r \' \" \a \v}, {@code \xHH}, and
 * any other escaped character for itself. {@code \N} as a whole field is NULL (the decoder checks
 * that first); inside a value it stands for nothing, as in ClickHouse.
 */
public final class TsvEscaping {
    private TsvEscaping() {}

    /** Unescapes {@code src[from, to)} into {@code dst} (at least as long); returns the length. */
    public static int unescape(byte[] src, int from, int to, byte[] dst) {
        int n = 0;
        int p = from;
        while (p < to) {
            byte c = src[p++];
            if (c != '\\' || p == to) {
                dst[n++] = c; // a lone trailing backslash stays itself
                continue;
            }
            byte e = src[p++];
            if (e == 'N') {
                continue;
            }
            if (e == 'x' && to - p >= 2 && hex(src[p]) >= 0 && hex(src[p + 1]) >= 0) {
                dst[n++] = (byte) (hex(src[p]) << 4 | hex(src[p + 1]));
                p += 2;
            } else {
                dst[n++] = Escapes.unescape(e);
            }
        }
        return n;
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
