package dev.sluice.pipeline.transform.expr;

import java.nio.charset.StandardCharsets;

/** A constant: a literal, or a constant subexpression folded at compile time. */
final class Literal extends Expr {
    private final long l;
    private final double d;
    private final byte[] s;
    private final Slice slice = new Slice();

    private Literal(Kind kind, long l, double d, byte[] s) {
        super(kind);
        this.l = l;
        this.d = d;
        this.s = s;
    }

    static final Literal NULL = new Literal(Kind.NULL, 0, 0, null);

    static Literal integral(Kind kind, long v) {
        return new Literal(kind, v, v, null);
    }

    static Literal floating(double v) {
        return new Literal(Kind.FLOAT, 0, v, null);
    }

    static Literal string(byte[] v) {
        return new Literal(Kind.STRING, 0, 0, v);
    }

    static Literal string(String v) {
        return string(v.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public long asLong(EvalContext c) {
        c.nul = kind == Kind.NULL;
        return l;
    }

    @Override
    public double asDouble(EvalContext c) {
        c.nul = kind == Kind.NULL;
        return kind == Kind.FLOAT ? d : l;
    }

    @Override
    public Slice asString(EvalContext c) {
        c.nul = kind == Kind.NULL;
        slice.set(s, 0, s == null ? 0 : s.length);
        return slice;
    }

    /** The string's bytes (STRING literals only). */
    byte[] bytes() {
        return s;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case STRING -> "'" + new String(s, StandardCharsets.UTF_8) + "'";
            case FLOAT -> Double.toString(d);
            case NULL -> "NULL";
            default -> Long.toString(l);
        };
    }
}
