package dev.sluice.clickhouse.block;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A set of equally long columns: what a Native Data packet carries. The type names are kept as the
 * server spelled them, because the server compares them as text when it reads our blocks.
 */
public final class Block {
    // column(i) is on the per-value path of every row filler: an array, one load from the block
    private final Column[] columnArray;
    private final List<Column> columns;
    private final List<String> typeNames;

    public Block(List<Column> columns, List<String> typeNames) {
        if (columns.size() != typeNames.size()) {
            throw new IllegalArgumentException("one type name per column");
        }
        this.columnArray = columns.toArray(new Column[0]);
        this.columns = Collections.unmodifiableList(Arrays.asList(columnArray));
        this.typeNames = List.copyOf(typeNames);
    }

    /** A block whose type names are the columns' canonical ones. */
    public static Block of(List<Column> columns) {
        List<String> names = new ArrayList<>(columns.size());
        for (Column c : columns) {
            names.add(c.type().typeName());
        }
        return new Block(columns, names);
    }

    /** Empty columns for the given names and server type names (an INSERT header). */
    public static Block forHeader(List<String> names, List<String> typeNames) {
        List<Column> columns = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            columns.add(ColumnFactory.create(names.get(i), typeNames.get(i)));
        }
        return new Block(columns, typeNames);
    }

    public List<Column> columns() {
        return columns;
    }

    public int columnCount() {
        return columns.size();
    }

    public Column column(int i) {
        return columnArray[i];
    }

    /** The column called {@code name}, or null. */
    public Column column(String name) {
        for (Column c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public String typeName(int i) {
        return typeNames.get(i);
    }

    public List<String> typeNames() {
        return typeNames;
    }

    /**
     * Rows in the block; all columns must agree.
     *
     * @throws IllegalStateException when columns have different lengths
     */
    public int rows() {
        if (columns.isEmpty()) {
            return 0;
        }
        int rows = columns.get(0).rows();
        for (int i = 1; i < columns.size(); i++) {
            if (columns.get(i).rows() != rows) {
                throw new IllegalStateException(
                        "column "
                                + columns.get(i).name()
                                + " has "
                                + columns.get(i).rows()
                                + " rows but "
                                + columns.get(0).name()
                                + " has "
                                + rows);
            }
        }
        return rows;
    }

    /**
     * Approximate encoded size of the data. The pipeline asks after every row (its in-flight
     * budget), so this loops by index: an iterator would be an allocation per row.
     */
    public long dataBytes() {
        long n = 0;
        for (int i = 0; i < columns.size(); i++) {
            n += columns.get(i).dataBytes();
        }
        return n;
    }

    /** Bytes of memory the columns' buffers hold, used or not ({@link Column#capacityBytes()}). */
    public long capacityBytes() {
        long n = 0;
        for (int i = 0; i < columns.size(); i++) {
            n += columns.get(i).capacityBytes();
        }
        return n;
    }

    /**
     * Grows each column's buffers to the capacity of the same column of {@code other}, a block of
     * the same columns (see {@link Column#reserveLike}).
     */
    public void reserveLike(Block other) {
        if (other.columns.size() != columns.size()) {
            throw new IllegalArgumentException("blocks of different columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            columns.get(i).reserveLike(other.columns.get(i));
        }
    }

    /** Drops all rows of every column, keeping capacity. */
    public void reset() {
        for (Column c : columns) {
            c.reset();
        }
    }

    /** Cuts every column back to {@code rows} rows (undo of a partly appended record). */
    public void truncate(int rows) {
        for (Column c : columns) {
            if (c.rows() > rows) {
                c.truncate(rows);
            }
        }
    }
}
