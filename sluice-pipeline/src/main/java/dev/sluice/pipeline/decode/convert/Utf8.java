package dev.sluice.pipeline.decode.convert;

/** UTF-16 to UTF-8 into caller buffers, for text that arrives as chars (JSON strings). */
public final class Utf8 {
    private Utf8() {}

    /**
     * Encodes {@code src[off, off + len)} into {@code dst} (room for 3 bytes per char) and returns
     * the byte count. An unpaired surrogate is encoded on its own in three bytes (as WTF-8 does),
     * so no input is lost or rejected.
     */
    public static int encode(char[] src, int off, int len, byte[] dst) {
        int n = 0;
        int end = off + len;
        for (int i = off; i < end; i++) {
            char c = src[i];
            if (c < 0x80) {
                dst[n++] = (byte) c;
            } else if (c < 0x800) {
                dst[n++] = (byte) (0xC0 | (c >> 6));
                dst[n++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < end
                    && Character.isLowSurrogate(src[i + 1])) {
                int cp = Character.toCodePoint(c, src[++i]);
                dst[n++] = (byte) (0xF0 | (cp >> 18));
                dst[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[n++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                dst[n++] = (byte) (0xE0 | (c >> 12));
                dst[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[n++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return n;
    }

    /** Encodes a string the same way (allocates a char array; for keys and constants). */
    public static int encode(String s, byte[] dst) {
        return encode(s.toCharArray(), 0, s.length(), dst);
    }

    /** True when {@code b[off, off + len)} is well-formed UTF-8. */
    public static boolean isValid(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + n >= end) {
                return false;
            }
            int cp = c & (0x3F >> n);
            for (int k = 1; k <= n; k++) {
                int cc = b[i + k] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return false;
                }
                cp = cp << 6 | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += n + 1;
        }
        return true;
    }
}
