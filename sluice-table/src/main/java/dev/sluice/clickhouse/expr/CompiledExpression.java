package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.util.Set;

/**
 * An expression ready to evaluate over the rows of blocks, columnar: each function runs over
 * primitive arrays, reused from batch to batch. Compile once per table and thread, evaluate per
 * batch; not thread-safe.
 *
 * <pre>{@code
 * Bindings b = new Bindings(Bindings.zone(server.timezone())).column("ts", DateTimeType.PLAIN);
 * CompiledExpression month = CompiledExpression.compile("toYYYYMM(ts)", b);
 * ValueVector v = month.evaluate(block, nowSeconds);   // v.getLong(row) for each row
 * }</pre>
 *
 * <p>Values are the server's for every supported function (see {@code docs/defaults.md} for the
 * list and how each was checked against a server); anything else fails to compile with {@link
 * UnsupportedExpressionException}, and a value outside what is reproduced fails evaluation with
 * {@link UnsupportedValueException}.
 */
public final class CompiledExpression {
    private final Expr source;
    private final Node root;
    private final Set<String> columns;
    private final boolean usesClock;
    private final boolean usesRaw;
    private final Node.Context context = new Node.Context();

    private CompiledExpression(Expr source, Node root, Compiler compiler) {
        this.source = source;
        this.root = root;
        this.columns = Set.copyOf(compiler.columns);
        this.usesClock = compiler.usesClock;
        this.usesRaw = compiler.usesRaw;
    }

    public static CompiledExpression compile(Expr expr, Bindings bindings)
            throws UnsupportedExpressionException {
        Compiler c = new Compiler(bindings);
        Node root = c.compile(expr);
        return new CompiledExpression(expr, root, c);
    }

    /** Compiles {@code expr} converted to {@code target} (an implicit CAST). */
    public static CompiledExpression compile(Expr expr, Bindings bindings, ClickHouseType target)
            throws UnsupportedExpressionException {
        Compiler c = new Compiler(bindings);
        Node root = c.compileAs(expr, target);
        return new CompiledExpression(expr, root, c);
    }

    /** Parses and compiles; a text the parser does not understand is unsupported. */
    public static CompiledExpression compile(String sql, Bindings bindings)
            throws UnsupportedExpressionException {
        return compile(parse(sql), bindings);
    }

    static Expr parse(String sql) throws UnsupportedExpressionException {
        try {
            return ExprParser.parse(sql);
        } catch (ExprParseException e) {
            throw new UnsupportedExpressionException("cannot parse " + sql + ": " + e.getMessage());
        }
    }

    /**
     * Whether expressions can be compiled to values of {@code type} (with {@link #compile(Expr,
     * Bindings, ClickHouseType)}): integers, floats, Date, DateTime, String, FixedString, Enum, and
     * Nullable or LowCardinality of those.
     */
    public static boolean canProduce(ClickHouseType type) {
        try {
            new Compiler(new Bindings(java.time.ZoneOffset.UTC)).valueType(type, "the type");
            return true;
        } catch (UnsupportedExpressionException e) {
            return false;
        }
    }

    public Expr source() {
        return source;
    }

    public ValueType type() {
        return root.type;
    }

    /** The block columns the expression reads (aliases resolved). */
    public Set<String> columns() {
        return columns;
    }

    /** True when {@code now()} or {@code today()} takes part: the value depends on the clock. */
    public boolean usesClock() {
        return usesClock;
    }

    /** True when {@code raw()} takes part: evaluations must pass the rows' records. */
    public boolean usesRaw() {
        return usesRaw;
    }

    /** True when the value is the same for every row of a batch (constants, now(), today()). */
    public boolean rowIndependent() {
        return root.rowIndependent();
    }

    /** Evaluates for all rows of {@code block}. */
    public ValueVector evaluate(Block block, long nowSeconds) {
        return evaluate(block, null, block.rows(), nowSeconds);
    }

    /**
     * Evaluates for block rows {@code rows[0 .. count)} (all rows {@code 0 .. count-1} when {@code
     * rows} is null); value {@code i} of the result belongs to row {@code rows[i]}.
     *
     * @param nowSeconds what {@code now()} and {@code today()} stand for in this evaluation
     * @throws UnsupportedValueException for a value whose server result is not reproduced
     */
    public ValueVector evaluate(Block block, int[] rows, int count, long nowSeconds) {
        return evaluate(block, rows, count, nowSeconds, null);
    }

    /**
     * Like {@link #evaluate(Block, int[], int, long)}, with the records the rows were decoded from,
     * for {@code raw()} (see {@link Bindings#rawRecord()}).
     *
     * @param raw the records behind the block's rows; required when {@link #usesRaw()}
     */
    public ValueVector evaluate(
            Block block, int[] rows, int count, long nowSeconds, RawRecords raw) {
        if (usesRaw && raw == null) {
            throw new IllegalArgumentException(source + " reads raw(): pass the rows' records");
        }
        context.block = block;
        context.rows = rows;
        context.count = count;
        context.nowSeconds = nowSeconds;
        context.raw = raw;
        try {
            return root.eval(context);
        } finally {
            context.block = null;
            context.rows = null;
            context.raw = null;
        }
    }

    /**
     * Appends value {@code i} of {@code v} to {@code target}, a column of the expression's type
     * (compile with that type as the target to get one).
     */
    public static void append(ValueVector v, int i, Column target) {
        if (v.isNull(i)) {
            target.appendNull();
            return;
        }
        ValueType t = v.type();
        switch (t.kind()) {
            case INT -> {
                if (!t.signed() && t.bits() == 64) {
                    target.appendUnsignedLong(v.getLong(i));
                } else {
                    target.appendLong(v.getLong(i));
                }
            }
            case FLOAT -> target.appendDouble(v.getDouble(i));
            case STRING, FIXED_STRING ->
                    target.appendBytes(v.bytes(), v.start(i), v.end(i) - v.start(i));
            case NULL -> target.appendNull();
            default -> target.appendLong(v.getLong(i));
        }
    }

    @Override
    public String toString() {
        return source + " : " + root.type;
    }
}
