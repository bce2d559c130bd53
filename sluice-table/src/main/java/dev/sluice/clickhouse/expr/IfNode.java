package dev.sluice.clickhouse.expr;

/**
 * {@code if(c, a, b)} ({@code c ? a : b}) and {@code multiIf(c1, a1, c2, a2, ..., otherwise)}: per
 * row, the first branch whose condition holds (a UInt8 that is not zero), else the last. The
 * compiler converts every branch to the result type (the branches' least common type, as the
 * server's {@code getLeastSupertype}). All branches are computed for all rows, as the server does,
 * so a value one branch refuses is refused even where another branch is taken.
 *
 * <p>A NULL condition: for {@code if}, the result is NULL (18.16); for {@code multiIf} it does not
 * hold.
 */
final class IfNode extends Node {
    private final Node[] conditions;
    private final Node[] branches;
    private final boolean nullConditionIsNull;
    private final ValueVector[] c;
    private final ValueVector[] v;

    /** {@code branches} has one more element than {@code conditions}: the otherwise branch. */
    IfNode(Node[] conditions, Node[] branches, boolean nullConditionIsNull, ValueType type) {
        super(type);
        this.conditions = conditions;
        this.branches = branches;
        this.nullConditionIsNull = nullConditionIsNull;
        this.c = new ValueVector[conditions.length];
        this.v = new ValueVector[branches.length];
    }

    @Override
    boolean rowIndependent() {
        for (Node n : conditions) {
            if (!n.rowIndependent()) {
                return false;
            }
        }
        for (Node n : branches) {
            if (!n.rowIndependent()) {
                return false;
            }
        }
        return true;
    }

    @Override
    ValueVector eval(Context ctx) {
        boolean constant = true;
        for (int j = 0; j < conditions.length; j++) {
            c[j] = conditions[j].eval(ctx);
            constant &= c[j].constant;
        }
        for (int j = 0; j < branches.length; j++) {
            v[j] = branches[j].eval(ctx);
            constant &= v[j].constant;
        }
        int n = constant ? 1 : ctx.count;
        out.prepare(n, constant);
        byte[] nulls = type.nullable() ? out.nullMap() : null;
        for (int i = 0; i < n; i++) {
            int pick = branches.length - 1;
            boolean nullResult = false;
            for (int j = 0; j < conditions.length; j++) {
                ValueVector cv = c[j];
                int k = at(cv, i);
                if (cv.hasNulls && cv.nulls[k] != 0) {
                    if (nullConditionIsNull) {
                        nullResult = true;
                        break;
                    }
                    continue;
                }
                if (cv.longs[k] != 0) {
                    pick = j;
                    break;
                }
            }
            ValueVector src = v[pick];
            int k = at(src, i);
            if (nullResult || (src.hasNulls && src.nulls[k] != 0)) {
                nulls[i] = 1;
                setEmpty(i);
                continue;
            }
            switch (type.kind()) {
                case FLOAT -> out.doubles[i] = src.doubles[k];
                case STRING, FIXED_STRING ->
                        out.putString(i, src.bytes, src.starts[k], src.ends[k]);
                case NULL -> {}
                default -> out.longs[i] = src.longs[k];
            }
        }
        return out;
    }

    private void setEmpty(int i) {
        switch (type.kind()) {
            case FLOAT -> out.doubles[i] = 0;
            case STRING, FIXED_STRING -> {
                out.starts[i] = out.bytesUsed;
                out.ends[i] = out.bytesUsed;
            }
            case NULL -> {}
            default -> out.longs[i] = 0;
        }
    }
}
