package dev.sluice.clickhouse.expr;

/**
 * A supported expression met a value whose result the evaluator does not reproduce (a string that
 * does not parse as the number a cast asks for, an integer division by zero, a date outside the
 * server's table). The caller sends the affected batch a way the server computes itself.
 */
public final class UnsupportedValueException extends RuntimeException {
    public UnsupportedValueException(String message) {
        super(message);
    }
}
