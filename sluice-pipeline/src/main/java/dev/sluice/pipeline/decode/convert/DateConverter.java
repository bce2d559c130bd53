package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;

/**
 * Date (UInt16 days, 1970-01-01..2149-06-06) and Date32 (1900-01-01..2299-12-31). Text is {@code
 * YYYY-MM-DD} (one-digit months and days too, as ClickHouse reads them); an integer counts days
 * since 1970-01-01. A date outside the type's range is an error (ClickHouse 18.16 stores garbage).
 */
final class DateConverter extends Converter {
    private final long min;
    private final long max;

    DateConverter(SimpleType type) {
        super(type);
        if (type == SimpleType.DATE32) {
            min = -25_567;
            max = 120_529;
        } else {
            min = 0;
            max = 65_535;
        }
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (Texts.allDigits(b, off, len) && len < 8) {
            integer(c, parseDays(b, off, len));
            return;
        }
        int end = off + len;
        int p = off;
        int y = 0;
        int yd = 0;
        while (p < end && Decimals.isDigit(b[p]) && yd < 4) {
            y = y * 10 + (b[p++] - '0');
            yd++;
        }
        int m = 0;
        int d = 0;
        boolean ok = yd == 4 && p < end && b[p++] == '-';
        int md = 0;
        while (ok && p < end && Decimals.isDigit(b[p]) && md < 2) {
            m = m * 10 + (b[p++] - '0');
            md++;
        }
        ok &= md > 0 && p < end && b[p++] == '-';
        int dd = 0;
        while (ok && p < end && Decimals.isDigit(b[p]) && dd < 2) {
            d = d * 10 + (b[p++] - '0');
            dd++;
        }
        ok &= dd > 0 && p == end && m >= 1 && m <= 12 && d >= 1;
        if (!ok || d > DateTimes.daysInMonth(y, m)) {
            throw notA("a date (expected YYYY-MM-DD)", b, off, len);
        }
        long days = DateTimes.daysFromCivil(y, m, d);
        if (days < min || days > max) {
            throw outside(Texts.plain(b, off, len));
        }
        c.appendLong(days);
    }

    private static long parseDays(byte[] b, int off, int len) {
        long v = 0;
        for (int i = off; i < off + len; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    @Override
    public void integer(Column c, long days) {
        if (days < min || days > max) {
            throw outside(days + " days");
        }
        c.appendLong(days);
    }

    @Override
    public void floating(Column c, double v) {
        if (v != Math.rint(v)) {
            throw new ConversionException(v + " is not a whole number of days");
        }
        integer(c, (long) v);
    }

    @Override
    public void date(Column c, int days) {
        integer(c, days);
    }

    @Override
    public void dateTime(Column c, long seconds) {
        integer(c, Math.floorDiv(seconds, DateTimes.SECONDS_PER_DAY));
    }

    private ConversionException outside(String what) {
        byte[] lo = new byte[10];
        byte[] hi = new byte[10];
        DateTimes.formatDate(min, lo, 0);
        DateTimes.formatDate(max, hi, 0);
        return new ConversionException(
                what
                        + " is outside the range of "
                        + type.typeName()
                        + " ("
                        + new String(lo, java.nio.charset.StandardCharsets.US_ASCII)
                        + " .. "
                        + new String(hi, java.nio.charset.StandardCharsets.US_ASCII)
                        + ")");
    }
}
