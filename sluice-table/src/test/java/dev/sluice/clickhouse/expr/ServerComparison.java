package dev.sluice.clickhouse.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.FixedBytesColumn;
import dev.sluice.clickhouse.column.FloatColumn;
import dev.sluice.clickhouse.column.IntColumn;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.types.TypeParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A table on the test server and the same rows in a local block: an expression evaluated by the
 * server ({@code SELECT expr FROM t ORDER BY i}) and by {@link CompiledExpression} over the block
 * must give the same type and the same value in every row.
 */
final class ServerComparison {
    private final NativeConnection connection;
    private final String table;
    private final Block block;
    private final Bindings bindings;
    private final Map<String, Integer> compared = new LinkedHashMap<>();

    /**
     * Creates the table with columns {@code i UInt32} then {@code columns} (name to type) and
     * inserts the rows {@code fill} appends to the block's columns (all but {@code i}).
     */
    ServerComparison(
            NativeConnection connection,
            String prefix,
            Map<String, String> columns,
            int rows,
            Consumer<Block> fill) {
        this.connection = connection;
        this.table = TestServer.newTable(prefix);
        List<Column> cols = new ArrayList<>();
        List<String> types = new ArrayList<>();
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (i UInt32");
        cols.add(ColumnFactory.create("i", "UInt32"));
        types.add("UInt32");
        bindings = new Bindings(Bindings.zone(connection.server().timezone()));
        for (Map.Entry<String, String> e : columns.entrySet()) {
            ddl.append(", ").append(e.getKey()).append(' ').append(e.getValue());
            cols.add(ColumnFactory.create(e.getKey(), e.getValue()));
            types.add(e.getValue());
            bindings.column(e.getKey(), TypeParser.parse(e.getValue()));
        }
        ddl.append(") ENGINE = Memory");
        connection.execute(ddl.toString(), Map.of("allow_experimental_low_cardinality_type", "1"));
        block = new Block(cols, types);
        for (int r = 0; r < rows; r++) {
            block.column(0).appendLong(r);
        }
        fill.accept(block);
        connection.insert(table, block, Map.of(), null);
    }

    String table() {
        return table;
    }

    Block block() {
        return block;
    }

    Bindings bindings() {
        return bindings;
    }

    /** Asserts that the server and the evaluator agree on {@code expression} for every row. */
    void check(String expression) {
        check(expression, 0);
    }

    /**
     * Like {@link #check(String)}, but the evaluator may refuse up to {@code maxRefused} rows
     * ({@link UnsupportedValueException}); the other rows must agree.
     */
    void check(String expression, int maxRefused) {
        CompiledExpression compiled;
        try {
            compiled = CompiledExpression.compile(expression, bindings);
        } catch (UnsupportedExpressionException e) {
            throw new AssertionError(expression + ": " + e.getMessage(), e);
        }
        int rows = block.rows();
        String[] ours = new String[rows];
        int refused = 0;
        try {
            ValueVector v = compiled.evaluate(block, 0);
            for (int r = 0; r < rows; r++) {
                ours[r] = render(v, r);
            }
        } catch (UnsupportedValueException whole) {
            int[] one = new int[1];
            for (int r = 0; r < rows; r++) {
                one[0] = r;
                try {
                    ours[r] = render(compiled.evaluate(block, one, 1, 0), 0);
                } catch (UnsupportedValueException e) {
                    refused++;
                }
            }
        }
        assertThat(refused)
                .as("rows of %s the evaluator refused", expression)
                .isLessThanOrEqualTo(maxRefused);
        List<String> theirs = new ArrayList<>();
        String[] theirType = new String[1];
        connection.query(
                "SELECT " + expression + " FROM " + table + " ORDER BY i",
                Map.of(),
                b -> {
                    theirType[0] = b.typeName(0);
                    for (int r = 0; r < b.rows(); r++) {
                        theirs.add(render(b.column(0), r));
                    }
                });
        // Over a LowCardinality argument the server's result is LowCardinality too: same values.
        String serverType = theirType[0].replaceAll("^LowCardinality\\((.*)\\)$", "$1");
        assertThat(compiled.type().typeName()).as("type of %s", expression).isEqualTo(serverType);
        assertThat(theirs).as("rows of %s", expression).hasSize(rows);
        List<String> mismatches = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (ours[r] != null && !ours[r].equals(theirs.get(r))) {
                mismatches.add(
                        "row "
                                + r
                                + " "
                                + inputs(compiled, r)
                                + ": server "
                                + theirs.get(r)
                                + ", ours "
                                + ours[r]);
            }
        }
        assertThat(mismatches).as("%s", expression).isEmpty();
        compared.merge(functionName(expression), rows - refused, Integer::sum);
    }

    /** Asserts that the evaluator refuses {@code expression} (a form it does not reproduce). */
    void checkUnsupported(String expression) {
        try {
            CompiledExpression.compile(expression, bindings);
        } catch (UnsupportedExpressionException e) {
            return;
        }
        throw new AssertionError(expression + " should be unsupported");
    }

    /** Values compared per outermost function. */
    Map<String, Integer> compared() {
        return compared;
    }

    private String inputs(CompiledExpression e, int r) {
        StringBuilder sb = new StringBuilder();
        for (String c : e.columns()) {
            sb.append(c).append('=').append(render(block.column(c), r)).append(' ');
        }
        return sb.toString().trim();
    }

    /** The outermost function, as the parser names it ({@code a % b} is {@code modulo}). */
    private static String functionName(String expression) {
        Expr e = ExprParser.parse(expression);
        return e instanceof Expr.Call c ? c.function() : "column";
    }

    static String render(Column c, int r) {
        if (c.isNull(r)) {
            return "NULL";
        }
        return switch (c) {
            case NullableColumn n -> render(n.inner(), r);
            case LowCardinalityColumn lc -> render(lc.dictionary(), lc.index(r));
            case StringColumn s ->
                    "'" + new String(s.getBytes(r), StandardCharsets.ISO_8859_1) + "'";
            case FixedBytesColumn f ->
                    "'" + new String(f.getBytes(r), StandardCharsets.ISO_8859_1) + "'";
            case FloatColumn f -> Double.toString(f.getDouble(r));
            case IntColumn i ->
                    Long.toString(i.getLong(r)) + (i.getLong(r) < 0 ? "/" + i.getString(r) : "");
            default -> String.valueOf(c.getObject(r));
        };
    }

    static String render(ValueVector v, int r) {
        if (v.isNull(r)) {
            return "NULL";
        }
        ValueType t = v.type();
        return switch (t.kind()) {
            case STRING, FIXED_STRING ->
                    "'"
                            + new String(
                                    v.bytes(),
                                    v.start(r),
                                    v.end(r) - v.start(r),
                                    StandardCharsets.ISO_8859_1)
                            + "'";
            case FLOAT -> Double.toString(t.bits() == 32 ? (float) v.getDouble(r) : v.getDouble(r));
            case NULL -> "NULL";
            default -> {
                long x = v.getLong(r);
                String unsigned = t.signed() ? Long.toString(x) : Long.toUnsignedString(x);
                yield Long.toString(x) + (x < 0 ? "/" + unsigned : "");
            }
        };
    }
}
