package dev.sluice.clickhouse.expr;

/**
 * {@code and}, {@code or}, {@code xor} (two or more arguments) and {@code not}, as 18.16 computes
 * them. A number is true when it is not zero (NaN too). NULLs follow the server's two rules: {@code
 * and}, {@code xor} and {@code not} return NULL where any argument is NULL ({@code NULL AND 0} is
 * NULL), while {@code or} is never NULL and takes NULL for false ({@code NULL OR 1} is 1).
 *
 * <p>The result is not always 0 or 1: the server passes UInt8 arguments through unchanged — {@code
 * and} gives the first zero, else the last argument's value; {@code or} the first value that is not
 * zero; a single UInt8 argument left after constants that do not matter ({@code x AND 1}, {@code x
 * OR 0}, {@code xor(x, 0)}) is the result — so {@code 2 AND 3} over UInt8 columns is 3. Arguments
 * of other types (and Nullable ones for {@code or}) take part as 0 or 1; {@code not} and {@code
 * xor} of several arguments give 0 or 1.
 */
final class LogicNode extends Node {
    enum Op {
        AND,
        OR,
        XOR,
        NOT
    }

    private final Op op;
    private final Node[] args;
    private final ValueVector[] values;
    private final boolean[] passThrough;
    private final ValueVector[] columns;
    private final int[] columnArg;

    LogicNode(Op op, Node[] args, ValueType type) {
        super(type);
        this.op = op;
        this.args = args;
        this.values = new ValueVector[args.length];
        this.columns = new ValueVector[args.length];
        this.passThrough = new boolean[args.length];
        this.columnArg = new int[args.length];
        for (int j = 0; j < args.length; j++) {
            ValueType t = args[j].type;
            // A UInt8 column reaches the server's loop as is; Nullable ones only for and/xor,
            // whose NULLs are handled around it.
            passThrough[j] =
                    t.kind() == ValueType.Kind.INT
                            && t.bits() == 8
                            && !t.signed()
                            && (op != Op.OR || !t.nullable());
        }
    }

    @Override
    boolean rowIndependent() {
        for (Node a : args) {
            if (!a.rowIndependent()) {
                return false;
            }
        }
        return true;
    }

    @Override
    ValueVector eval(Context ctx) {
        boolean allConstant = true;
        for (int j = 0; j < args.length; j++) {
            values[j] = args[j].eval(ctx);
            allConstant &= values[j].constant;
        }
        int n;
        if (op == Op.OR) {
            // Never Nullable: NULL rows count as false, so no null map is merged.
            n = allConstant ? 1 : ctx.count;
            out.prepare(n, allConstant);
        } else {
            n = prepare(ctx, values);
        }
        long[] r = out.longs;
        if (op == Op.NOT) {
            ValueVector a = values[0];
            for (int i = 0; i < n; i++) {
                r[i] = truth(a, i) ? 0 : 1;
            }
            return out;
        }
        // Constants fold into one value, last to first, as the server folds them.
        boolean haveConstant = false;
        boolean constant = false;
        int columnCount = 0;
        for (int j = args.length - 1; j >= 0; j--) {
            ValueVector v = values[j];
            if (!v.constant) {
                continue;
            }
            boolean x = truth(v, 0);
            constant = haveConstant ? apply(constant, x) : x;
            haveConstant = true;
        }
        for (int j = 0; j < args.length; j++) {
            if (!values[j].constant) {
                columnArg[columnCount] = j;
                columns[columnCount++] = values[j];
            }
        }
        if (haveConstant && (columnCount == 0 || apply(constant, false) == apply(constant, true))) {
            long v = (columnCount == 0 ? constant : apply(constant, false)) ? 1 : 0;
            for (int i = 0; i < n; i++) {
                r[i] = v;
            }
            return out;
        }
        boolean neutral = haveConstant && !apply(constant, false) && apply(constant, true);
        boolean constantColumn = haveConstant && !neutral; // xor with a true constant
        if (columnCount == 1 && !constantColumn) {
            ValueVector a = columns[0];
            boolean raw = passThrough[columnArg[0]];
            for (int i = 0; i < n; i++) {
                r[i] = raw ? a.longs[at(a, i)] : truth(a, i) ? 1 : 0;
            }
            return out;
        }
        for (int i = 0; i < n; i++) {
            r[i] =
                    switch (op) {
                        case AND -> and(columnCount, i);
                        case OR -> or(columnCount, i);
                        default -> xor(columnCount, i, constantColumn) ? 1 : 0;
                    };
        }
        return out;
    }

    private boolean apply(boolean a, boolean b) {
        return switch (op) {
            case AND -> a && b;
            case OR -> a || b;
            default -> a != b;
        };
    }

    private long and(int count, int i) {
        long v = 0;
        for (int j = 0; j < count; j++) {
            v = value(j, i);
            if (v == 0) {
                return 0;
            }
        }
        return v;
    }

    private long or(int count, int i) {
        for (int j = 0; j < count; j++) {
            long v = value(j, i);
            if (v != 0) {
                return v;
            }
        }
        return 0;
    }

    private boolean xor(int count, int i, boolean constantColumn) {
        boolean v = constantColumn;
        for (int j = 0; j < count; j++) {
            v ^= truth(columns[j], i);
        }
        return v;
    }

    /** Column {@code c}'s value in the server's loop: a UInt8 as is, anything else 0 or 1. */
    private long value(int c, int i) {
        ValueVector v = columns[c];
        if (passThrough[columnArg[c]]) {
            return v.longs[at(v, i)];
        }
        return truth(v, i) ? 1 : 0;
    }

    /** The argument's truth in row {@code i}; a NULL is false (only {@code or} looks at it). */
    private boolean truth(ValueVector v, int i) {
        int k = at(v, i);
        if (v.hasNulls && v.nulls[k] != 0) {
            return false;
        }
        if (v.type.kind() == ValueType.Kind.NULL) {
            return false;
        }
        return v.type.kind() == ValueType.Kind.FLOAT ? v.doubles[k] != 0 : v.longs[k] != 0;
    }
}
