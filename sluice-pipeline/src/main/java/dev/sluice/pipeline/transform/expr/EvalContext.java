package dev.sluice.pipeline.transform.expr;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.source.RecordBatch;
import dev.sluice.pipeline.time.Clock;

/**
 * The row an expression is evaluated on. {@link #nul} works like JDBC's {@code wasNull}: every
 * evaluation sets it, so a value and its NULL-ness come from one pass over the expression.
 */
public final class EvalContext {
    final Clock clock;
    Column[] columns;
    int row;
    RecordBatch batch;
    int index;

    /** Set by each evaluation: the value just returned is NULL. */
    boolean nul;

    public EvalContext(Clock clock) {
        this.clock = clock;
    }

    /** Points the context at row {@code row} of {@code columns}, from record {@code index}. */
    public void bind(Column[] columns, int row, RecordBatch batch, int index) {
        this.columns = columns;
        this.row = row;
        this.batch = batch;
        this.index = index;
    }

    /** True when the value of the last evaluation is NULL. */
    public boolean wasNull() {
        return nul;
    }
}
