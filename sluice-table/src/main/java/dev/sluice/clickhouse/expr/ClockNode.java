package dev.sluice.clickhouse.expr;

/**
 * {@code now()} and {@code today()}: one value per evaluation, from the clock the caller passes
 * (the server, too, takes the time once per block it computes). {@code today()} is the day in the
 * server's time zone.
 */
final class ClockNode extends Node {
    private final boolean today;
    private final DateLut serverLut;

    ClockNode(boolean today, ValueType type, DateLut serverLut) {
        super(type);
        this.today = today;
        this.serverLut = serverLut;
    }

    @Override
    boolean rowIndependent() {
        return true;
    }

    @Override
    ValueVector eval(Context ctx) {
        out.prepare(1, true);
        long now = ctx.nowSeconds & 0xFFFF_FFFFL;
        out.longs[0] = today ? serverLut.findIndex(now) : now;
        return out;
    }
}
