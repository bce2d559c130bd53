package dev.sluice.pipeline.decode.raw;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.PolledRecords;

/**
 * The whole record, unparsed, into one column ({@code decode: {raw: {column: payload}}}): a String
 * column takes the bytes as they are; another type takes them as a text field of that type.
 * Messages in a format no decoder reads (or that a materialized view or a computed column parses
 * later) keep every byte.
 */
public final class RawDecoder implements Decoder {
    private final ColumnSlot slot;
    private final int[] fed;

    public RawDecoder(ColumnSlot slot) {
        this.slot = slot;
        this.fed = new int[] {slot.index};
    }

    @Override
    public int[] fedColumns() {
        return fed.clone();
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        Column c = row.block().column(slot.index);
        try {
            slot.converter.text(c, batch.data, batch.start[index], batch.length(index));
        } catch (ConversionException | ColumnValueException e) {
            throw slot.error(e);
        }
    }
}
