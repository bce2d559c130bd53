package dev.sluice.rigs.report;

import java.util.Locale;

/** How the report writes numbers and text. */
public final class Fmt {
    private Fmt() {}

    /**
     * A figure for a table cell: thousands separators for large values, 3 significant digits for
     * small ones; fractions as %.
     */
    public static String number(String metricKey, double v) {
        if (metricKey.endsWith("fraction")) {
            return String.format(Locale.ROOT, "%.0f%%", v * 100);
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    public static String html(Object o) {
        String s = String.valueOf(o);
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
