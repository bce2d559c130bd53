package dev.sluice.clickhouse.expr;

import java.nio.charset.StandardCharsets;

/** A literal: one value for every row, computed at compile time. */
final class ConstNode extends Node {

    private ConstNode(ValueType type) {
        super(type);
        out.prepare(1, true);
    }

    static ConstNode ofLong(ValueType type, long v) {
        ConstNode c = new ConstNode(type);
        c.out.longs[0] = v;
        return c;
    }

    static ConstNode ofDouble(ValueType type, double v) {
        ConstNode c = new ConstNode(type);
        c.out.doubles[0] = v;
        return c;
    }

    static ConstNode ofString(String s) {
        ConstNode c = new ConstNode(ValueType.STRING);
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        c.out.putString(0, b, 0, b.length);
        return c;
    }

    static ConstNode ofNull() {
        ConstNode c = new ConstNode(ValueType.NULL);
        c.out.nullMap()[0] = 1;
        return c;
    }

    @Override
    ValueVector eval(Context ctx) {
        return out;
    }

    @Override
    boolean rowIndependent() {
        return true;
    }
}
