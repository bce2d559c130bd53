package dev.sluice.clickhouse.defaults;

import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.expr.ExprParseException;
import dev.sluice.clickhouse.expr.ExprParser;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What happens to the defaults of a table for blocks of given columns, decided once per table and
 * block shape:
 *
 * <ul>
 *   <li>table columns the block does not have are left out of the INSERT: the server fills them
 *       ({@link #omittedColumns()});
 *   <li>for each block column, what its missing fields get ({@link #decision(int)}): nothing to do
 *       (no DEFAULT expression: the type's default, which the decoder appended, is the server's
 *       too), computed here ({@link Action#CLIENT}), or left to the server ({@link Action#SERVER},
 *       with the reason): rows lacking such a column go in a separate INSERT without it ({@link
 *       DefaultGroups});
 *   <li>input naming a MATERIALIZED or ALIAS column is refused, unless allowed.
 * </ul>
 *
 * <p>Evaluated columns compute the server's value: see {@code docs/defaults.md} for the functions
 * and how each was checked against the server.
 */
public final class DefaultsPlan {

    public enum Action {
        /** No DEFAULT expression: the placeholder (the type's default) is the server's value. */
        NONE,
        /** The DEFAULT expression is computed here for the rows that lack the field. */
        CLIENT,
        /** Outside what is computed here: rows lacking the field go to the server without it. */
        SERVER
    }

    /** The plan for one block column. */
    public record Decision(String column, Action action, String expression, String reason) {}

    private final TableSchema table;
    private final List<String> blockColumns;
    private final List<Decision> decisions;
    private final List<String> omitted;
    private final List<Expr> expressions; // per block column, for CLIENT
    private final Bindings bindings;

    private DefaultsPlan(
            TableSchema table,
            List<String> blockColumns,
            List<Decision> decisions,
            List<String> omitted,
            List<Expr> expressions,
            Bindings bindings) {
        this.table = table;
        this.blockColumns = blockColumns;
        this.decisions = decisions;
        this.omitted = omitted;
        this.expressions = expressions;
        this.bindings = bindings;
    }

    /**
     * The plan for blocks whose columns are {@code blockColumns}, in block order.
     *
     * @param serverZone the server's time zone ({@code Bindings.zone(server.timezone())})
     * @throws IllegalArgumentException when a block column is not in the table, or is MATERIALIZED
     *     or ALIAS and {@code options} do not allow that
     */
    public static DefaultsPlan of(
            TableSchema table,
            List<String> blockColumns,
            ZoneId serverZone,
            DefaultsOptions options) {
        Set<String> sent = new HashSet<>(blockColumns);
        List<String> refused = new ArrayList<>();
        for (String name : blockColumns) {
            TableSchema.Column c = table.column(name);
            if (c == null) {
                throw new IllegalArgumentException(
                        "table " + table.qualifiedName() + " has no column " + name);
            }
            if (!c.insertable() && !options.computedColumnsAllowed()) {
                refused.add(name + " (" + c.defaultKind() + " " + c.defaultExpression() + ")");
            }
        }
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(
                    "the input names columns the server computes, which an INSERT cannot send: "
                            + String.join(", ", refused));
        }
        Bindings bindings = new Bindings(serverZone);
        for (TableSchema.Column c : table.columns()) {
            if (c.type() != null) {
                bindings.column(c.name(), c.type());
            }
            boolean aliased =
                    hasExpression(c)
                            && (options.references() == DefaultsOptions.References.EXPRESSIONS
                                    || !sent.contains(c.name()));
            if (aliased) {
                try {
                    bindings.alias(c.name(), ExprParser.parse(c.defaultExpression()));
                } catch (ExprParseException e) {
                    // left unbound: an expression using this column is unsupported
                }
            }
        }
        List<Decision> decisions = new ArrayList<>();
        List<Expr> expressions = new ArrayList<>();
        for (String name : blockColumns) {
            TableSchema.Column c = table.column(name);
            Expr expr = null;
            Decision d;
            if (c.defaultKind() != TableSchema.DefaultKind.DEFAULT
                    || c.defaultExpression().isEmpty()) {
                d = new Decision(name, Action.NONE, "", null);
            } else {
                String problem = check(c, bindings, sent, options, table);
                if (problem == null) {
                    expr = ExprParser.parse(c.defaultExpression());
                    d = new Decision(name, Action.CLIENT, c.defaultExpression(), null);
                } else {
                    d = new Decision(name, Action.SERVER, c.defaultExpression(), problem);
                }
            }
            decisions.add(d);
            expressions.add(expr);
        }
        List<String> omitted = new ArrayList<>();
        for (TableSchema.Column c : table.insertableColumns()) {
            if (!sent.contains(c.name())) {
                omitted.add(c.name());
            }
        }
        return new DefaultsPlan(
                table,
                List.copyOf(blockColumns),
                Collections.unmodifiableList(decisions),
                List.copyOf(omitted),
                Collections.unmodifiableList(expressions),
                bindings);
    }

    private static boolean hasExpression(TableSchema.Column c) {
        return c.defaultKind() != TableSchema.DefaultKind.NONE
                && c.defaultKind() != TableSchema.DefaultKind.EPHEMERAL
                && !c.defaultExpression().isEmpty();
    }

    /** Null when the column's DEFAULT is computed here, else why not. */
    private static String check(
            TableSchema.Column c,
            Bindings bindings,
            Set<String> sent,
            DefaultsOptions options,
            TableSchema table) {
        if (c.type() == null) {
            return "its type " + c.typeName() + " is not supported";
        }
        Expr expr;
        try {
            expr = ExprParser.parse(c.defaultExpression());
        } catch (ExprParseException e) {
            return "the expression does not parse: " + e.getMessage();
        }
        CompiledExpression compiled;
        try {
            compiled = CompiledExpression.compile(expr, bindings, c.type());
        } catch (UnsupportedExpressionException e) {
            return e.getMessage();
        }
        for (String col : compiled.columns()) {
            if (!sent.contains(col)) {
                return "it reads column " + col + ", which the insert does not send";
            }
            if (options.references() == DefaultsOptions.References.VALUES_WHEN_SENT
                    && !col.equals(c.name())
                    && hasExpression(table.column(col))) {
                return "it reads " + col + ", which has a default of its own: left to the server";
            }
        }
        return null;
    }

    public TableSchema table() {
        return table;
    }

    public List<String> blockColumns() {
        return blockColumns;
    }

    /** One decision per block column, in block order. */
    public List<Decision> decisions() {
        return decisions;
    }

    public Decision decision(int blockColumn) {
        return decisions.get(blockColumn);
    }

    /** Insertable table columns the block does not have: the INSERT omits them. */
    public List<String> omittedColumns() {
        return omitted;
    }

    /** True when some column's missing fields are left to the server. */
    public boolean anyServerFilled() {
        for (Decision d : decisions) {
            if (d.action() == Action.SERVER) {
                return true;
            }
        }
        return false;
    }

    /** A filler for this plan; one per thread (it keeps buffers). */
    public DefaultFiller newFiller() {
        return new DefaultFiller(this);
    }

    Expr expression(int blockColumn) {
        return expressions.get(blockColumn);
    }

    Bindings bindings() {
        return bindings;
    }

    /** Human-readable summary, e.g. for a startup log line. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("defaults of " + table.qualifiedName() + ":");
        for (Decision d : decisions) {
            if (d.action() != Action.NONE) {
                sb.append("\n  ").append(d.column()).append(" DEFAULT ").append(d.expression());
                sb.append(
                        d.action() == Action.CLIENT
                                ? ": computed here"
                                : ": by the server (" + d.reason() + ")");
            }
        }
        if (!omitted.isEmpty()) {
            sb.append("\n  omitted, filled by the server: ").append(String.join(", ", omitted));
        }
        return sb.toString();
    }
}
