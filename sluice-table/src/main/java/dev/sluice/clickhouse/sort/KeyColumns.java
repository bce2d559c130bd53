package dev.sluice.clickhouse.sort;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.expr.ExprParseException;
import dev.sluice.clickhouse.expr.ExprParser;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.ValueType;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The values of a key (sorting or partition) for the rows of a block: one compiled expression per
 * key part, evaluated columnar, and the server's comparison of two rows: numbers by value (UInt64
 * unsigned), strings as unsigned bytes with a shorter prefix first, floats with NaN after every
 * number and {@code -0 == 0}, NULL after every value (MergeTree sorts with {@code nulls_direction =
 * 1}), parts left to right.
 *
 * <p>Key columns the block lacks but the table computes (DEFAULT and MATERIALIZED columns the
 * insert omits) are computed from their expressions, as the server does before sorting.
 */
final class KeyColumns {
    private final CompiledExpression[] parts;
    private final ValueVector[] values;
    private int rows;

    private KeyColumns(CompiledExpression[] parts) {
        this.parts = parts;
        this.values = new ValueVector[parts.length];
    }

    /**
     * The key of {@code table} for blocks with columns {@code blockColumns}; throws {@link
     * UnsupportedExpressionException} naming the part that cannot be computed here.
     */
    static KeyColumns of(
            Supplier<List<Expr>> key,
            TableSchema table,
            List<String> blockColumns,
            ZoneId serverZone)
            throws UnsupportedExpressionException {
        List<Expr> exprs;
        try {
            exprs = key.get();
        } catch (ExprParseException e) {
            throw new UnsupportedExpressionException("the key does not parse: " + e.getMessage());
        }
        Bindings bindings = new Bindings(serverZone);
        for (TableSchema.Column c : table.columns()) {
            boolean inBlock = blockColumns.contains(c.name());
            if (c.type() == null && inBlock) {
                continue; // a type we cannot read; an error only if the key uses it
            }
            if (c.type() != null) {
                bindings.column(c.name(), c.type());
            }
            boolean computed =
                    c.defaultKind() == TableSchema.DefaultKind.MATERIALIZED
                            || c.defaultKind() == TableSchema.DefaultKind.ALIAS
                            || (!inBlock && c.defaultKind() == TableSchema.DefaultKind.DEFAULT);
            if (computed && !c.defaultExpression().isEmpty()) {
                try {
                    bindings.alias(c.name(), ExprParser.parse(c.defaultExpression()));
                } catch (ExprParseException e) {
                    // left unbound: a key using this column is unsupported
                }
            }
        }
        CompiledExpression[] parts = new CompiledExpression[exprs.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = CompiledExpression.compile(exprs.get(i), bindings);
            if (parts[i].usesClock() && !parts[i].rowIndependent()) {
                throw new UnsupportedExpressionException(
                        "key part " + exprs.get(i) + " depends on the server's clock");
            }
            for (String col : parts[i].columns()) {
                if (!blockColumns.contains(col)) {
                    throw new UnsupportedExpressionException(
                            "key part "
                                    + exprs.get(i)
                                    + " reads column "
                                    + col
                                    + ", which the insert does not send");
                }
            }
            if (parts[i].type().kind() == ValueType.Kind.NULL) {
                throw new UnsupportedExpressionException("key part " + exprs.get(i) + " is NULL");
            }
        }
        return new KeyColumns(parts);
    }

    int size() {
        return parts.length;
    }

    /** The type of key part {@code i}. */
    ValueType type(int i) {
        return parts[i].type();
    }

    ValueVector part(int i) {
        return values[i];
    }

    /** Computes the key for every row of {@code block}. */
    void evaluate(Block block, long nowSeconds) {
        rows = block.rows();
        for (int i = 0; i < parts.length; i++) {
            values[i] = parts[i].evaluate(block, nowSeconds);
        }
    }

    int rows() {
        return rows;
    }

    /** The server's order of rows {@code a} and {@code b}: negative, zero or positive. */
    int compare(int a, int b) {
        for (ValueVector v : values) {
            int c = compare(v, a, b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    static int compare(ValueVector v, int a, int b) {
        if (v.isConstant()) {
            return 0;
        }
        if (v.hasNulls()) {
            boolean na = v.isNull(a);
            boolean nb = v.isNull(b);
            if (na || nb) {
                return na == nb ? 0 : na ? 1 : -1;
            }
        }
        ValueType t = v.type();
        return switch (t.kind()) {
            case FLOAT -> compareFloats(v.getDouble(a), v.getDouble(b));
            case STRING, FIXED_STRING ->
                    Arrays.compareUnsigned(
                            v.bytes(), v.start(a), v.end(a), v.bytes(), v.start(b), v.end(b));
            case INT ->
                    t.signed() || t.bits() < 64
                            ? Long.compare(v.getLong(a), v.getLong(b))
                            : Long.compareUnsigned(v.getLong(a), v.getLong(b));
            default -> Long.compare(v.getLong(a), v.getLong(b));
        };
    }

    /** NaN sorts after all numbers (and equals NaN); -0 equals 0. */
    static int compareFloats(double x, double y) {
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        boolean nx = Double.isNaN(x);
        boolean ny = Double.isNaN(y);
        return nx == ny ? 0 : nx ? 1 : -1;
    }

    /** True when no row is ordered before its predecessor. */
    boolean sorted() {
        for (int r = 1; r < rows; r++) {
            if (compare(r - 1, r) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * When every part is an integer-like value without NULLs and the parts' ranges fit in 64 bits
     * together, writes each row's key packed into one unsigned long (most significant part first)
     * and returns how many low bits the packed keys use; the packed keys order the rows as {@link
     * #compare} does. Returns -1 (and writes nothing) for other keys.
     */
    int pack(long[] out) {
        int n = rows;
        int totalBits = 0;
        long[] mins = new long[values.length];
        int[] widths = new int[values.length];
        for (int p = 0; p < values.length; p++) {
            ValueVector v = values[p];
            if (v.isConstant()) {
                continue;
            }
            ValueType.Kind k = v.type().kind();
            if (v.hasNulls()
                    || k == ValueType.Kind.FLOAT
                    || k == ValueType.Kind.STRING
                    || k == ValueType.Kind.FIXED_STRING) {
                return -1;
            }
            boolean unsigned64 =
                    k == ValueType.Kind.INT && !v.type().signed() && v.type().bits() == 64;
            // Offset from the minimum, so a narrow range takes few bits.
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int r = 0; r < n; r++) {
                long x = v.getLong(r) ^ (unsigned64 ? Long.MIN_VALUE : 0);
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
            long span = max - min; // unsigned
            int bits = 64 - Long.numberOfLeadingZeros(span);
            mins[p] = min;
            widths[p] = bits;
            totalBits += bits;
            if (totalBits > 64) {
                return -1;
            }
        }
        Arrays.fill(out, 0, n, 0L);
        for (int p = 0; p < values.length; p++) {
            ValueVector v = values[p];
            if (v.isConstant() || widths[p] == 0) {
                continue;
            }
            boolean unsigned64 =
                    v.type().kind() == ValueType.Kind.INT
                            && !v.type().signed()
                            && v.type().bits() == 64;
            int w = widths[p];
            long min = mins[p];
            for (int r = 0; r < n; r++) {
                long x = (v.getLong(r) ^ (unsigned64 ? Long.MIN_VALUE : 0)) - min;
                out[r] = w == 64 ? x : (out[r] << w) | x;
            }
        }
        return totalBits == 0 ? -1 : totalBits;
    }
}
