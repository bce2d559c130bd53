package dev.sluice.pipeline.decode.convert;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** Decimal numbers written as text, read exactly. */
final class Decimals {
    /** Exponents beyond this are refused: 1e999999999 would build a billion-digit number. */
    private static final int MAX_EXPONENT = 1000;

    private Decimals() {}

    /**
     * The number written as {@code [+-]digits[.digits][(e|E)[+-]digits]} (digits on at least one
     * side of the point), or null when the text is not one. Java's own extras (hex, {@code d}
     * suffixes, {@code Infinity}) are refused.
     */
    static BigDecimal parse(byte[] b, int off, int len) {
        int end = off + len;
        int p = off;
        if (p < end && (b[p] == '-' || b[p] == '+')) {
            p++;
        }
        int digits = 0;
        while (p < end && isDigit(b[p])) {
            p++;
            digits++;
        }
        if (p < end && b[p] == '.') {
            p++;
            while (p < end && isDigit(b[p])) {
                p++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '-' || b[p] == '+')) {
                p++;
            }
            int expStart = p;
            int exp = 0;
            while (p < end && isDigit(b[p])) {
                exp = Math.min(exp * 10 + (b[p] - '0'), MAX_EXPONENT + 1);
                p++;
            }
            if (p == expStart || exp > MAX_EXPONENT) {
                return null;
            }
        }
        if (p != end) {
            return null;
        }
        return new BigDecimal(new String(b, off, len, StandardCharsets.US_ASCII));
    }

    static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
