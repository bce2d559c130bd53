package dev.sluice.clickhouse.expr;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's per-time-zone date table (ClickHouse's {@code DateLUTImpl}), rebuilt here so that
 * date functions give the server's results including at its edges: days are numbered from
 * 1970-01-01; the table covers day 0 up to day 49710 (2106-02-07) or the first day starting after
 * {@code 2^32 - 1 - 86400}; every later entry repeats day 0; a day's start is kept as the low 32
 * bits of its epoch second (1970-01-01 in Moscow starts at -10800, kept as 4294956496); a time
 * whose day is not found maps to day 0. Day numbers computed from it wrap as UInt16, as the
 * server's {@code DayNum} does.
 *
 * <p>Start of day is the first instant of the local date ({@code java.time}'s rule, which for a
 * midnight in a DST gap is the end of the gap and in an overlap the earlier instant, as the
 * server's time zone library resolves it). The zone rules are Java's tz data; a server with older
 * tz data can differ for dates whose rules changed since.
 */
final class DateLut {
    /** Largest time the table is built for: {@code 0xFFFFFFFF - 86400}. */
    static final long LUT_MAX = 0xFFFF_FFFFL - 86400;

    static final int MAX_DAY_NUM = (int) (0xFFFF_FFFFL / 86400); // 49710
    private static final int SIZE = 0x10000;
    private static final int MIN_YEAR = 1970;
    private static final int MAX_YEAR = 2105;

    private static final ConcurrentHashMap<ZoneId, DateLut> CACHE = new ConcurrentHashMap<>();

    private final int[] date = new int[SIZE]; // UInt32 start of day
    private final short[] year = new short[SIZE];
    private final byte[] month = new byte[SIZE];
    private final byte[] dayOfMonth = new byte[SIZE];
    private final byte[] dayOfWeek = new byte[SIZE];
    private final int[] timeAtOffsetChange = new int[SIZE];
    private final int[] amountOfOffsetChange = new int[SIZE];
    private final int[] yearsLut = new int[MAX_YEAR - MIN_YEAR + 1];
    private final long offsetAtStartOfEpoch;
    private final boolean wholeHours;

    static DateLut of(ZoneId zone) {
        return CACHE.computeIfAbsent(zone, DateLut::new);
    }

    private DateLut(ZoneId zone) {
        ZoneRules rules = zone.getRules();
        offsetAtStartOfEpoch = rules.getOffset(Instant.EPOCH).getTotalSeconds();
        boolean whole = true;
        LocalDate day = LocalDate.of(1970, 1, 1);
        int i = 0;
        long startOfDay;
        do {
            startOfDay = day.atStartOfDay(zone).toEpochSecond();
            date[i] = (int) startOfDay;
            year[i] = (short) day.getYear();
            month[i] = (byte) day.getMonthValue();
            dayOfMonth[i] = (byte) day.getDayOfMonth();
            dayOfWeek[i] = (byte) dayOfWeekNumber(day.getDayOfWeek());
            if (startOfDay % 3600 != 0) {
                whole = false;
            }
            if (i != 0) {
                recordOffsetChange(rules, i);
            }
            day = day.plusDays(1);
            i++;
        } while (startOfDay <= LUT_MAX && i <= MAX_DAY_NUM);
        for (; i < SIZE; i++) {
            copyEntry(0, i);
        }
        wholeHours = whole;
        for (int d = 0; d < SIZE && year[d] <= MAX_YEAR; d++) {
            if (dayOfMonth[d] == 1 && month[d] == 1) {
                yearsLut[year[d] - MIN_YEAR] = d;
            }
        }
    }

    /** When day {@code i - 1} is not 86400 seconds long, where in it the offset changed. */
    private void recordOffsetChange(ZoneRules rules, int i) {
        int amount = (int) (86400 - ((u32(date[i]) - u32(date[i - 1])) & 0xFFFF_FFFFL));
        if (amount == 0) {
            return;
        }
        amountOfOffsetChange[i - 1] = (short) amount;
        long dayStart = u32(date[i - 1]);
        int offsetAtDayStart = rules.getOffset(Instant.ofEpochSecond(dayStart)).getTotalSeconds();
        // The server searches in 15-minute steps from the start of the day.
        long at = 900;
        while (at < 65536
                && rules.getOffset(Instant.ofEpochSecond(dayStart + at)).getTotalSeconds()
                        == offsetAtDayStart) {
            at += 900;
        }
        timeAtOffsetChange[i - 1] = at >= 65536 ? 0 : (int) at;
    }

    private void copyEntry(int from, int to) {
        date[to] = date[from];
        year[to] = year[from];
        month[to] = month[from];
        dayOfMonth[to] = dayOfMonth[from];
        dayOfWeek[to] = dayOfWeek[from];
        timeAtOffsetChange[to] = timeAtOffsetChange[from];
        amountOfOffsetChange[to] = amountOfOffsetChange[from];
    }

    private static int dayOfWeekNumber(DayOfWeek d) {
        return d.getValue(); // Monday 1 .. Sunday 7, as the server numbers them
    }

    private static long u32(int v) {
        return v & 0xFFFF_FFFFL;
    }

    /** The table's day for epoch second {@code t} (a DateTime: 0 .. 2^32-1). */
    int findIndex(long t) {
        long guess = t / 86400;
        if (guess >= MAX_DAY_NUM) {
            return 0;
        }
        int g = (int) guess;
        if (t >= u32(date[g]) && t < u32(date[g + 1])) {
            return g;
        }
        for (int i = 1; ; i++) {
            if (g + i >= MAX_DAY_NUM) {
                return 0;
            }
            if (t >= u32(date[g + i]) && t < u32(date[g + i + 1])) {
                return g + i;
            }
            if (g < i) {
                return 0;
            }
            if (t >= u32(date[g - i]) && t < u32(date[g - i + 1])) {
                return g - i;
            }
        }
    }

    /** Start of day {@code d} as the server keeps it (UInt32). */
    long date(int d) {
        return u32(date[d & 0xFFFF]);
    }

    int year(int d) {
        return year[d & 0xFFFF];
    }

    int month(int d) {
        return month[d & 0xFFFF];
    }

    int dayOfMonth(int d) {
        return dayOfMonth[d & 0xFFFF];
    }

    int dayOfWeek(int d) {
        return dayOfWeek[d & 0xFFFF];
    }

    // ---- The server's transforms; day numbers wrap to UInt16 like its DayNum ----

    int toFirstDayNumOfWeek(int d) {
        return (d - (dayOfWeek(d) - 1)) & 0xFFFF;
    }

    int toFirstDayNumOfMonth(int d) {
        return (d - (dayOfMonth(d) - 1)) & 0xFFFF;
    }

    int toFirstDayNumOfQuarter(int d) {
        int monthInsideQuarter = (month(d) - 1) % 3;
        long index = d - dayOfMonth(d);
        while (monthInsideQuarter > 0) {
            index -= dayOfMonth((int) index);
            monthInsideQuarter--;
        }
        return (int) ((index + 1) & 0xFFFF);
    }

    int toFirstDayNumOfYear(int d) {
        int index = year(d) - MIN_YEAR;
        // 2106 is past the server's years table; its read lands on the first month of 1970.
        return index < yearsLut.length ? yearsLut[index] : 0;
    }

    long toStartOfHour(long t) {
        if (wholeHours) {
            return t / 3600 * 3600;
        }
        long day = date(findIndex(t));
        return day + (t - day) / 3600 * 3600;
    }

    int toHour(long t) {
        int index = findIndex(t);
        if (index == 0) {
            return (int) ((((t + offsetAtStartOfEpoch) / 3600) & 0xFFFF_FFFFL) % 24);
        }
        long res = t - date(index);
        if (res >= timeAtOffsetChange[index]) {
            res += amountOfOffsetChange[index];
        }
        return (int) (res / 3600);
    }

    /** Epoch second (UInt32) of a local time on day {@code d}, as the server builds it. */
    long makeDateTime(int d, int hour, int minute, int second) {
        int index = d & 0xFFFF;
        long timeOffset = hour * 3600L + minute * 60L + second;
        if (timeOffset >= timeAtOffsetChange[index]) {
            timeOffset -= amountOfOffsetChange[index];
        }
        return (date(index) + timeOffset) & 0xFFFF_FFFFL;
    }

    int toMinute(long t) {
        if (wholeHours) {
            return (int) ((t / 60) % 60);
        }
        return (int) ((t - date(findIndex(t))) / 60 % 60);
    }
}
