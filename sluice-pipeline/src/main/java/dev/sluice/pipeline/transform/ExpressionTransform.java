package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.time.Clock;
import java.util.Set;

/**
 * A transform made of ClickHouse expressions ({@code computed}, {@code constant}, {@code filter}),
 * compiled by the engine of {@code dev.sluice.clickhouse.expr}: the server's functions, types and
 * values. The runtime evaluates it column-wise over a range of rows ({@link ExpressionStage});
 * {@link #apply} evaluates it for one row, as the {@link Transform} SPI asks, with {@code now()}
 * from the clock.
 */
abstract sealed class ExpressionTransform implements Transform permits ComputedColumns, Filter {
    private final Clock clock;
    private final int[] oneRow = new int[1];
    private final int[] oneRecord = new int[1];
    private final RecordRows records = new RecordRows();

    ExpressionTransform(Clock clock) {
        this.clock = clock;
    }

    /**
     * The names an expression may read: the target's columns except {@code unavailable} (computed
     * by this or a later transform), the server's time zone, and {@code raw()}.
     */
    static Bindings bindings(TargetColumns target, Set<String> unavailable) {
        Bindings b = new Bindings(target.serverZone()).rawRecord();
        for (TableSchema.Column c : target.columns()) {
            if (c.type() != null && !unavailable.contains(c.name())) {
                b.column(c.name(), c.type());
            }
        }
        return b;
    }

    /** Compiles {@code sql}; a problem names the column a later transform computes. */
    static CompiledExpression compile(
            String sql,
            Bindings bindings,
            Set<String> unavailable,
            dev.sluice.clickhouse.types.ClickHouseType target)
            throws UnsupportedExpressionException {
        try {
            return target == null
                    ? CompiledExpression.compile(sql, bindings)
                    : CompiledExpression.compile(parse(sql), bindings, target);
        } catch (UnsupportedExpressionException e) {
            String m = e.getMessage();
            if (m.startsWith("unknown column ")
                    && unavailable.contains(m.substring("unknown column ".length()))) {
                throw new UnsupportedExpressionException(
                        "column "
                                + m.substring("unknown column ".length())
                                + " is computed by this or a later transform");
            }
            throw e;
        }
    }

    private static dev.sluice.clickhouse.expr.Expr parse(String sql)
            throws UnsupportedExpressionException {
        try {
            return dev.sluice.clickhouse.expr.ExprParser.parse(sql);
        } catch (dev.sluice.clickhouse.expr.ExprParseException e) {
            throw new UnsupportedExpressionException("cannot parse " + sql + ": " + e.getMessage());
        }
    }

    /**
     * Evaluates for block rows {@code rows[0 .. count)}, which came from records of {@code batch}
     * (block row {@code first + j} from record {@code recordOf[j]}). Computed columns take rows
     * that follow one another, starting at their columns' current end.
     *
     * @return for a filter, how many rows stay (moved to the front of {@code rows}, in order); for
     *     computed columns, {@code count}, with a value appended per row
     * @throws Refused naming every row whose value the engine or a column refuses; nothing was
     *     appended then
     */
    abstract int evaluate(
            Block block,
            int[] rows,
            int count,
            long nowSeconds,
            PolledRecords batch,
            int first,
            int[] recordOf)
            throws Refused;

    /** The target columns this transform appends to (none for a filter). */
    @Override
    public abstract int[] producedColumns();

    /**
     * One row, as the Transform SPI asks: the row being built at {@code row.row()}, from record
     * {@code index}; {@code now()} is the clock's.
     */
    @Override
    public final boolean apply(RowTarget row, PolledRecords batch, int index)
            throws RecordException {
        return applyRow(row, batch, index, Math.floorDiv(clock.currentTimeMillis(), 1000));
    }

    /** One row with the batch's {@code now()}: false when a filter drops it. */
    final boolean applyRow(RowTarget row, PolledRecords batch, int index, long nowSeconds)
            throws RecordException {
        oneRow[0] = row.row();
        oneRecord[0] = index;
        try {
            return evaluate(row.block(), oneRow, 1, nowSeconds, batch, row.row(), oneRecord) == 1;
        } catch (Refused e) {
            throw e.errors[0];
        }
    }

    /** The records behind rows {@code first ..}, for {@code raw()}. */
    final RecordRows records(PolledRecords batch, int first, int[] recordOf) {
        return records.bind(batch, first, recordOf);
    }

    /**
     * Rows whose value the engine or a column refuses: their places in the evaluated {@code rows}
     * (ascending), and the record error to report for each. Found by evaluating row by row after
     * the column-wise evaluation failed, which is rare (a record in error), so it may allocate.
     */
    static final class Refused extends Exception {
        final int[] indexes;
        final RecordException[] errors;

        Refused(int[] indexes, RecordException[] errors) {
            super(errors[0].getMessage(), null, false, false);
            this.indexes = indexes;
            this.errors = errors;
        }
    }
}
