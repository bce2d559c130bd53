package dev.sluice.clickhouse.expr;

/**
 * The expression uses a function, an argument type or a form the evaluator does not compute exactly
 * as the server does; the message says which part and why.
 */
public final class UnsupportedExpressionException extends Exception {
    public UnsupportedExpressionException(String message) {
        super(message);
    }
}
