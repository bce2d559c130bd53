package dev.sluice.clickhouse.expr;

import java.util.Arrays;

/**
 * {@code equals notEquals less greater lessOrEquals greaterOrEquals} ({@code = != < > <= >=}),
 * UInt8, Nullable when an argument is. Numbers compare by their exact values whatever their types,
 * as the server's {@code accurate} comparisons do ({@code toInt8(-1) < toUInt8(255)}, {@code
 * toFloat64(2^53 + 1) != toUInt64(2^53 + 1)}); NaN is unordered: only {@code !=} holds. Strings
 * compare bytewise, unsigned, a FixedString with its padding zeros. Dates, times and Enums compare
 * as their numbers (the compiler converts a text constant compared with one first).
 */
final class CompareNode extends Node {
    enum Op {
        EQUALS,
        NOT_EQUALS,
        LESS,
        GREATER,
        LESS_OR_EQUALS,
        GREATER_OR_EQUALS;

        /** The operator with its arguments swapped. */
        Op swapped() {
            return switch (this) {
                case LESS -> GREATER;
                case GREATER -> LESS;
                case LESS_OR_EQUALS -> GREATER_OR_EQUALS;
                case GREATER_OR_EQUALS -> LESS_OR_EQUALS;
                default -> this;
            };
        }
    }

    /** How an argument's values are held for comparing. */
    enum Side {
        /** Any integer but UInt64, dates, times, Enums: a signed long. */
        SIGNED,
        /** UInt64: the long's 64 bits, unsigned. */
        UNSIGNED,
        DOUBLE,
        BYTES
    }

    /** {@link #compare} of values that are not ordered (a NaN takes part). */
    static final int UNORDERED = 2;

    private final Op op;
    private final Node left;
    private final Node right;
    private final Side leftSide;
    private final Side rightSide;

    CompareNode(Op op, Node left, Side leftSide, Node right, Side rightSide, ValueType type) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
        this.leftSide = leftSide;
        this.rightSide = rightSide;
    }

    static Side side(ValueType t) {
        return switch (t.kind()) {
            case FLOAT -> Side.DOUBLE;
            case STRING, FIXED_STRING -> Side.BYTES;
            case INT -> !t.signed() && t.bits() == 64 ? Side.UNSIGNED : Side.SIGNED;
            default -> Side.SIGNED;
        };
    }

    @Override
    boolean rowIndependent() {
        return left.rowIndependent() && right.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = left.eval(ctx);
        ValueVector b = right.eval(ctx);
        int n = prepare(ctx, a, b);
        long[] r = out.longs;
        if (leftSide == Side.BYTES) {
            for (int i = 0; i < n; i++) {
                int x = at(a, i);
                int y = at(b, i);
                int c =
                        Arrays.compareUnsigned(
                                a.bytes, a.starts[x], a.ends[x], b.bytes, b.starts[y], b.ends[y]);
                r[i] = holds(Integer.signum(c));
            }
            return out;
        }
        for (int i = 0; i < n; i++) {
            int x = at(a, i);
            int y = at(b, i);
            int c;
            if (leftSide == Side.DOUBLE) {
                c =
                        rightSide == Side.DOUBLE
                                ? compare(a.doubles[x], b.doubles[y])
                                : -compareWithDouble(
                                        b.longs[y], rightSide == Side.UNSIGNED, a.doubles[x]);
            } else if (rightSide == Side.DOUBLE) {
                c = compareWithDouble(a.longs[x], leftSide == Side.UNSIGNED, b.doubles[y]);
            } else {
                c = compareIntegers(a.longs[x], leftSide, b.longs[y], rightSide);
            }
            r[i] = holds(c == -UNORDERED ? UNORDERED : c);
        }
        return out;
    }

    private long holds(int c) {
        boolean v =
                switch (op) {
                    case EQUALS -> c == 0;
                    case NOT_EQUALS -> c != 0;
                    case LESS -> c == -1;
                    case GREATER -> c == 1;
                    case LESS_OR_EQUALS -> c == -1 || c == 0;
                    case GREATER_OR_EQUALS -> c == 1 || c == 0;
                };
        return v ? 1 : 0;
    }

    static int compare(double x, double y) {
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        return x == y ? 0 : UNORDERED;
    }

    static int compareIntegers(long x, Side xs, long y, Side ys) {
        if (xs == ys) {
            return xs == Side.UNSIGNED
                    ? Integer.signum(Long.compareUnsigned(x, y))
                    : Integer.signum(Long.compare(x, y));
        }
        // One is UInt64: a negative signed value is below it, else both fit unsigned.
        if (xs == Side.SIGNED && x < 0) {
            return -1;
        }
        if (ys == Side.SIGNED && y < 0) {
            return 1;
        }
        return Integer.signum(Long.compareUnsigned(x, y));
    }

    /**
     * Integer {@code v} (UInt64 when {@code unsigned}) against {@code d}, exactly: -1, 0, 1, or
     * {@link #UNORDERED} for NaN.
     */
    static int compareWithDouble(long v, boolean unsigned, double d) {
        if (Double.isNaN(d)) {
            return UNORDERED;
        }
        if (unsigned && v < 0) {
            // v is in [2^63, 2^64); so is d where it matters, and there every double is an integer
            if (d >= 0x1p64) {
                return -1;
            }
            if (d < 0x1p63) {
                return 1;
            }
            long bits = (long) (d - 0x1p63) + Long.MIN_VALUE;
            return Integer.signum(Long.compareUnsigned(v, bits));
        }
        if (d >= 0x1p63) {
            return -1;
        }
        if (d < -0x1p63) {
            return 1;
        }
        long t = (long) d; // toward zero; exact, as is d - t
        if (v != t) {
            return v < t ? -1 : 1;
        }
        double fraction = d - t;
        return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
    }
}
