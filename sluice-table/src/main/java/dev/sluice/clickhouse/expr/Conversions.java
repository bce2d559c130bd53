package dev.sluice.clickhouse.expr;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/** Scalar conversions with the server's results, shared by the conversion and text nodes. */
final class Conversions {
    private Conversions() {}

    /** {@code v} as the server stores it in {@code t}: C++ {@code static_cast}, i.e. wrapping. */
    static long wrap(long v, ValueType t) {
        int bits =
                switch (t.kind()) {
                    case DATE -> 16;
                    case DATETIME -> 32;
                    default -> t.bits();
                };
        boolean signed = t.kind() == ValueType.Kind.INT && t.signed();
        return switch (bits) {
            case 8 -> signed ? (byte) v : v & 0xFFL;
            case 16 -> signed ? (short) v : v & 0xFFFFL;
            case 32 -> signed ? (int) v : v & 0xFFFF_FFFFL;
            default -> v;
        };
    }

    /** An unsigned 64-bit value as the nearest float, as C++ converts it. */
    static float unsignedToFloat(long bits) {
        if (bits >= 0) {
            return bits;
        }
        return ((float) ((bits >>> 1) | (bits & 1))) * 2.0f;
    }

    /**
     * A float truncated to an integer type, as C++ does for values in range; NaN, infinities and
     * values out of range are undefined there, so they are not reproduced.
     */
    static long floatToInteger(double d, ValueType target) {
        double t = d < 0 ? Math.ceil(d) : Math.floor(d);
        boolean fits;
        if (target.bits() == 64 && !target.signed()) {
            fits = t >= 0 && t < 0x1p64;
            if (fits && t >= 0x1p63) {
                return (long) (t - 0x1p63) + Long.MIN_VALUE;
            }
        } else if (target.bits() == 64) {
            fits = t >= -0x1p63 && t < 0x1p63;
        } else {
            long min = target.signed() ? -(1L << (target.bits() - 1)) : 0;
            long max =
                    target.signed() ? (1L << (target.bits() - 1)) - 1 : (1L << target.bits()) - 1;
            fits = t >= min && t <= max;
        }
        if (!fits) {
            throw new UnsupportedValueException(
                    d + " is outside " + target.typeName() + " (the server's result is undefined)");
        }
        return (long) t;
    }

    /**
     * Text to an integer of {@code target}: an optional sign and decimal digits, nothing else, and
     * a value the type holds; anything else is left to the server.
     */
    static long parseInteger(byte[] b, int from, int to, ValueType target) {
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        if (p == to || to - p > 20) {
            throw notNumber(b, from, to, target);
        }
        long v = 0;
        for (; p < to; p++) {
            int digit = b[p] - '0';
            if (digit < 0 || digit > 9) {
                throw notNumber(b, from, to, target);
            }
            long next = v * 10 + digit;
            if (Long.compareUnsigned(v, 0x1999_9999_9999_9999L) > 0
                    || Long.compareUnsigned(next, v) < 0) {
                throw notNumber(b, from, to, target);
            }
            v = next;
        }
        if (negative) {
            if (!target.signed() || Long.compareUnsigned(v, Long.MIN_VALUE) > 0) {
                throw notNumber(b, from, to, target);
            }
            v = -v;
        } else if (target.signed() && v < 0) {
            throw notNumber(b, from, to, target);
        }
        if (wrap(v, target) != v) {
            throw notNumber(b, from, to, target);
        }
        return v;
    }

    private static UnsupportedValueException notNumber(
            byte[] b, int from, int to, ValueType target) {
        return new UnsupportedValueException(
                "'"
                        + new String(b, from, Math.min(to - from, 40), StandardCharsets.UTF_8)
                        + "' is not a plain "
                        + target.typeName()
                        + " literal");
    }

    /**
     * Day number of {@code YYYY-MM-DD} as the server computes it: years 1970..2105, months 1..12,
     * days 1..31 (a day past the month's end runs into the next month), otherwise day 0.
     */
    static int parseDate(byte[] b, int from, int to) {
        if (to - from != 10 || b[from + 4] != '-' || b[from + 7] != '-') {
            throw notDate(b, from, to, "YYYY-MM-DD");
        }
        int year = digits(b, from, 4);
        int month = digits(b, from + 5, 2);
        int day = digits(b, from + 8, 2);
        if (year < 0 || month < 0 || day < 0) {
            throw notDate(b, from, to, "YYYY-MM-DD");
        }
        return makeDayNum(year, month, day);
    }

    static int makeDayNum(int year, int month, int day) {
        if (year < 1970 || year > 2105 || month < 1 || month > 12 || day < 1 || day > 31) {
            return 0;
        }
        return (int) ((LocalDate.of(year, month, 1).toEpochDay() + day - 1) & 0xFFFF);
    }

    /**
     * Epoch second of {@code YYYY-MM-DD hh:mm:ss} in the table's zone, or of a plain number of
     * seconds, as the server reads DateTime text.
     */
    static long parseDateTime(byte[] b, int from, int to, DateLut lut) {
        int len = to - from;
        if (len == 19
                && b[from + 4] == '-'
                && b[from + 7] == '-'
                && b[from + 10] == ' '
                && b[from + 13] == ':'
                && b[from + 16] == ':') {
            int year = digits(b, from, 4);
            int month = digits(b, from + 5, 2);
            int day = digits(b, from + 8, 2);
            int hour = digits(b, from + 11, 2);
            int minute = digits(b, from + 14, 2);
            int second = digits(b, from + 17, 2);
            if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0) {
                return lut.makeDateTime(makeDayNum(year, month, day), hour, minute, second);
            }
        } else if (len > 0 && len <= 10) {
            int d = digits(b, from, len);
            long v =
                    d >= 0
                            ? Long.parseLong(new String(b, from, len, StandardCharsets.US_ASCII))
                            : -1;
            if (v >= 0 && v <= 0xFFFF_FFFFL) {
                return v;
            }
        }
        throw notDate(b, from, to, "YYYY-MM-DD hh:mm:ss");
    }

    /** The decimal number in {@code n} digits at {@code p}, or -1 when one is not a digit. */
    private static int digits(byte[] b, int p, int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            int d = b[p + i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static UnsupportedValueException notDate(byte[] b, int from, int to, String form) {
        return new UnsupportedValueException(
                "'"
                        + new String(b, from, Math.min(to - from, 40), StandardCharsets.UTF_8)
                        + "' is not in the form "
                        + form);
    }

    private static final byte[] ZERO_DATE_TIME =
            "0000-00-00 00:00:00".getBytes(StandardCharsets.US_ASCII);

    /**
     * {@code YYYY-MM-DD} of day {@code d} from the table's fields (days past 2106 print 1970); day
     * 0 prints as {@code 0000-00-00}, as the server writes it.
     */
    static int formatDate(DateLut lut, int d, byte[] out, int p) {
        if (d == 0) {
            System.arraycopy(ZERO_DATE_TIME, 0, out, p, 10);
            return p + 10;
        }
        p = pad(out, p, lut.year(d), 4);
        out[p++] = '-';
        p = pad(out, p, lut.month(d), 2);
        out[p++] = '-';
        return pad(out, p, lut.dayOfMonth(d), 2);
    }

    /**
     * {@code YYYY-MM-DD hh:mm:ss} of epoch second {@code t} in the table's zone; 0 prints as zeros,
     * as the server writes it.
     */
    static int formatDateTime(DateLut lut, long t, byte[] out, int p) {
        if (t == 0) {
            System.arraycopy(ZERO_DATE_TIME, 0, out, p, 19);
            return p + 19;
        }
        int d = lut.findIndex(t);
        if (d == 0) {
            p = pad(out, p, lut.year(0), 4);
            out[p++] = '-';
            p = pad(out, p, lut.month(0), 2);
            out[p++] = '-';
            p = pad(out, p, lut.dayOfMonth(0), 2);
        } else {
            p = formatDate(lut, d, out, p);
        }
        int hour = lut.toHour(t);
        int minute = lut.toMinute(t);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59) {
            // 1970-01-01 before the zone's first midnight: the server prints bytes from outside
            // its digit table.
            throw new UnsupportedValueException("DateTime " + t + " has no text form in this zone");
        }
        out[p++] = ' ';
        p = pad(out, p, hour, 2);
        out[p++] = ':';
        p = pad(out, p, minute, 2);
        out[p++] = ':';
        return pad(out, p, (int) (t % 60), 2);
    }

    private static int pad(byte[] out, int p, int v, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out[p + i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return p + width;
    }
}
