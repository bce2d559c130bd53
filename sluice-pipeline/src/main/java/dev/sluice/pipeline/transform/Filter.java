package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code filter} transform: keeps the rows whose condition — a UInt8, as the server's {@code
 * WHERE} takes — is neither 0 nor NULL. A dropped row counts as filtered, not as an error.
 */
final class Filter extends ExpressionTransform {
    private final String source;
    private final CompiledExpression condition;
    private final int[] one = new int[1];

    Filter(String source, CompiledExpression condition, Clock clock) {
        super(clock);
        this.source = source;
        this.condition = condition;
    }

    @Override
    public int[] producedColumns() {
        return new int[0];
    }

    @Override
    int evaluate(
            Block block,
            int[] rows,
            int count,
            long nowSeconds,
            PolledRecords batch,
            int first,
            int[] recordOf)
            throws Refused {
        RecordRows raw = records(batch, first, recordOf);
        ValueVector v;
        try {
            v = condition.evaluate(block, rows, count, nowSeconds, raw);
        } catch (UnsupportedValueException e) {
            throw refusedRows(block, rows, count, nowSeconds, raw);
        }
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (!v.isNull(i) && v.getLong(i) != 0) {
                rows[kept++] = rows[i];
            }
        }
        return kept;
    }

    private Refused refusedRows(Block block, int[] rows, int count, long now, RecordRows raw) {
        List<Integer> indexes = new ArrayList<>();
        List<RecordException> errors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            one[0] = rows[i];
            try {
                condition.evaluate(block, one, 1, now, raw);
            } catch (UnsupportedValueException e) {
                indexes.add(i);
                errors.add(new RecordException(null, "filter " + source + ": " + e.getMessage()));
            }
        }
        if (indexes.isEmpty()) {
            throw new IllegalStateException(
                    "a filter refused rows together but none alone (a bug)");
        }
        return new Refused(
                indexes.stream().mapToInt(Integer::intValue).toArray(),
                errors.toArray(new RecordException[0]));
    }

    @Override
    public String toString() {
        return "filter " + source;
    }
}
