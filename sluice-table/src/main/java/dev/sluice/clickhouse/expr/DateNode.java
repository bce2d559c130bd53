package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.expr.ValueType.Kind;

/**
 * Date and time functions of a Date or DateTime argument, computed with the server's date table
 * ({@link DateLut}) of the argument's time zone (a Date argument uses the server's table). Which
 * functions take a Date is checked by the compiler, as the server refuses the rest.
 */
final class DateNode extends Node {
    enum Fn {
        TO_DATE,
        TO_START_OF_MINUTE,
        TO_START_OF_FIVE_MINUTE,
        TO_START_OF_FIFTEEN_MINUTES,
        TO_START_OF_HOUR,
        TO_START_OF_DAY,
        TO_MONDAY,
        TO_START_OF_MONTH,
        TO_START_OF_QUARTER,
        TO_START_OF_YEAR,
        TO_YYYYMM,
        TO_YYYYMMDD,
        TO_YEAR,
        TO_MONTH,
        TO_DAY_OF_MONTH,
        TO_DAY_OF_WEEK,
        TO_HOUR,
        TO_MINUTE,
        TO_SECOND;

        /** Functions the server refuses for a Date argument. */
        boolean needsTime() {
            return switch (this) {
                case TO_START_OF_MINUTE,
                        TO_START_OF_FIVE_MINUTE,
                        TO_START_OF_FIFTEEN_MINUTES,
                        TO_START_OF_HOUR,
                        TO_START_OF_DAY,
                        TO_HOUR,
                        TO_MINUTE,
                        TO_SECOND ->
                        true;
                default -> false;
            };
        }
    }

    private final Fn fn;
    private final Node arg;
    private final DateLut lut;

    DateNode(Fn fn, Node arg, ValueType type, DateLut lut) {
        super(type);
        this.fn = fn;
        this.arg = arg;
        this.lut = lut;
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = prepare(ctx, a);
        boolean time = a.type.kind() == Kind.DATETIME;
        long[] r = out.longs;
        for (int i = 0; i < n; i++) {
            long v = a.longs[at(a, i)];
            r[i] = time ? ofTime(v) : ofDay((int) v);
        }
        return out;
    }

    private long ofTime(long t) {
        return switch (fn) {
            case TO_START_OF_MINUTE -> t / 60 * 60;
            case TO_START_OF_FIVE_MINUTE -> t / 300 * 300;
            case TO_START_OF_FIFTEEN_MINUTES -> t / 900 * 900;
            case TO_START_OF_HOUR -> lut.toStartOfHour(t) & 0xFFFF_FFFFL;
            case TO_START_OF_DAY -> lut.date(lut.findIndex(t));
            case TO_HOUR -> lut.toHour(t) & 0xFF;
            case TO_MINUTE -> lut.toMinute(t) & 0xFF;
            case TO_SECOND -> t % 60;
            default -> ofDay(lut.findIndex(t));
        };
    }

    private long ofDay(int d) {
        return switch (fn) {
            case TO_DATE -> d;
            case TO_MONDAY -> lut.toFirstDayNumOfWeek(d);
            case TO_START_OF_MONTH -> lut.toFirstDayNumOfMonth(d);
            case TO_START_OF_QUARTER -> lut.toFirstDayNumOfQuarter(d);
            case TO_START_OF_YEAR -> lut.toFirstDayNumOfYear(d);
            case TO_YYYYMM -> lut.year(d) * 100L + lut.month(d);
            case TO_YYYYMMDD -> lut.year(d) * 10000L + lut.month(d) * 100L + lut.dayOfMonth(d);
            case TO_YEAR -> lut.year(d);
            case TO_MONTH -> lut.month(d);
            case TO_DAY_OF_MONTH -> lut.dayOfMonth(d);
            case TO_DAY_OF_WEEK -> lut.dayOfWeek(d);
            default -> throw new IllegalStateException(fn + " of a Date");
        };
    }
}
