package dev.sluice.clickhouse.format;

import java.math.BigInteger;

/**
 * Float32 and Float64 as the shortest decimal text that reads back as the same value, laid out the
 * way ClickHouse prints floats, without allocating.
 *
 * <p>The digits are those of {@link Double#toString(double)} / {@link Float#toString(float)} (the
 * shortest decimal in the value's rounding interval, the closest one when several qualify),
 * computed with the Schubfach method of R. Giulietti, "The Schubfach way to render doubles" (2020):
 * one 126-bit fixed-point multiplication by a power of ten per value, no big arithmetic. The powers
 * are computed with BigInteger once, when the class loads.
 *
 * <p>The layout is the server's own ({@code ToShortest} with the decimal range [1e-6, 1e21)):
 * {@code 0.1}, {@code 1500}, {@code 0.000001}, {@code 1e-7}, {@code 1e21}, {@code
 * 1.7976931348623157e308}, {@code -0}. Non-finite values are not handled here: each format has its
 * own spelling for them.
 */
final class FloatText {
    /** The longest text: sign, 17 digits, point, {@code e-324}... with room to spare. */
    static final int MAX_CHARS = 32;

    // The decimal exponents k of the powers 10^-k the method needs for Float64 (and Float32).
    private static final int K_MIN = -324;
    private static final int K_MAX = 292;

    /** g = floor(10^-k 2^-r) + 1 with 2^125 <= g < 2^126, split as g1 2^63 + g0. */
    private static final long[] G1 = new long[K_MAX - K_MIN + 1];

    private static final long[] G0 = new long[K_MAX - K_MIN + 1];

    private static final long MASK_63 = (1L << 63) - 1;

    static {
        BigInteger low63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
        for (int k = K_MIN; k <= K_MAX; k++) {
            BigInteger g;
            if (k <= 0) {
                BigInteger p = BigInteger.TEN.pow(-k);
                int shift = p.bitLength() - 126; // p / 2^shift lies in [2^125, 2^126)
                g = shift >= 0 ? p.shiftRight(shift) : p.shiftLeft(-shift);
            } else {
                BigInteger d = BigInteger.TEN.pow(k);
                // 2^s / d in [2^125, 2^126): s = 125 + bitLength(d) or one less
                int s = 125 + d.bitLength();
                g = BigInteger.ONE.shiftLeft(s).divide(d);
                if (g.bitLength() > 126) {
                    g = BigInteger.ONE.shiftLeft(s - 1).divide(d);
                }
            }
            g = g.add(BigInteger.ONE);
            G1[k - K_MIN] = g.shiftRight(63).longValueExact();
            G0[k - K_MIN] = g.and(low63).longValueExact();
        }
    }

    private FloatText() {}

    // ---- floor(log) helpers, exact over the exponent ranges used here ----

    /** floor(log10(2^e)). */
    static int flog10pow2(int e) {
        return (int) (e * 661_971_961_083L >> 41);
    }

    /** floor(log10(3/4 2^e)). */
    static int flog10threeQuartersPow2(int e) {
        return (int) (e * 661_971_961_083L + -274_743_187_321L >> 41);
    }

    /** floor(log2(10^e)). */
    static int flog2pow10(int e) {
        return (int) (e * 913_124_641_741L >> 38);
    }

    // ---- Digits: (significand, exponent) packed as digits * 10^exp ----

    /**
     * The shortest decimal of a finite, non-zero |v|: returns the digits and stores the decimal
     * exponent of the last digit in {@code exp[0]}.
     */
    static long digits(double v, int[] exp) {
        long bits = Double.doubleToRawLongBits(v);
        long t = bits & ((1L << 52) - 1);
        int bq = (int) (bits >>> 52) & 0x7FF;
        if (bq != 0) {
            int mq = 1075 - bq; // -q
            long c = (1L << 52) | t;
            // Integers below 2^53 are their own shortest decimal.
            if (0 < mq && mq < 53) {
                long f = c >> mq;
                if (f << mq == c) {
                    exp[0] = 0;
                    return f;
                }
            }
            return toDecimal(-mq, c, 0, 1L << 52, -1074, exp);
        }
        // Subnormal: the tiniest significands get one more digit of room.
        return t < 3
                ? toDecimal(-1074, 10 * t, -1, 1L << 52, -1074, exp)
                : toDecimal(-1074, t, 0, 1L << 52, -1074, exp);
    }

    /** As {@link #digits(double, int[])} for a finite, non-zero Float32. */
    static long digits(float v, int[] exp) {
        int bits = Float.floatToRawIntBits(v);
        int t = bits & ((1 << 23) - 1);
        int bq = (bits >>> 23) & 0xFF;
        if (bq != 0) {
            int mq = 150 - bq;
            long c = (1L << 23) | t;
            if (0 < mq && mq < 24) {
                long f = c >> mq;
                if (f << mq == c) {
                    exp[0] = 0;
                    return f;
                }
            }
            return toDecimal(-mq, c, 0, 1L << 23, -149, exp);
        }
        return t < 8
                ? toDecimal(-149, 10L * t, -1, 1L << 23, -149, exp)
                : toDecimal(-149, t, 0, 1L << 23, -149, exp);
    }

    /**
     * The Schubfach core for v = c 2^q: picks the shortest decimal in the rounding interval
     * (inclusive when c is even, as round-half-even reads it back), preferring the closest.
     */
    private static long toDecimal(int q, long c, int dk, long cMin, int qMin, int[] exp) {
        int out = (int) c & 1;
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != cMin || q == qMin) {
            cbl = cb - 2; // regular spacing
            k = flog10pow2(q);
        } else {
            cbl = cb - 1; // at a power of two the interval below is half as wide
            k = flog10threeQuartersPow2(q);
        }
        int h = q + flog2pow10(-k) + 2;
        long g1 = G1[k - K_MIN];
        long g0 = G0[k - K_MIN];
        long vb = rop(g1, g0, cb << h);
        long vbl = rop(g1, g0, cbl << h);
        long vbr = rop(g1, g0, cbr << h);

        long s = vb >> 2;
        if (s >= 100) {
            // Try one digit less: s' = floor(s / 10) by a multiplication.
            long sp10 = 10 * Math.multiplyHigh(s, 115_292_150_460_684_698L << 4);
            long tp10 = sp10 + 10;
            boolean upin = vbl + out <= sp10 << 2;
            boolean wpin = (tp10 << 2) + out <= vbr;
            if (upin != wpin) {
                exp[0] = k;
                return upin ? sp10 : tp10;
            }
        }
        long tt = s + 1;
        boolean uin = vbl + out <= s << 2;
        boolean win = (tt << 2) + out <= vbr;
        exp[0] = k + dk;
        if (uin != win) {
            return uin ? s : tt;
        }
        // Both candidates are in the interval: the closer one, the even one on a tie.
        long cmp = vb - (s + tt << 1);
        return cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : tt;
    }

    /** Round to odd of cp g 2^-127, g = g1 2^63 + g0. */
    private static long rop(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long vbp = y1 + (z >>> 63);
        return vbp | (z & MASK_63) + MASK_63 >>> 63;
    }

    // ---- Layout ----

    /**
     * Writes finite {@code v} at {@code p} of {@code b} (at least {@link #MAX_CHARS} free bytes);
     * returns the new end. The caller keeps {@code exp}, a one-element scratch array.
     */
    static int write(double v, byte[] b, int p, int[] exp) {
        if (Double.doubleToRawLongBits(v) < 0) {
            b[p++] = '-';
        }
        if (v == 0) {
            b[p++] = '0';
            return p;
        }
        long f = digits(v, exp);
        return layout(f, exp[0], b, p);
    }

    /** As {@link #write(double, byte[], int, int[])} for a Float32. */
    static int write(float v, byte[] b, int p, int[] exp) {
        if (Float.floatToRawIntBits(v) < 0) {
            b[p++] = '-';
        }
        if (v == 0) {
            b[p++] = '0';
            return p;
        }
        long f = digits(v, exp);
        return layout(f, exp[0], b, p);
    }

    /** f 10^e as ClickHouse prints it: plain when 1e-6 <= value < 1e21, else d.ddde[-]x. */
    static int layout(long f, int e, byte[] b, int p) {
        while (f % 10 == 0) {
            f /= 10;
            e++;
        }
        int n = TextOut.digitCount(f);
        int point = n + e; // the value is 0.d1..dn * 10^point
        if (n <= point && point <= 21) {
            p = TextOut.putDigits(b, p, f, n);
            for (int i = n; i < point; i++) {
                b[p++] = '0';
            }
            return p;
        }
        if (0 < point && point <= 21) {
            int end = TextOut.putDigits(b, p + 1, f, n);
            // Shift the integer part left by one and put the point after it.
            System.arraycopy(b, p + 1, b, p, point);
            b[p + point] = '.';
            return end;
        }
        if (-6 < point && point <= 0) {
            b[p++] = '0';
            b[p++] = '.';
            for (int i = point; i < 0; i++) {
                b[p++] = '0';
            }
            return TextOut.putDigits(b, p, f, n);
        }
        int end = TextOut.putDigits(b, p + 1, f, n);
        b[p] = b[p + 1];
        if (n > 1) {
            b[p + 1] = '.';
        } else {
            end = p + 1;
        }
        p = end;
        b[p++] = 'e';
        int x = point - 1;
        if (x < 0) {
            b[p++] = '-';
            x = -x;
        }
        return TextOut.putDigits(b, p, x, TextOut.digitCount(x));
    }
}
