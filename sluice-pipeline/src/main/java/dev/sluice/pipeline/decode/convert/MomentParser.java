package dev.sluice.pipeline.decode.convert;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * Reads a date and time written as text into seconds since the epoch plus nanoseconds:
 *
 * <pre>
 * YYYY-MM-DD                                   midnight
 * YYYY-MM-DD hh:mm[:ss[.fffffffff]][zone]      'T' instead of the space too (ISO-8601)
 * zone: Z | ±hh | ±hhmm | ±hh:mm
 * </pre>
 *
 * Text without a zone is read in the column's time zone, or UTC when the column has none. More than
 * nine fractional digits are cut off. Holds its result, so it belongs to one converter.
 */
public final class MomentParser {
    private final ZoneRules rules; // null: UTC
    private final int fixedOffset;

    private long seconds;
    private int nanos;

    /**
     * @param timezone the zone of text without an offset; null for UTC
     */
    public MomentParser(String timezone) {
        ZoneRules r = timezone == null ? null : ZoneId.of(timezone).getRules();
        if (r != null && r.isFixedOffset()) {
            fixedOffset = r.getOffset(java.time.Instant.EPOCH).getTotalSeconds();
            r = null;
        } else {
            fixedOffset = 0;
        }
        this.rules = r;
    }

    /** Parses {@code b[off, off + len)}; {@code what} names the type for the error message. */
    public void parse(byte[] b, int off, int len, String what) {
        int end = off + len;
        int p = off;
        if (len < 10 || b[p + 4] != '-' || b[p + 7] != '-') {
            throw bad(b, off, len, what);
        }
        int y = num(b, p, 4);
        int mo = num(b, p + 5, 2);
        int d = num(b, p + 8, 2);
        if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > DateTimes.daysInMonth(y, mo)) {
            throw bad(b, off, len, what);
        }
        long local = DateTimes.daysFromCivil(y, mo, d) * DateTimes.SECONDS_PER_DAY;
        nanos = 0;
        p += 10;
        if (p == end) {
            seconds = toUtc(local);
            return;
        }
        if (b[p] != ' ' && b[p] != 'T' && b[p] != 't') {
            throw bad(b, off, len, what);
        }
        p++;
        if (end - p < 5 || b[p + 2] != ':') {
            throw bad(b, off, len, what);
        }
        int h = num(b, p, 2);
        int mi = num(b, p + 3, 2);
        int s = 0;
        p += 5;
        if (p < end && b[p] == ':') {
            if (end - p < 3) {
                throw bad(b, off, len, what);
            }
            s = num(b, p + 1, 2);
            p += 3;
        }
        if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) {
            throw bad(b, off, len, what);
        }
        local += h * 3600L + mi * 60L + s;
        if (p < end && (b[p] == '.' || b[p] == ',')) {
            p++;
            int start = p;
            int scale = 100_000_000;
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                nanos += (b[p] - '0') * scale;
                scale /= 10;
                p++;
            }
            if (p == start) {
                throw bad(b, off, len, what);
            }
        }
        if (p == end) {
            seconds = toUtc(local);
            return;
        }
        seconds = local - zoneOffset(b, p, end, off, len, what);
    }

    /** Seconds since the epoch of the last text parsed. */
    public long seconds() {
        return seconds;
    }

    /** Nanoseconds within the second of the last text parsed. */
    public int nanos() {
        return nanos;
    }

    /** Seconds east of UTC written at {@code b[p, end)}: Z, ±hh, ±hhmm or ±hh:mm. */
    private static int zoneOffset(byte[] b, int p, int end, int off, int len, String what) {
        if (end - p == 1 && (b[p] == 'Z' || b[p] == 'z')) {
            return 0;
        }
        if (b[p] != '+' && b[p] != '-') {
            throw bad(b, off, len, what);
        }
        int sign = b[p] == '-' ? -1 : 1;
        int rest = end - p - 1;
        int h;
        int m = 0;
        if (rest == 2) {
            h = num(b, p + 1, 2);
        } else if (rest == 4) {
            h = num(b, p + 1, 2);
            m = num(b, p + 3, 2);
        } else if (rest == 5 && b[p + 3] == ':') {
            h = num(b, p + 1, 2);
            m = num(b, p + 4, 2);
        } else {
            throw bad(b, off, len, what);
        }
        if (h < 0 || h > 18 || m < 0 || m > 59) {
            throw bad(b, off, len, what);
        }
        return sign * (h * 3600 + m * 60);
    }

    private long toUtc(long local) {
        if (rules == null) {
            return local - fixedOffset;
        }
        // Named zones with transitions: java.time resolves gaps and overlaps (the earlier offset).
        ZoneOffset o = rules.getOffset(LocalDateTime.ofEpochSecond(local, 0, ZoneOffset.UTC));
        return local - o.getTotalSeconds();
    }

    /** {@code n} ASCII digits at {@code p} as a number, or -1 when one is not a digit. */
    private static int num(byte[] b, int p, int n) {
        int v = 0;
        for (int i = p; i < p + n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static ConversionException bad(byte[] b, int off, int len, String what) {
        return new ConversionException(
                Texts.show(b, off, len)
                        + " is not a "
                        + what
                        + " (expected YYYY-MM-DD hh:mm:ss, ISO-8601 or a number)");
    }
}
