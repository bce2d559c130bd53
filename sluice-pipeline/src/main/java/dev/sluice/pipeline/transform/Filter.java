package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.expr.EvalContext;
import dev.sluice.pipeline.transform.expr.Expr;

/** Keeps the rows whose condition is true; false and NULL drop the row (it counts as handled). */
final class Filter implements Transform {
    private final String source;
    private final Expr condition;
    private final EvalContext context;
    private final BlockColumns blockColumns = new BlockColumns();

    Filter(String source, Expr condition, Clock clock) {
        this.source = source;
        this.condition = condition;
        this.context = new EvalContext(clock);
    }

    @Override
    public int[] producedColumns() {
        return new int[0];
    }

    @Override
    public boolean apply(RowTarget row, RecordBatch batch, int index) throws RecordException {
        context.bind(blockColumns.of(row.block()), row.row(), batch, index);
        try {
            return condition.test(context) == 1;
        } catch (ConversionException | ColumnValueException e) {
            throw new RecordException(null, "filter " + source + ": " + e.getMessage());
        }
    }
}
