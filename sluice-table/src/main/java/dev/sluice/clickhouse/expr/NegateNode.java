package dev.sluice.clickhouse.expr;

/**
 * Unary minus: signed integers keep their width, unsigned ones become signed of the next width
 * (UInt64 becomes Int64 and wraps), floats keep their type.
 */
final class NegateNode extends Node {
    private final Node arg;

    NegateNode(Node arg, ValueType type) {
        super(type);
        this.arg = arg;
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = prepare(ctx, a);
        if (type.kind() == ValueType.Kind.FLOAT) {
            for (int i = 0; i < n; i++) {
                out.doubles[i] = -a.doubles[at(a, i)];
            }
        } else {
            for (int i = 0; i < n; i++) {
                out.longs[i] = Conversions.wrap(-a.longs[at(a, i)], type);
            }
        }
        return out;
    }
}
