package dev.sluice.pipeline.transform.expr;

/** The type of an expression's value, fixed when the expression is compiled. */
public enum Kind {
    /** A 64-bit integer (UInt64 values above 2^63 read as negative). */
    INT,
    FLOAT,
    /** Bytes, normally UTF-8 text. */
    STRING,
    BOOL,
    /** Days since 1970-01-01. */
    DATE,
    /** Seconds since the epoch. */
    DATETIME,
    /** The NULL literal: no value in any row. */
    NULL;

    boolean integral() {
        return this == INT || this == BOOL || this == DATE || this == DATETIME;
    }

    boolean numeric() {
        return integral() || this == FLOAT;
    }

    String sqlName() {
        return switch (this) {
            case INT -> "Int64";
            case FLOAT -> "Float64";
            case STRING -> "String";
            case BOOL -> "Bool";
            case DATE -> "Date";
            case DATETIME -> "DateTime";
            case NULL -> "NULL";
        };
    }
}
