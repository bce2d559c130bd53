package dev.sluice.clickhouse.expr;

/**
 * The values of a Nullable argument without its null map (the server's {@code assumeNotNull}): a
 * NULL row keeps whatever placeholder value it holds. {@code coalesce} takes a branch this way only
 * where the branch is not NULL.
 */
final class AssumeNotNullNode extends Node {
    private final Node arg;

    AssumeNotNullNode(Node arg) {
        super(arg.type.withNullable(false));
        this.arg = arg;
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        out.size = a.size;
        out.constant = a.constant;
        out.longs = a.longs;
        out.doubles = a.doubles;
        out.bytes = a.bytes;
        out.starts = a.starts;
        out.ends = a.ends;
        out.bytesUsed = a.bytesUsed;
        out.hasNulls = false;
        return out;
    }
}
