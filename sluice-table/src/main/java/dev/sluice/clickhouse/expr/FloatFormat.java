package dev.sluice.clickhouse.expr;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Floats as the server prints them ({@code toString}, text formats): the shortest digits that read
 * back as the same value, in plain notation when the decimal exponent is in {@code [-6, 21)} and as
 * {@code 1.5e-7} otherwise; {@code inf}, {@code -inf}, {@code nan}.
 *
 * <p>Java's {@code Double.toString}/{@code Float.toString} (JDK 19 and later) choose the same
 * shortest digits; only the layout differs, which is redone here.
 */
final class FloatFormat {
    private FloatFormat() {}

    static String format(double v, boolean single) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (Double.doubleToRawLongBits(v) < 0 ? "-" : "") + "0";
        }
        String java = single ? Float.toString((float) v) : Double.toString(v);
        boolean negative = java.charAt(0) == '-';
        if (negative) {
            java = java.substring(1);
        }
        int e = java.indexOf('E');
        String mantissa = e < 0 ? java : java.substring(0, e);
        int exp10 = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
        int dot = mantissa.indexOf('.');
        StringBuilder digits = new StringBuilder(mantissa.length());
        digits.append(mantissa, 0, dot).append(mantissa, dot + 1, mantissa.length());
        // value = 0.<digits> * 10^point
        int point = dot + exp10;
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
            point--;
        }
        int end = digits.length();
        while (end > lead + 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        String d = digits.substring(lead, end);
        if (d.length() == 2) {
            // Java prints at least two digits; a one-digit decimal may also read back as v.
            String one = oneDigit(v, single, d, point);
            if (one != null) {
                d = one;
                if (d.equals("10")) {
                    d = "1";
                    point++;
                }
            }
        }
        StringBuilder sb = new StringBuilder(negative ? "-" : "");
        int exponent = point - 1;
        if (exponent >= -6 && exponent < 21) {
            if (point <= 0) {
                sb.append("0.").append("0".repeat(-point)).append(d);
            } else if (point >= d.length()) {
                sb.append(d).append("0".repeat(point - d.length()));
            } else {
                sb.append(d, 0, point).append('.').append(d, point, d.length());
            }
        } else {
            sb.append(d.charAt(0));
            if (d.length() > 1) {
                sb.append('.').append(d, 1, d.length());
            }
            sb.append('e').append(exponent);
        }
        return sb.toString();
    }

    /**
     * The one-digit decimal (or "10" when rounding up carries) closest to {@code v} among those
     * that read back as {@code v}, or null when none does.
     */
    private static String oneDigit(double v, boolean single, String two, int point) {
        double magnitude = Math.abs(single ? (float) v : v);
        BigDecimal exact = new BigDecimal(magnitude);
        String best = null;
        BigDecimal bestDistance = null;
        for (int c = two.charAt(0) - '0'; c <= two.charAt(0) - '0' + 1; c++) {
            BigDecimal candidate =
                    new BigDecimal(BigInteger.valueOf(c), 1 - point); // c * 10^(point-1)
            String text = candidate.toString();
            double back = single ? Float.parseFloat(text) : Double.parseDouble(text);
            if (back == magnitude) {
                BigDecimal distance = candidate.subtract(exact).abs();
                if (best == null || distance.compareTo(bestDistance) < 0) {
                    best = Integer.toString(c);
                    bestDistance = distance;
                }
            }
        }
        return best;
    }
}
