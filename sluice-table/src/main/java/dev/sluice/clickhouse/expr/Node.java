package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.block.Block;

/**
 * One step of a compiled expression. Each node owns the vector it fills, so evaluating the same
 * expression batch after batch allocates nothing once the arrays have grown.
 */
abstract class Node {
    final ValueType type;
    final ValueVector out;

    Node(ValueType type) {
        this.type = type;
        this.out = new ValueVector(type);
    }

    /** Computes the values for the context's rows; the result stays valid until the next call. */
    abstract ValueVector eval(Context ctx);

    /** True when the value does not depend on any row (it may depend on the batch's clock). */
    abstract boolean rowIndependent();

    /** The rows one evaluation covers. */
    static final class Context {
        Block block;

        /** Block rows to evaluate, or null for rows {@code 0 .. count-1}. */
        int[] rows;

        int count;
        long nowSeconds;

        /** The records behind the rows, for {@code raw()}; null when the caller has none. */
        RawRecords raw;

        int row(int i) {
            return rows == null ? i : rows[i];
        }
    }

    /**
     * Prepares {@code out} for a result over the given arguments: one value when all of them are
     * constant, one per row otherwise; NULL where any argument is NULL (the server's default
     * handling of Nullable arguments). Returns the row count to compute.
     */
    final int prepare(Context ctx, ValueVector a) {
        one[0] = a;
        return prepare(ctx, one);
    }

    /** {@link #prepare(Context, ValueVector[])} for two arguments, without allocating. */
    final int prepare(Context ctx, ValueVector a, ValueVector b) {
        two[0] = a;
        two[1] = b;
        return prepare(ctx, two);
    }

    private final ValueVector[] one = new ValueVector[1];
    private final ValueVector[] two = new ValueVector[2];

    final int prepare(Context ctx, ValueVector[] args) {
        boolean constant = true;
        for (ValueVector a : args) {
            constant &= a.constant;
        }
        int n = constant ? 1 : ctx.count;
        out.prepare(n, constant);
        if (type.nullable()) {
            byte[] nulls = out.nullMap();
            for (ValueVector a : args) {
                if (a.hasNulls) {
                    for (int i = 0; i < n; i++) {
                        nulls[i] |= a.nulls[a.constant ? 0 : i];
                    }
                }
            }
        }
        return n;
    }

    /** Whether row {@code i} of {@code out} is NULL (its value need not be computed). */
    final boolean nullAt(int i) {
        return out.hasNulls && out.nulls[i] != 0;
    }

    static int at(ValueVector v, int i) {
        return v.constant ? 0 : i;
    }
}
