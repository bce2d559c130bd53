package dev.sluice.clickhouse.expr;

/** {@code isNull} and {@code isNotNull} ({@code x IS [NOT] NULL}): UInt8, never NULL. */
final class NullCheckNode extends Node {
    private final Node arg;
    private final boolean negated;

    NullCheckNode(Node arg, boolean negated) {
        super(ValueType.UINT8);
        this.arg = arg;
        this.negated = negated;
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = a.constant ? 1 : ctx.count;
        out.prepare(n, a.constant);
        long[] r = out.longs;
        for (int i = 0; i < n; i++) {
            boolean isNull = a.hasNulls && a.nulls[i] != 0;
            r[i] = isNull != negated ? 1 : 0;
        }
        return out;
    }
}
