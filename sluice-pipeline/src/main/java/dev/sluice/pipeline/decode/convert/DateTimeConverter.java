package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;

/**
 * DateTime (UInt32 seconds) and DateTime64(p) (Int64 ticks of 10^-p s). Accepted:
 *
 * <ul>
 *   <li>text {@code YYYY-MM-DD hh:mm:ss}, ISO-8601 ({@code T}, fractions, {@code Z} or an offset),
 *       or a bare date (midnight); without an offset it is read in the column's time zone, or UTC
 *       when the column has none (see {@link MomentParser});
 *   <li>an integer (a JSON number, or digits as text): seconds for DateTime, ticks of the column's
 *       precision for DateTime64 — milliseconds for DateTime64(3);
 *   <li>a number with a fraction ({@code 1700000000.25}): seconds.
 * </ul>
 *
 * Fractions finer than the column's precision are cut off (toward the past). A moment outside the
 * type's range is an error: DateTime spans 1970-01-01 00:00:00 .. 2106-02-07 06:28:15 UTC,
 * DateTime64 the years 1900..2299 as ClickHouse documents.
 */
final class DateTimeConverter extends Converter {
    private static final long[] POW10 = {
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000
    };

    /** 1900-01-01 and 2300-01-01 in seconds: the DateTime64 range. */
    private static final long MIN_64 = DateTimes.daysFromCivil(1900, 1, 1) * 86_400;

    private static final long END_64 = DateTimes.daysFromCivil(2300, 1, 1) * 86_400;

    private final int precision; // 0 for DateTime
    private final long ticksPerSecond;
    private final long minTicks;
    private final long maxTicks;
    private final MomentParser parser;

    DateTimeConverter(ClickHouseType type, int precision, String timezone, boolean wide) {
        super(type);
        this.precision = precision;
        this.ticksPerSecond = POW10[precision];
        if (wide) {
            // DateTime64(9) ends in 2262, where nanoseconds since 1970 overflow an Int64
            minTicks = MIN_64 * ticksPerSecond;
            maxTicks =
                    END_64 > Long.MAX_VALUE / ticksPerSecond
                            ? Long.MAX_VALUE
                            : END_64 * ticksPerSecond - 1;
        } else {
            minTicks = 0;
            maxTicks = 0xFFFF_FFFFL;
        }
        this.parser = new MomentParser(timezone);
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (len == 0) {
            throw new ConversionException("an empty value is not a " + type.typeName());
        }
        if (isEpochNumber(b, off, len)) {
            number(c, b, off, len);
            return;
        }
        parser.parse(b, off, len, type.typeName());
        append(c, ticks(parser.seconds(), parser.nanos()), b, off, len);
    }

    /** {@code [-]digits[.digits]}: an epoch number rather than a calendar date. */
    private static boolean isEpochNumber(byte[] b, int off, int len) {
        int p = off;
        int end = off + len;
        if (b[p] == '-') {
            p++;
        }
        int digits = 0;
        while (p < end && Decimals.isDigit(b[p])) {
            p++;
            digits++;
        }
        if (digits == 0 || (digits == 4 && p < end && b[p] == '-')) {
            return false;
        }
        return p == end || b[p] == '.' || b[p] == 'e' || b[p] == 'E';
    }

    @Override
    public void number(Column c, byte[] b, int off, int len) {
        int end = off + len;
        int p = off;
        boolean negative = p < end && b[p] == '-';
        if (negative) {
            p++;
        }
        long whole = 0;
        int digits = 0;
        while (p < end && Decimals.isDigit(b[p])) {
            if (++digits > 18) {
                throw outside(Texts.plain(b, off, len));
            }
            whole = whole * 10 + (b[p++] - '0');
        }
        if (digits > 0 && p == end) {
            integer(c, negative ? -whole : whole);
            return;
        }
        if (digits == 0 || b[p] != '.') {
            viaDecimal(c, b, off, len);
            return;
        }
        // seconds.fraction: keep the first `precision` fractional digits
        p++;
        long fraction = 0;
        int kept = 0;
        int fractionStart = p;
        while (p < end && Decimals.isDigit(b[p])) {
            if (kept < precision) {
                fraction = fraction * 10 + (b[p] - '0');
                kept++;
            }
            p++;
        }
        if (p != end) {
            viaDecimal(c, b, off, len);
            return;
        }
        boolean dropped = end - fractionStart > kept && hasNonZero(b, fractionStart + kept, end);
        fraction *= POW10[precision - kept];
        long t = secondsToTicks(whole, b, off, len) + fraction;
        if (negative) {
            t = -t - (dropped ? 1 : 0); // cut toward the past
        }
        append(c, t, b, off, len);
    }

    private static boolean hasNonZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != '0') {
                return true;
            }
        }
        return false;
    }

    /** Exponent notation and other rarities: exact via BigDecimal. */
    private void viaDecimal(Column c, byte[] b, int off, int len) {
        java.math.BigDecimal v = Decimals.parse(b, off, len);
        if (v == null) {
            throw notA("a " + type.typeName(), b, off, len);
        }
        java.math.BigDecimal t =
                v.movePointRight(precision).setScale(0, java.math.RoundingMode.FLOOR);
        if (t.compareTo(java.math.BigDecimal.valueOf(maxTicks)) > 0
                || t.compareTo(java.math.BigDecimal.valueOf(minTicks)) < 0) {
            throw outside(Texts.plain(b, off, len));
        }
        c.appendLong(t.longValueExact());
    }

    private long secondsToTicks(long seconds, byte[] b, int off, int len) {
        if (Math.abs(seconds) > Long.MAX_VALUE / ticksPerSecond - 1) {
            throw outside(Texts.plain(b, off, len));
        }
        return seconds * ticksPerSecond;
    }

    private long ticks(long seconds, int nanos) {
        if (Math.abs(seconds) > Long.MAX_VALUE / ticksPerSecond - 1) {
            return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE; // reported by the range check
        }
        return seconds * ticksPerSecond + nanos / POW10[9 - precision];
    }

    private void append(Column c, long ticks, byte[] b, int off, int len) {
        if (ticks < minTicks || ticks > maxTicks) {
            throw outside(Texts.plain(b, off, len));
        }
        c.appendLong(ticks);
    }

    @Override
    public void integer(Column c, long v) {
        if (v < minTicks || v > maxTicks) {
            throw outside(Long.toString(v));
        }
        c.appendLong(v);
    }

    @Override
    public void floating(Column c, double seconds) {
        double t = Math.floor(seconds * ticksPerSecond);
        if (!(t >= minTicks && t <= maxTicks)) {
            throw outside(Double.toString(seconds));
        }
        c.appendLong((long) t);
    }

    @Override
    public void date(Column c, int days) {
        dateTime(c, days * (long) DateTimes.SECONDS_PER_DAY);
    }

    @Override
    public void dateTime(Column c, long seconds) {
        long t = ticks(seconds, 0);
        if (t < minTicks || t > maxTicks) {
            throw outside(seconds + " seconds");
        }
        c.appendLong(t);
    }

    private ConversionException outside(String what) {
        byte[] lo = new byte[19];
        byte[] hi = new byte[19];
        DateTimes.formatDateTime(Math.floorDiv(minTicks, ticksPerSecond), lo, 0);
        DateTimes.formatDateTime(Math.floorDiv(maxTicks, ticksPerSecond), hi, 0);
        return new ConversionException(
                what
                        + " is outside the range of "
                        + type.typeName()
                        + " ("
                        + new String(lo, StandardCharsets.US_ASCII)
                        + " .. "
                        + new String(hi, StandardCharsets.US_ASCII)
                        + " UTC)");
    }
}
