package dev.sluice.clickhouse.expr;

/**
 * {@code raw()}: the bytes of the record each row was decoded from, as a String, read in place from
 * the caller's {@link RawRecords} (no copy).
 */
final class RawNode extends Node {

    RawNode() {
        super(ValueType.STRING);
    }

    @Override
    boolean rowIndependent() {
        return false;
    }

    @Override
    ValueVector eval(Context ctx) {
        RawRecords raw = ctx.raw;
        int n = ctx.count;
        out.prepare(n, false);
        out.borrowBytes(raw.bytes());
        for (int i = 0; i < n; i++) {
            int row = ctx.row(i);
            out.starts[i] = raw.start(row);
            out.ends[i] = raw.end(row);
        }
        return out;
    }
}
