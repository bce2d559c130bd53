package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.expr.EvalContext;
import dev.sluice.pipeline.transform.expr.Expr;
import java.util.List;

/**
 * The constant and computed transforms: each column gets its expression's value (a constant is an
 * expression too) for every row.
 */
final class ComputedColumns implements Transform {
    private final ColumnSlot[] slots;
    private final Expr[] exprs;
    private final int[] produced;
    private final EvalContext context;
    private final BlockColumns blockColumns = new BlockColumns();

    ComputedColumns(List<ColumnSlot> slots, List<Expr> exprs, Clock clock) {
        this.slots = slots.toArray(new ColumnSlot[0]);
        this.exprs = exprs.toArray(new Expr[0]);
        this.produced = slots.stream().mapToInt(s -> s.index).toArray();
        this.context = new EvalContext(clock);
    }

    @Override
    public int[] producedColumns() {
        return produced.clone();
    }

    @Override
    public boolean apply(RowTarget row, RecordBatch batch, int index) throws RecordException {
        Column[] cols = blockColumns.of(row.block());
        context.bind(cols, row.row(), batch, index);
        for (int i = 0; i < slots.length; i++) {
            ColumnSlot s = slots[i];
            try {
                ValueWriter.write(exprs[i], context, s, cols[s.index]);
            } catch (ConversionException | ColumnValueException e) {
                throw s.error(e);
            }
        }
        return true;
    }
}
