package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.expr.ValueType;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code computed} and {@code constant} transforms: each column gets its expression's value (a
 * constant is an expression too), converted to the column's type as the server's {@code CAST}
 * converts it — so a NULL for a column that is not Nullable is refused, as the server refuses it. A
 * column of a type the engine does not produce (Decimal, DateTime64, UUID, IPv4, ...) gets the
 * expression's value through the column's converter, as a decoder writes a field of that value.
 */
final class ComputedColumns extends ExpressionTransform {

    /** One column, its expression, and whether its values go through the column's converter. */
    record Output(ColumnSlot slot, CompiledExpression expression, boolean viaConverter) {}

    private final Output[] outputs;
    private final int[] produced;
    private final ValueVector[] values;
    private final int[] before;
    private final BlockColumns blockColumns = new BlockColumns();
    private final int[] one = new int[1];

    ComputedColumns(List<Output> outputs, Clock clock) {
        super(clock);
        this.outputs = outputs.toArray(new Output[0]);
        this.produced = outputs.stream().mapToInt(o -> o.slot().index).toArray();
        this.values = new ValueVector[this.outputs.length];
        this.before = new int[this.outputs.length];
    }

    @Override
    public int[] producedColumns() {
        return produced.clone();
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
        Column[] cols = blockColumns.of(block);
        RecordRows raw = records(batch, first, recordOf);
        for (int k = 0; k < outputs.length; k++) {
            before[k] = cols[outputs[k].slot().index].rows();
        }
        try {
            for (int k = 0; k < outputs.length; k++) {
                values[k] = outputs[k].expression().evaluate(block, rows, count, nowSeconds, raw);
            }
            for (int i = 0; i < count; i++) {
                for (int k = 0; k < outputs.length; k++) {
                    write(outputs[k], values[k], i, cols[outputs[k].slot().index]);
                }
            }
            return count;
        } catch (UnsupportedValueException | ColumnValueException | ConversionException e) {
            truncate(cols);
            throw refusedRows(block, rows, count, nowSeconds, raw, cols);
        }
    }

    /** Evaluates row by row to name every row refused; appends nothing. */
    private Refused refusedRows(
            Block block, int[] rows, int count, long now, RecordRows raw, Column[] cols) {
        List<Integer> indexes = new ArrayList<>();
        List<RecordException> errors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            one[0] = rows[i];
            for (Output o : outputs) {
                try {
                    ValueVector v = o.expression().evaluate(block, one, 1, now, raw);
                    Column c = cols[o.slot().index];
                    int at = c.rows();
                    try {
                        write(o, v, 0, c);
                    } finally {
                        c.truncate(at);
                    }
                } catch (UnsupportedValueException e) {
                    indexes.add(i);
                    errors.add(
                            RecordException.ofColumn(
                                    o.slot().name, o.slot().typeName, e.getMessage()));
                    break;
                } catch (ColumnValueException | ConversionException e) {
                    indexes.add(i);
                    errors.add(o.slot().error(e));
                    break;
                }
            }
        }
        truncate(cols);
        if (indexes.isEmpty()) {
            throw new IllegalStateException(
                    "computed columns refused rows together but none alone (a bug)");
        }
        return new Refused(
                indexes.stream().mapToInt(Integer::intValue).toArray(),
                errors.toArray(new RecordException[0]));
    }

    private void truncate(Column[] cols) {
        for (int k = 0; k < outputs.length; k++) {
            cols[outputs[k].slot().index].truncate(before[k]);
        }
    }

    /** Appends value {@code i} of {@code v} to the output's column. */
    private static void write(Output o, ValueVector v, int i, Column c) {
        if (!o.viaConverter()) {
            CompiledExpression.append(v, i, c);
            return;
        }
        ColumnSlot s = o.slot();
        if (v.isNull(i)) {
            if (!s.converter.nullable()) {
                throw new UnsupportedValueException(
                        "NULL cannot be written to the non-Nullable " + s.typeName);
            }
            s.converter.nul(c);
            return;
        }
        ValueType t = v.type();
        switch (t.kind()) {
            case STRING, FIXED_STRING ->
                    s.converter.text(c, v.bytes(), v.start(i), v.end(i) - v.start(i));
            case FLOAT -> s.converter.floating(c, v.getDouble(i));
            case DATE -> s.converter.date(c, (int) v.getLong(i));
            case DATETIME -> s.converter.dateTime(c, v.getLong(i));
            case INT -> {
                long x = v.getLong(i);
                if (!t.signed() && t.bits() == 64 && x < 0) {
                    byte[] digits =
                            Long.toUnsignedString(x)
                                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    s.converter.number(c, digits, 0, digits.length);
                } else {
                    s.converter.integer(c, x);
                }
            }
            default ->
                    throw new UnsupportedValueException(
                            "a " + t.typeName() + " cannot be written to " + s.typeName);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("computed");
        for (Output o : outputs) {
            sb.append(' ').append(o.slot().name).append(" = ").append(o.expression().source());
        }
        return sb.toString();
    }
}
