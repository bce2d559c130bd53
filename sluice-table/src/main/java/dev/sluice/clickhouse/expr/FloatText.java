package dev.sluice.clickhouse.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Text to a Float64 as the server's default reader ({@code readFloatTextFast}) computes it, for the
 * forms it is reproduced on: an optional sign, up to 18 integer digits, optionally a point and up
 * to 18 more digits; or {@code inf}, {@code infinity}, {@code nan} in any case. The value is the
 * integer part as a double plus {@code shift10(after, -n)} — the digits after the point times 10^-n
 * in x87 80-bit {@code long double} arithmetic (a 64-bit mantissa: the power and the product each
 * rounded to 64 bits, then the product to a double), reproduced exactly here. So {@code 0.3} reads
 * as 0.3, as the server reads it, where multiplying by the double 0.1 would not.
 *
 * <p>An exponent ({@code 1e5}) or more digits are refused ({@link UnsupportedValueException}): the
 * server's reader changed there between releases (how it scales, what a {@code +} means), and
 * 18.16's rounding was not reproduced.
 */
final class FloatText {
    private FloatText() {}

    private static final int MAX_DIGITS = 18;
    private static final BigDecimal TWO_63 = new BigDecimal(BigInteger.ONE.shiftLeft(63));
    private static final BigDecimal TWO_64 = new BigDecimal(BigInteger.ONE.shiftLeft(64));

    /** 10^-n to 64 significant bits, as the literal {@code 1e-<n>L} is stored. */
    private static final BigDecimal[] NEGATIVE_POWERS = new BigDecimal[MAX_DIGITS + 1];

    static {
        for (int n = 0; n <= MAX_DIGITS; n++) {
            NEGATIVE_POWERS[n] = extended(BigDecimal.ONE.scaleByPowerOfTen(-n));
        }
    }

    /** Where the last {@link #parse} stopped (the index after the number) and its value. */
    static final class Result {
        double value;
        int end;
    }

    /**
     * Reads a number at {@code b[from]}, not past {@code to}; false when there is none (the value
     * is then 0 and {@code r.end} is {@code from}).
     *
     * @throws UnsupportedValueException for a number in a form that is not reproduced
     */
    static boolean parse(byte[] b, int from, int to, Result r) {
        r.value = 0;
        r.end = from;
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        if (p < to && (b[p] | 0x20) == 'i' && matchesIgnoreCase(b, p, to, "inf")) {
            r.end = matchesIgnoreCase(b, p, to, "infinity") ? p + 8 : p + 3;
            r.value = negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            return true;
        }
        if (p < to && (b[p] | 0x20) == 'n' && matchesIgnoreCase(b, p, to, "nan")) {
            r.end = p + 3;
            r.value = negative ? -Double.NaN : Double.NaN;
            return true;
        }
        int start = p;
        long before = 0;
        while (p < to && isDigit(b[p])) {
            before = before * 10 + (b[p] - '0');
            p++;
        }
        int intDigits = p - start;
        long after = 0;
        int fracDigits = 0;
        boolean point = p < to && b[p] == '.';
        if (point) {
            p++;
            int f = p;
            while (p < to && isDigit(b[p])) {
                after = after * 10 + (b[p] - '0');
                p++;
            }
            fracDigits = p - f;
        }
        if (intDigits == 0 && fracDigits == 0) {
            return false;
        }
        if (intDigits > MAX_DIGITS || fracDigits > MAX_DIGITS) {
            throw unsupported(b, from, to, "more than 18 digits before or after the point");
        }
        if (p < to && (b[p] == 'e' || b[p] == 'E')) {
            throw unsupported(b, from, to, "an exponent");
        }
        if (intDigits == 0 || (point && fracDigits == 0)) {
            throw unsupported(b, from, to, "a point without digits on both sides");
        }
        double x = before;
        if (after != 0) {
            x += shift10(after, fracDigits);
        }
        r.value = negative ? -x : x;
        r.end = p;
        return true;
    }

    private static UnsupportedValueException unsupported(byte[] b, int from, int to, String what) {
        return new UnsupportedValueException(
                "the float '"
                        + new String(
                                b,
                                from,
                                Math.min(to - from, 40),
                                java.nio.charset.StandardCharsets.UTF_8)
                        + "' has "
                        + what
                        + ", which is not reproduced");
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean matchesIgnoreCase(byte[] b, int p, int to, String word) {
        if (to - p < word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if ((b[p + i] | 0x20) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@code shift10(UInt64 v, -n)}: v × 10^-n in 80-bit precision, then a double. */
    static double shift10(long v, int n) {
        BigDecimal product = BigDecimal.valueOf(v).multiply(NEGATIVE_POWERS[n]);
        return extended(product).doubleValue(); // doubleValue rounds correctly
    }

    /** Positive {@code v} rounded to 64 significant bits, half to even (x87 extended precision). */
    static BigDecimal extended(BigDecimal v) {
        // v = m × 2^e with m in [2^63, 2^64): scale by a power of two, round m to an integer.
        int e = (int) Math.floor(Math.log(v.doubleValue()) / Math.log(2));
        BigDecimal m = scaleByPowerOfTwo(v, 63 - e);
        while (m.compareTo(TWO_63) < 0) {
            m = m.multiply(BigDecimal.TWO);
            e--;
        }
        while (m.compareTo(TWO_64) >= 0) {
            m = m.divide(BigDecimal.TWO);
            e++;
        }
        return scaleByPowerOfTwo(m.setScale(0, RoundingMode.HALF_EVEN), e - 63);
    }

    private static BigDecimal scaleByPowerOfTwo(BigDecimal v, int n) {
        if (n >= 0) {
            return v.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(n)));
        }
        // 2^-n = 5^n / 10^n, exactly
        return v.multiply(new BigDecimal(BigInteger.valueOf(5).pow(-n))).scaleByPowerOfTen(n);
    }
}
