package dev.sluice.pipeline.decode.convert;

import java.nio.charset.StandardCharsets;

/** Small helpers over byte ranges holding text. */
public final class Texts {
    /** Longest excerpt of a value shown in an error message. */
    static final int SHOWN = 64;

    private Texts() {}

    /**
     * The value quoted for a message, cut to {@value #SHOWN} characters, invalid UTF-8 shown as
     * U+FFFD: {@code 'abc'}.
     */
    public static String show(byte[] b, int off, int len) {
        boolean cut = len > SHOWN;
        String s = new String(b, off, cut ? SHOWN : len, StandardCharsets.UTF_8);
        return "'" + s + (cut ? "...'" : "'");
    }

    /** The value for a message, unquoted and cut like {@link #show}. */
    public static String plain(byte[] b, int off, int len) {
        String s = show(b, off, len);
        return s.substring(1, s.length() - 1);
    }

    /** True when {@code b[off, off + len)} equals the ASCII text {@code s}, ignoring case. */
    public static boolean equalsIgnoreCase(byte[] b, int off, int len, String s) {
        if (len != s.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            int c = b[off + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            int d = s.charAt(i);
            if (d >= 'A' && d <= 'Z') {
                d += 'a' - 'A';
            }
            if (c != d) {
                return false;
            }
        }
        return true;
    }

    /** True when every byte is an ASCII digit (and there is at least one). */
    static boolean allDigits(byte[] b, int off, int len) {
        if (len == 0) {
            return false;
        }
        for (int i = off, e = off + len; i < e; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
    }

    static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    /** Writes the decimal digits of {@code v} into {@code out} from 0; returns the length. */
    static int formatLong(long v, byte[] out) {
        if (v == Long.MIN_VALUE) {
            byte[] min = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(min, 0, out, 0, min.length);
            return min.length;
        }
        int p = 0;
        if (v < 0) {
            out[p++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = p + digits - 1; i >= p; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return p + digits;
    }
}
