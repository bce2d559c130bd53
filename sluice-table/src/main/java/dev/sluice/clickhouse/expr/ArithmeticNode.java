package dev.sluice.clickhouse.expr;

/**
 * {@code plus minus multiply divide intDiv modulo} with the server's result types (its {@code
 * NumberTraits}): the operation runs in 64-bit two's complement, which is bit-exact for the
 * server's C++ arithmetic on types of at most 64 bits, then wraps to the result type. {@code
 * divide} is always Float64; a Float operand makes the result Float64.
 */
final class ArithmeticNode extends Node {
    enum Op {
        PLUS,
        MINUS,
        MULTIPLY,
        DIVIDE,
        INT_DIV,
        MODULO
    }

    private final Op op;
    private final Node left;
    private final Node right;

    /** The type C++ promotes both integer operands to: intDiv and modulo run in it. */
    private final ValueType promoted;

    ArithmeticNode(Op op, Node left, Node right, ValueType type) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
        this.promoted =
                left.type.kind() == ValueType.Kind.INT && right.type.kind() == ValueType.Kind.INT
                        ? ValueType.integer(
                                promotedBits(left.type, right.type),
                                promotedSigned(left.type, right.type))
                        : null;
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
        if (type.kind() == ValueType.Kind.FLOAT) {
            double[] r = out.doubles;
            for (int i = 0; i < n; i++) {
                double x = asDouble(a, i);
                double y = asDouble(b, i);
                r[i] =
                        switch (op) {
                            case PLUS -> x + y;
                            case MINUS -> x - y;
                            case MULTIPLY -> x * y;
                            default -> x / y;
                        };
            }
            return out;
        }
        long[] r = out.longs;
        // NULL rows are computed too, on the placeholder values, as the server does: a NULL
        // divisor is a division by zero there.
        for (int i = 0; i < n; i++) {
            long x = a.longs[at(a, i)];
            long y = b.longs[at(b, i)];
            long v =
                    switch (op) {
                        case PLUS -> x + y;
                        case MINUS -> x - y;
                        case MULTIPLY -> x * y;
                        case INT_DIV, MODULO -> integerDivision(x, y);
                        case DIVIDE -> throw new IllegalStateException("divide is Float64");
                    };
            r[i] = Conversions.wrap(v, type);
        }
        return out;
    }

    /** C++ integral promotion then the usual arithmetic conversions: the width of the operation. */
    static int promotedBits(ValueType a, ValueType b) {
        return Math.max(32, Math.max(a.bits(), b.bits()));
    }

    static boolean promotedSigned(ValueType a, ValueType b) {
        boolean as = a.signed() || a.bits() < 32; // narrower types promote to (signed) int
        boolean bs = b.signed() || b.bits() < 32;
        if (as == bs) {
            return as;
        }
        int unsignedBits = as ? Math.max(32, b.bits()) : Math.max(32, a.bits());
        int signedBits = as ? Math.max(32, a.bits()) : Math.max(32, b.bits());
        return signedBits > unsignedBits; // else the signed operand converts to unsigned
    }

    private static long minimum(ValueType t) {
        return t.bits() == 64 ? Long.MIN_VALUE : -(1L << (t.bits() - 1));
    }

    private long integerDivision(long x, long y) {
        ValueType t = promoted;
        int bits = t.bits();
        boolean signed = t.signed();
        long xs = Conversions.wrap(x, t);
        long ys = Conversions.wrap(y, t);
        if (ys == 0) {
            throw new UnsupportedValueException("division by zero (the server refuses it)");
        }
        boolean minusOne = signed ? ys == -1 : y == -1 && right.type.signed();
        if (minusOne && left.type.signed() && x == minimum(left.type)) {
            throw new UnsupportedValueException("division of the smallest integer by -1");
        }
        if (op == Op.INT_DIV) {
            return signed || bits < 64 ? xs / ys : Long.divideUnsigned(xs, ys);
        }
        return signed || bits < 64 ? xs % ys : Long.remainderUnsigned(xs, ys);
    }

    static double asDouble(ValueVector v, int i) {
        int k = at(v, i);
        if (v.type.kind() == ValueType.Kind.FLOAT) {
            return v.doubles[k];
        }
        long x = v.longs[k];
        return !v.type.signed() && v.type.bits() == 64 ? ExprParser.unsignedToDouble(x) : x;
    }
}
