package dev.sluice.pipeline.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes and durations as people write them.
 *
 * <ul>
 *   <li>Sizes: a plain number is bytes; {@code KiB MiB GiB TiB} and the one-letter {@code k m g t}
 *       (either case, as the JVM's {@code -Xmx}) are powers of 1024; {@code KB MB GB TB} are powers
 *       of 1000; {@code B} is bytes. Fractions are allowed ({@code 1.5GiB}).
 *   <li>Durations: a number with a unit — {@code ns us ms s m h d} — or several ({@code 1m30s});
 *       only {@code 0} may go without one.
 * </ul>
 */
public final class Units {
    private static final Pattern SIZE =
            Pattern.compile("([0-9][0-9_]*(?:\\.[0-9]+)?)\\s*([A-Za-z]*)");
    private static final Pattern DURATION_PART =
            Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|µs|ms|s|m|h|d)");

    private Units() {}

    /**
     * @throws IllegalArgumentException not a size (the message says what one looks like)
     */
    public static long parseSize(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "expected a size such as 64MiB, 512k, 1GB or a number of bytes, got '"
                            + text
                            + "'");
        }
        long factor =
                switch (m.group(2).toLowerCase(Locale.ROOT)) {
                    case "", "b" -> 1L;
                    case "k", "kib" -> 1L << 10;
                    case "m", "mib" -> 1L << 20;
                    case "g", "gib" -> 1L << 30;
                    case "t", "tib" -> 1L << 40;
                    case "kb" -> 1_000L;
                    case "mb" -> 1_000_000L;
                    case "gb" -> 1_000_000_000L;
                    case "tb" -> 1_000_000_000_000L;
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown size unit '"
                                            + m.group(2)
                                            + "' in '"
                                            + text
                                            + "' (use B, KiB, MiB, GiB, TiB, k, m, g, KB, MB, GB)");
                };
        long bytes = times(m.group(1).replace("_", ""), factor);
        if (bytes < 0) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        return bytes;
    }

    /**
     * {@code number × unit} truncated to a whole number, or -1 when it exceeds {@link
     * Long#MAX_VALUE}. Whole numbers — every default, and nearly every value people write — are
     * multiplied as longs: {@link BigDecimal}'s class initialiser alone (5^65536, squared up on an
     * interpreted JVM) costs a short CLI run tens of milliseconds, so it is left to fractions.
     */
    private static long times(String number, long unit) {
        if (number.indexOf('.') < 0) {
            try {
                return Math.multiplyExact(Long.parseLong(number), unit);
            } catch (NumberFormatException | ArithmeticException e) {
                return -1; // digits only (the patterns say so): too many for a long
            }
        }
        BigDecimal exact = new BigDecimal(number).multiply(BigDecimal.valueOf(unit));
        return exact.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? -1 : exact.longValue();
    }

    /**
     * @throws IllegalArgumentException not a duration (the message says what one looks like)
     */
    public static Duration parseDuration(String text) {
        String t = text.trim();
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION_PART.matcher(t);
        long nanos = 0;
        int at = 0;
        while (at < t.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException(
                        "expected a duration such as 500ms, 10s, 2m, 1h or 1m30s, got '"
                                + text
                                + "'");
            }
            long unit =
                    switch (m.group(2)) {
                        case "ns" -> 1L;
                        case "us", "µs" -> 1_000L;
                        case "ms" -> 1_000_000L;
                        case "s" -> 1_000_000_000L;
                        case "m" -> 60_000_000_000L;
                        case "h" -> 3_600_000_000_000L;
                        default -> 86_400_000_000_000L;
                    };
            long part = times(m.group(1), unit);
            // -1 stays: a part, or the sum of two, beyond Long.MAX_VALUE (reported after the form)
            nanos = part < 0 || nanos < 0 || nanos + part < 0 ? -1 : nanos + part;
            at = m.end();
        }
        if (t.isEmpty()) {
            throw new IllegalArgumentException("expected a duration such as 500ms, got nothing");
        }
        if (nanos < 0) {
            throw new IllegalArgumentException("duration '" + text + "' is too long");
        }
        return Duration.ofNanos(nanos);
    }
}
