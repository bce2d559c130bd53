package dev.sluice.pipeline.testing;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A trivial decoder for tests: a record is comma-separated fields, the i-th field going to the
 * input column {@code inputs[i]}. An empty or missing field is absent (the type's default plus
 * {@link RowTarget#absent}); a field {@code !} is a bad value. Integer columns take decimal
 * integers, others text.
 */
public final class TestDecoder implements Decoder {
    private final int[] fieldOfColumn;
    private final int[] fed;
    private final boolean[] integer;

    public TestDecoder(TargetColumns columns, List<String> inputs) {
        fieldOfColumn = new int[columns.size()];
        integer = new boolean[columns.size()];
        int n = 0;
        for (int c = 0; c < columns.size(); c++) {
            fieldOfColumn[c] = inputs.indexOf(columns.columns().get(c).name());
            n += fieldOfColumn[c] >= 0 ? 1 : 0;
            integer[c] =
                    columns.columns().get(c).type() instanceof SimpleType t
                            && t != SimpleType.STRING
                            && t != SimpleType.FLOAT32
                            && t != SimpleType.FLOAT64;
        }
        fed = new int[n];
        for (int c = 0, i = 0; c < columns.size(); c++) {
            if (fieldOfColumn[c] >= 0) {
                fed[i++] = c;
            }
        }
    }

    @Override
    public int[] fedColumns() {
        return fed;
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        String[] fields =
                new String(
                                batch.data,
                                batch.start[index],
                                batch.length(index),
                                StandardCharsets.UTF_8)
                        .split(",", -1);
        for (int c : fed) {
            Column column = row.block().column(c);
            int f = fieldOfColumn[c];
            String v = f < fields.length ? fields[f] : "";
            if (v.isEmpty()) {
                column.appendDefault();
                row.absent(c);
            } else if (v.equals("!")) {
                throw new RecordException(column.name(), "bad value '!'");
            } else if (integer[c]) {
                try {
                    column.appendLong(Long.parseLong(v));
                } catch (NumberFormatException e) {
                    throw new RecordException(column.name(), "not a number: " + v);
                }
            } else {
                column.appendString(v);
            }
        }
    }
}
