package dev.sluice.pipeline.writer;

/**
 * A value a column cannot take (not a number, out of range, an unknown enum name, ...), thrown by
 * {@link Rows#set}: the message names the column, its type, the value and the reason. The row's
 * other values are kept until {@link Rows#abortRow()} or the next {@link Rows#set} of the column.
 */
public final class ValueException extends IllegalArgumentException {
    private static final int SHOWN = 200;

    private final String column;

    ValueException(String column, String type, Object value, Throwable cause) {
        super(
                "column "
                        + column
                        + " ("
                        + type
                        + "): cannot take "
                        + show(value)
                        + ": "
                        + cause.getMessage(),
                cause);
        this.column = column;
    }

    /** The column that refused the value. */
    public String column() {
        return column;
    }

    private static String show(Object value) {
        String s = value instanceof String t ? "'" + t + "'" : String.valueOf(value);
        return s.length() > SHOWN ? s.substring(0, SHOWN) + "…" : s;
    }
}
