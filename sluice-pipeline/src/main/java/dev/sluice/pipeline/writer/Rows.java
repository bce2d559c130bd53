package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows for one {@link ClickHouseWriter}, in its table's layout: one column buffer per column the
 * writer sends, with the table's exact types, filled row by row and then {@linkplain
 * ClickHouseWriter#submit submitted}. Made by {@link ClickHouseWriter#newRows()}.
 *
 * <p>A row is values {@linkplain #set set} by column name or index (or appended to {@link
 * #column(int)} directly with the typed appends), then {@link #endRow()}. A column given no value
 * in a row gets its DEFAULT — computed by the writer as the server would, or left to the server
 * (docs/defaults.md) — and so does a null for a column that is not Nullable. A value a column
 * cannot take throws {@link ValueException} naming the column, its type and the value; {@link
 * #abortRow()} then takes back the row's values, and {@link #add(Map)} does so itself.
 *
 * <p>Values convert as the pipeline's JSON decoder converts JSON values ({@code ObjectValue}): text
 * is parsed by the column's type, an integer counts seconds for DateTime and ticks for DateTime64,
 * an {@code Instant} or {@code java.util.Date} is a moment, a {@code LocalDate} a day.
 *
 * <p>Not thread-safe: one per thread. After a submit, leave the rows alone until the submission's
 * completion is done; then {@link #clear()} and fill them again (their buffers are reused).
 *
 * <p>Rows keep the layout they were made in. When the table is altered meanwhile, rows of the older
 * layout are still taken: the writer re-encodes them for the table as it is (docs/writer.md,
 * "Tables that change"); rows made after the writer noticed the change have the new columns.
 */
public final class Rows {
    private final WriterTable table;
    private final TableLayout layout;
    private final Block block;
    private final Column[] columns; // the block's, for column(i) on the per-value path
    private final AbsentRows absent;
    private final ObjectValue[] values;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> names;
    private int rows;

    Rows(WriterTable table, TableLayout layout) {
        this.table = table;
        this.layout = layout;
        TargetColumns target = layout.columns();
        this.block = target.newBlock();
        this.columns = block.columns().toArray(new Column[0]);
        this.absent = new AbsentRows(target.size());
        this.values = new ObjectValue[target.size()];
        List<String> n = new ArrayList<>(target.size());
        for (int i = 0; i < target.size(); i++) {
            TableSchema.Column c = target.columns().get(i);
            index.put(c.name(), i);
            n.add(c.name());
        }
        this.names = List.copyOf(n);
    }

    /** The columns, in block order. */
    public List<String> columnNames() {
        return names;
    }

    /** The index of column {@code name}, or -1 when the writer does not send it. */
    public int columnIndex(String name) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
    }

    /**
     * The buffer of column {@code i}, for typed appends ({@code appendLong}, {@code appendString},
     * ...): append at most one value per row, then {@link #endRow()}; or, many rows column by
     * column, a value for every one of them in every column, then {@link #endRows(int)}.
     */
    public Column column(int i) {
        return columns[i];
    }

    /**
     * Sets column {@code name} of the current row.
     *
     * @throws IllegalArgumentException when the writer does not send such a column
     * @throws ValueException when the column cannot take {@code value}
     */
    public Rows set(String name, Object value) {
        int i = columnIndex(name);
        if (i < 0) {
            throw new IllegalArgumentException(
                    "column " + name + " is not among the columns written to " + layout.table());
        }
        return set(i, value);
    }

    /**
     * Sets column {@code i} of the current row: null is NULL for a Nullable column and the DEFAULT
     * for any other.
     *
     * @throws ValueException when the column cannot take {@code value}
     * @throws IllegalStateException when the column already has a value in this row
     */
    public Rows set(int i, Object value) {
        Column c = columns[i];
        if (c.rows() != rows) {
            throw new IllegalStateException(
                    "column " + c.name() + " already has a value in row " + rows);
        }
        if (value == null && !value(i).nullable()) {
            return this; // DEFAULT: endRow marks it
        }
        try {
            if (value == null) {
                c.appendNull();
            } else {
                value(i).append(c, value);
            }
        } catch (RuntimeException e) {
            if (c.rows() > rows) {
                c.truncate(rows);
            }
            throw new ValueException(c.name(), c.type().typeName(), value, e);
        }
        return this;
    }

    /**
     * Ends the current row: every column without a value gets its DEFAULT.
     *
     * @throws IllegalStateException when a column was given more than one value
     */
    public Rows endRow() {
        for (int i = 0; i < values.length; i++) {
            Column c = columns[i];
            int n = c.rows();
            if (n == rows) {
                c.appendDefault(); // a placeholder: the writer computes or leaves the DEFAULT
                absent.markAbsent(i, rows);
            } else if (n != rows + 1) {
                abortRow();
                throw new IllegalStateException(
                        "column " + c.name() + " got " + (n - rows) + " values in row " + rows);
            }
        }
        rows++;
        return this;
    }

    /**
     * Ends {@code count} rows at once whose every column was given exactly {@code count} values
     * since the last row ended: typed appends of many rows, column by column, where a row-by-row
     * {@link #endRow()} would only check each column's count. No column takes a DEFAULT here.
     *
     * @throws IllegalStateException when a column has not exactly {@code count} new values; the
     *     values set since the last row ended are then taken back
     */
    public Rows endRows(int count) {
        for (Column c : columns) {
            if (c.rows() != rows + count) {
                int n = c.rows() - rows;
                abortRow();
                throw new IllegalStateException(
                        "column " + c.name() + " got " + n + " values for " + count + " rows");
            }
        }
        rows += count;
        return this;
    }

    /** Takes back the values set since the last {@link #endRow()}. */
    public void abortRow() {
        block.truncate(rows);
    }

    /**
     * Adds a row from {@code row}'s entries, by column name; columns it lacks get their DEFAULT. A
     * bad value leaves no part of the row behind.
     *
     * @throws IllegalArgumentException naming a key that is not a column the writer sends
     * @throws ValueException naming the column that cannot take its value
     */
    public Rows add(Map<String, ?> row) {
        try {
            for (Map.Entry<String, ?> e : row.entrySet()) {
                set(e.getKey(), e.getValue());
            }
        } catch (RuntimeException e) {
            abortRow();
            throw e;
        }
        return endRow();
    }

    /** Rows ended so far. */
    public int size() {
        return rows;
    }

    public boolean isEmpty() {
        return rows == 0;
    }

    /** The Native size of the rows so far, roughly: what the writer's in-flight limit counts. */
    public long dataBytes() {
        return block.dataBytes();
    }

    /** Drops every row, keeping the buffers. */
    public void clear() {
        block.reset();
        absent.clear();
        rows = 0;
    }

    /** The table the rows are for, as {@link ClickHouseWriter#newRows(String)} named it. */
    public String table() {
        return table.table();
    }

    TableLayout layout() {
        return layout;
    }

    WriterTable owner() {
        return table;
    }

    Block block() {
        return block;
    }

    AbsentRows absent() {
        return absent;
    }

    /** True when a row was begun but not ended. */
    boolean rowOpen() {
        for (int i = 0; i < values.length; i++) {
            if (columns[i].rows() != rows) {
                return true;
            }
        }
        return false;
    }

    private ObjectValue value(int i) {
        ObjectValue v = values[i];
        if (v == null) {
            v = new ObjectValue(columns[i].type());
            values[i] = v;
        }
        return v;
    }
}
