package dev.sluice.pipeline.transform.expr;

/**
 * A compiled expression: a small tree of evaluators, built once. Each evaluation sets {@link
 * EvalContext#nul}; the typed accessor matching {@link #kind} gives the value (integral kinds —
 * INT, BOOL as 1/0, DATE as days, DATETIME as seconds — through {@link #asLong}). Numeric paths
 * allocate nothing.
 */
public abstract class Expr {
    public final Kind kind;

    protected Expr(Kind kind) {
        this.kind = kind;
    }

    public long asLong(EvalContext c) {
        throw new IllegalStateException(kind + " expression read as an integer");
    }

    public double asDouble(EvalContext c) {
        return asLong(c);
    }

    public Slice asString(EvalContext c) {
        throw new IllegalStateException(kind + " expression read as a string");
    }

    /** For conditions: 1 true, 0 false, -1 NULL. */
    public final int test(EvalContext c) {
        long v = asLong(c);
        return c.nul ? -1 : v != 0 ? 1 : 0;
    }
}
