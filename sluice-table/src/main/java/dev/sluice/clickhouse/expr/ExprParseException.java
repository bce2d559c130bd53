package dev.sluice.clickhouse.expr;

/** The text is not an expression this parser understands; the message names the position. */
public final class ExprParseException extends RuntimeException {
    public ExprParseException(String message) {
        super(message);
    }
}
