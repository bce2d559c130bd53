package dev.sluice.clickhouse.column;

/**
 * A value that does not fit its column: out of range, wrong shape, or a kind the column's type
 * cannot hold. The message names the column, its type, the row within the block and the value.
 */
public final class ColumnValueException extends IllegalArgumentException {
    private final String column;
    private final String type;
    private final int row;
    private final String problem;

    public ColumnValueException(String column, String type, int row, String problem) {
        this(column, type, row, problem, null);
    }

    private ColumnValueException(
            String column, String type, int row, String problem, Throwable cause) {
        super("column " + column + " (" + type + "), row " + row + ": " + problem, cause);
        this.column = column;
        this.type = type;
        this.row = row;
        this.problem = problem;
    }

    /**
     * The same problem reported for a wrapping column (Nullable, LowCardinality) that shares the
     * inner column's name: its declared type and its own row number.
     */
    ColumnValueException reportedAs(String wrapperType, int wrapperRow) {
        return new ColumnValueException(column, wrapperType, wrapperRow, problem, this);
    }

    public String column() {
        return column;
    }

    public String type() {
        return type;
    }

    /** The row within the block being built, counted from 0. */
    public int row() {
        return row;
    }
}
