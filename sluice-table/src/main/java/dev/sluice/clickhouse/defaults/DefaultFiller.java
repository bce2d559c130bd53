package dev.sluice.clickhouse.defaults;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.expr.ValueVector;
import java.util.ArrayList;
import java.util.List;

/**
 * Replaces the placeholders of a batch's missing fields with the columns' DEFAULT values, computed
 * columnar for just the rows that lack each column. What it cannot compute it leaves in place and
 * reports, so the caller sends those rows without the column ({@link DefaultGroups}).
 *
 * <p>{@code now()} and {@code today()} take one value per batch, the {@code nowSeconds} passed in:
 * the server, too, takes the time once per block it fills.
 *
 * <p>One per thread: it keeps compiled expressions and buffers from batch to batch.
 */
public final class DefaultFiller {
    private final DefaultsPlan plan;
    private final CompiledExpression[] compiled;
    private final Column[] scratch;
    private int[] absentRows = new int[0];
    private int[] identity = new int[0];

    DefaultFiller(DefaultsPlan plan) {
        this.plan = plan;
        int n = plan.blockColumns().size();
        compiled = new CompiledExpression[n];
        scratch = new Column[n];
        for (int i = 0; i < n; i++) {
            if (plan.decision(i).action() != DefaultsPlan.Action.CLIENT) {
                continue;
            }
            try {
                compiled[i] =
                        CompiledExpression.compile(
                                plan.expression(i),
                                plan.bindings(),
                                plan.table().column(plan.decision(i).column()).type());
            } catch (UnsupportedExpressionException e) {
                throw new IllegalStateException("the plan accepted " + plan.decision(i), e);
            }
        }
    }

    /**
     * Fills the DEFAULT of every column the plan computes, in the rows {@code absent} marks.
     * Returns the block columns that still have rows lacking a value (the plan's SERVER columns,
     * and columns with a value this batch could not compute): empty when the block is complete,
     * else pass them to {@link DefaultGroups#split}.
     *
     * @param nowSeconds the batch's {@code now()}, in epoch seconds
     */
    public List<Integer> fill(Block block, AbsentRows absent, long nowSeconds) {
        List<Integer> left = new ArrayList<>();
        int rows = block.rows();
        for (int c = 0; c < compiled.length; c++) {
            if (!absent.anyAbsent(c)) {
                continue;
            }
            if (compiled[c] == null) {
                if (plan.decision(c).action() == DefaultsPlan.Action.SERVER) {
                    left.add(c);
                }
                continue;
            }
            if (absentRows.length < rows) {
                absentRows = new int[rows];
            }
            int n = absent.rows(c, absentRows);
            ValueVector values;
            try {
                values = compiled[c].evaluate(block, absentRows, n, nowSeconds);
            } catch (UnsupportedValueException e) {
                left.add(c); // this batch's rows lacking c go to the server
                continue;
            }
            replace(block, c, absentRows, n, values);
        }
        return left;
    }

    /** Rewrites column c with {@code values[k]} in row {@code rows[k]}, other rows unchanged. */
    private void replace(Block block, int c, int[] rows, int n, ValueVector values) {
        Column target = block.column(c);
        int total = target.rows();
        if (identity.length < total) {
            identity = new int[total];
            for (int i = 0; i < total; i++) {
                identity[i] = i;
            }
        }
        Column copy = scratch[c];
        if (copy == null) {
            copy = ColumnFactory.create(target.name(), target.type());
            scratch[c] = copy;
        }
        copy.reset();
        int from = 0;
        for (int k = 0; k < n; k++) {
            int r = rows[k];
            copy.appendRowsFrom(target, identity, from, r);
            CompiledExpression.append(values, k, copy);
            from = r + 1;
        }
        copy.appendRowsFrom(target, identity, from, total);
        target.reset();
        target.appendRowsFrom(copy, identity, 0, total);
    }
}
