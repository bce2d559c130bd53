package dev.sluice.pipeline.decode.convert;

/**
 * Calendar arithmetic on days and seconds since 1970-01-01 (proleptic Gregorian, as ClickHouse
 * uses), without java.time objects: the hot path parses and formats dates with no allocation.
 */
public final class DateTimes {
    public static final int SECONDS_PER_DAY = 86_400;

    private DateTimes() {}

    /** Days from 1970-01-01 to {@code y-m-d} (Howard Hinnant's days_from_civil). */
    public static long daysFromCivil(long y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    public static boolean isLeap(long y) {
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    }

    public static int daysInMonth(long y, int m) {
        return switch (m) {
            case 2 -> isLeap(y) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /**
     * Writes {@code YYYY-MM-DD} for {@code days} since 1970-01-01 at {@code p}; returns the end.
     */
    public static int formatDate(long days, byte[] out, int p) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) {
            y++;
        }
        if (y < 0 || y > 9999) {
            throw new ConversionException("the date is outside the years 0000..9999");
        }
        p = digits(y, 4, out, p);
        out[p++] = '-';
        p = digits(m, 2, out, p);
        out[p++] = '-';
        return digits(d, 2, out, p);
    }

    /**
     * Writes {@code YYYY-MM-DD hh:mm:ss} (UTC) for {@code seconds} at {@code p}; returns the end.
     */
    public static int formatDateTime(long seconds, byte[] out, int p) {
        long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int s = (int) (seconds - days * SECONDS_PER_DAY);
        p = formatDate(days, out, p);
        out[p++] = ' ';
        p = digits(s / 3600, 2, out, p);
        out[p++] = ':';
        p = digits(s / 60 % 60, 2, out, p);
        out[p++] = ':';
        return digits(s % 60, 2, out, p);
    }

    private static int digits(long v, int width, byte[] out, int p) {
        for (int i = p + width - 1; i >= p; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return p + width;
    }
}
