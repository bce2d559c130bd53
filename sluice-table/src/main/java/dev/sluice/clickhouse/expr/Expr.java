package dev.sluice.clickhouse.expr;

import java.util.List;

/**
 * A parsed ClickHouse SQL expression, in the server's own normal form: every operator is a function
 * call ({@code a + 1} is {@code plus(a, 1)}, {@code x || y} is {@code concat(x, y)}, {@code (a, b)}
 * is {@code tuple(a, b)}, {@code CAST(x AS T)} is {@code CAST(x, 'T')}), as ClickHouse's parser
 * builds it. {@link #toString()} prints the expression back as SQL.
 */
public sealed interface Expr permits Expr.Identifier, Expr.Literal, Expr.Call {

    /** A column name, without quotes ({@code `weird name`} is {@code weird name}). */
    record Identifier(String name) implements Expr {
        @Override
        public String toString() {
            return ExprParser.quoteIdentifier(name);
        }
    }

    /** What a literal holds; integers are typed by value, as the server types them. */
    enum LiteralKind {
        NULL,
        /** A non-negative integer up to 2^64-1, held as its 64 bits. */
        UNSIGNED,
        /** A negative integer down to -2^63. */
        SIGNED,
        FLOAT,
        STRING
    }

    /**
     * A constant. {@code bits} holds UNSIGNED and SIGNED values, {@code number} FLOAT ones, {@code
     * text} STRING ones (decoded from the SQL escapes).
     */
    record Literal(LiteralKind kind, long bits, double number, String text) implements Expr {
        public static final Literal NULL = new Literal(LiteralKind.NULL, 0, 0, null);

        public static Literal ofUnsigned(long bits) {
            return new Literal(LiteralKind.UNSIGNED, bits, 0, null);
        }

        /** An integer typed the server's way: negative values are signed, others unsigned. */
        public static Literal ofInteger(long value) {
            return new Literal(
                    value < 0 ? LiteralKind.SIGNED : LiteralKind.UNSIGNED, value, 0, null);
        }

        public static Literal ofFloat(double value) {
            return new Literal(LiteralKind.FLOAT, 0, value, null);
        }

        public static Literal ofString(String text) {
            return new Literal(LiteralKind.STRING, 0, 0, text);
        }

        @Override
        public String toString() {
            return switch (kind) {
                case NULL -> "NULL";
                case UNSIGNED -> Long.toUnsignedString(bits);
                case SIGNED -> Long.toString(bits);
                case FLOAT -> Double.toString(number);
                case STRING -> ExprParser.quoteString(text);
            };
        }
    }

    /** A function call; operators are calls too (see the interface comment). */
    record Call(String function, List<Expr> args) implements Expr {
        public Call {
            args = List.copyOf(args);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(function).append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(args.get(i));
            }
            return sb.append(')').toString();
        }
    }
}
