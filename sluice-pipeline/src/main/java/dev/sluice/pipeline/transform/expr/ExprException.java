package dev.sluice.pipeline.transform.expr;

/** An expression that does not compile: the message points at the place. */
public final class ExprException extends IllegalArgumentException {
    public ExprException(String problem, String expression, int at) {
        super(problem + " at position " + (at + 1) + " of: " + expression);
    }
}
