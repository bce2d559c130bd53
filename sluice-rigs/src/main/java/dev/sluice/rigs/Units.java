package dev.sluice.rigs;

import java.util.Locale;

/** Axis values with units: {@code 64MiB}, {@code 1048576}, {@code auto}. */
public final class Units {
    private Units() {}

    /** Bytes of {@code 64MiB}, {@code 512KiB}, {@code 1GiB} or a plain number. */
    public static long bytes(String value, String axis) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        for (String[] u :
                new String[][] {{"gib", "1073741824"}, {"mib", "1048576"}, {"kib", "1024"}}) {
            if (v.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                v = v.substring(0, v.length() - u[0].length());
                break;
            }
        }
        try {
            long n = Long.parseLong(v.strip());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "--" + axis + ": '" + value + "' is not a positive size (e.g. 64MiB)");
        }
    }

    /** A positive integer of axis {@code axis}. */
    public static int positiveInt(String value, String axis) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--" + axis + ": '" + value + "' is not a positive whole number");
        }
    }

    /** {@code value} if it is one of {@code allowed} (any case), in the allowed spelling. */
    public static String oneOf(String value, String axis, java.util.List<String> allowed) {
        for (String a : allowed) {
            if (a.equalsIgnoreCase(value.strip())) {
                return a;
            }
        }
        throw new IllegalArgumentException(
                "--" + axis + ": '" + value + "' is not one of " + String.join(", ", allowed));
    }
}
