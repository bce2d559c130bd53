package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converters;
import dev.sluice.pipeline.decode.convert.Utf8;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.Arrays;

/**
 * The row being built, as a user transform sees it: read any column that has a value, and set
 * (replace) a column's value — by column index ({@link #column(String)} resolves names once, at
 * start-up). Setters convert like the decoders do: {@code setString(ts, "2024-01-01 00:00:00")}
 * into a DateTime column parses the text. Values are read and written in the block's own buffers;
 * {@link #get} and {@link #getString} allocate, the primitive getters do not.
 *
 * <p>A replaced value is cut from the column and appended again, so replacing costs the same as
 * writing. Not thread-safe: one view per transform instance.
 */
public final class RowView {
    private final TargetColumns target;
    private final ColumnSlot[] slots;
    private final BlockColumns blockColumns = new BlockColumns();
    private RowTarget rowTarget;
    private Column[] cols;
    private int row;
    private PolledRecords batch;
    private int index;
    private byte[] scratch = new byte[64];

    public RowView(TargetColumns target) {
        this.target = target;
        this.slots = new ColumnSlot[target.size()];
    }

    /** Points the view at the row being built (done by {@link RowTransforms}). */
    public void bind(RowTarget row, PolledRecords batch, int index) {
        this.rowTarget = row;
        this.cols = blockColumns.of(row.block());
        this.row = row.row();
        this.batch = batch;
        this.index = index;
    }

    public TargetColumns target() {
        return target;
    }

    /** The index of column {@code name}; resolve names once, outside the per-row path. */
    public int column(String name) {
        int i = target.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("the pipeline writes no column " + name);
        }
        return i;
    }

    /** True when the column has a value in this row (not yet computed ones have none). */
    public boolean has(int column) {
        return cols[column].rows() > row;
    }

    public boolean isNull(int column) {
        return cols[column].isNull(row);
    }

    public long getLong(int column) {
        return cols[column].getLong(row);
    }

    public double getDouble(int column) {
        return cols[column].getDouble(row);
    }

    public String getString(int column) {
        return cols[column].getString(row);
    }

    /** The value as a Java object (see {@code Column.getObject}). */
    public Object get(int column) {
        return cols[column].getObject(row);
    }

    /** The raw record's bytes: {@code batch().data[recordStart(), recordEnd())}. */
    public PolledRecords batch() {
        return batch;
    }

    public int recordStart() {
        return batch.start[index];
    }

    public int recordEnd() {
        return batch.end[index];
    }

    public void setNull(int column) throws RecordException {
        Column c = clear(column);
        try {
            c.appendNull();
        } catch (ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    public void setLong(int column, long v) throws RecordException {
        Column c = clear(column);
        try {
            slot(column).converter.integer(c, v);
        } catch (ConversionException | ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    public void setDouble(int column, double v) throws RecordException {
        Column c = clear(column);
        try {
            slot(column).converter.floating(c, v);
        } catch (ConversionException | ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    public void setBoolean(int column, boolean v) throws RecordException {
        Column c = clear(column);
        try {
            slot(column).converter.bool(c, v);
        } catch (ConversionException | ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    /** Sets the value from text, converted as a decoder converts a field. */
    public void setString(int column, String v) throws RecordException {
        if (scratch.length < v.length() * 3) {
            scratch = new byte[v.length() * 3];
        }
        int n = Utf8.encode(v, scratch);
        setText(column, scratch, 0, n);
    }

    /** Sets the value from UTF-8 text in {@code b[off, off + len)}. */
    public void setText(int column, byte[] b, int off, int len) throws RecordException {
        Column c = clear(column);
        try {
            slot(column).converter.text(c, b, off, len);
        } catch (ConversionException | ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    /** Sets a Java value: Long, Double, String, BigDecimal, UUID, List (arrays), Map... */
    public void set(int column, Object v) throws RecordException {
        Column c = clear(column);
        try {
            ColumnValues.append(c, v);
        } catch (ColumnValueException e) {
            throw slot(column).error(e);
        }
    }

    /**
     * Cuts the column's value of this row, if it has one, so a new one can be appended; the value
     * set is the row's own, even where the decoder found the field absent.
     */
    private Column clear(int column) {
        rowTarget.present(column);
        Column c = cols[column];
        if (c.rows() > row) {
            c.truncate(row);
        }
        return c;
    }

    private ColumnSlot slot(int column) {
        ColumnSlot s = slots[column];
        if (s == null) {
            var c = target.columns().get(column);
            s = new ColumnSlot(column, c.name(), c.typeName(), Converters.forType(c.type()));
            slots[column] = s;
        }
        return s;
    }

    @Override
    public String toString() {
        return "row " + row + " of " + Arrays.toString(cols);
    }
}
