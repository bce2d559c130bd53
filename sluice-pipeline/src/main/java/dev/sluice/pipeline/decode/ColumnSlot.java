package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;

/** One column a decoder feeds: its place in the block, its type, and its converter. */
public final class ColumnSlot {
    /** Index in the {@link TargetColumns} (and the block). */
    public final int index;

    public final String name;
    public final String typeName;
    public final Converter converter;

    public ColumnSlot(int index, String name, String typeName, Converter converter) {
        this.index = index;
        this.name = name;
        this.typeName = typeName;
        this.converter = converter;
    }

    /**
     * Appends NULL; for a column that cannot hold NULL, the column's default instead, reported as
     * absent — as ClickHouse treats NULL for a non-Nullable column (input_format_null_as_default).
     */
    public void nullOrAbsent(Column c, RowTarget row) {
        if (converter.nullable()) {
            converter.nul(c);
        } else {
            c.appendDefault();
            row.absent(index);
        }
    }

    /**
     * The record error for a value this column refused: {@code column tenant (UInt32): value -5 is
     * out of range}.
     */
    public RecordException error(RuntimeException e) {
        String reason;
        if (e instanceof ColumnValueException c) {
            String prefix = "column " + c.column() + " (" + c.type() + "), row " + c.row() + ": ";
            String m = c.getMessage();
            reason = m.startsWith(prefix) ? m.substring(prefix.length()) : m;
        } else if (e instanceof ConversionException) {
            reason = e.getMessage();
        } else {
            throw e; // a bug, not bad input
        }
        return RecordException.ofColumn(name, typeName, reason);
    }
}
