package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;

/**
 * Turns input values into one column type's values, appending straight to the column: one converter
 * per column (and per nested type), built once, used for every record.
 *
 * <p>Input comes in a few shapes, each a method: {@link #text} (a TSV or CSV field after the
 * format's own unescaping, a JSON string, a value inside an array's text form), {@link #number} (a
 * JSON number, as written), {@link #integer}, {@link #floating}, {@link #bool}, {@link #nul}, and
 * the dates a computed expression yields. Each appends exactly one value or throws — {@link
 * ConversionException} for input the type cannot take, or the column's own {@code
 * ColumnValueException} for a value out of its range — without appending.
 *
 * <p>A converter may keep scratch buffers, so it belongs to one decoder and one thread.
 */
public abstract class Converter {
    protected final ClickHouseType type;
    private final byte[] formatted = new byte[32];

    protected Converter(ClickHouseType type) {
        this.type = type;
    }

    public final ClickHouseType type() {
        return type;
    }

    /** Appends the value written as text in {@code b[off, off + len)}. */
    public abstract void text(Column c, byte[] b, int off, int len);

    /** Appends a JSON number given as its text (ASCII); by default, the same as {@link #text}. */
    public void number(Column c, byte[] b, int off, int len) {
        text(c, b, off, len);
    }

    /**
     * Appends an integer with the meaning of a JSON integer (days for Date, seconds for DateTime).
     */
    public void integer(Column c, long v) {
        int n = Texts.formatLong(v, formatted);
        number(c, formatted, 0, n);
    }

    /** Appends a floating-point number with the meaning of a JSON number. */
    public void floating(Column c, double v) {
        byte[] t = Double.toString(v).getBytes(StandardCharsets.US_ASCII);
        number(c, t, 0, t.length);
    }

    public void bool(Column c, boolean v) {
        throw new ConversionException("cannot store the boolean " + v + " in this type");
    }

    /** Appends NULL; only Nullable types take it (the column says so otherwise). */
    public void nul(Column c) {
        c.appendNull();
    }

    /** Appends a date given as days since 1970-01-01. */
    public void date(Column c, int days) {
        int n = DateTimes.formatDate(days, formatted, 0);
        text(c, formatted, 0, n);
    }

    /** Appends a moment given as seconds since the epoch (UTC). */
    public void dateTime(Column c, long seconds) {
        int n = DateTimes.formatDateTime(seconds, formatted, 0);
        text(c, formatted, 0, n);
    }

    /** True when a JSON object or array is stored as its JSON text (String columns). */
    public boolean takesJsonText() {
        return false;
    }

    /** True when the type holds NULL (Nullable, LowCardinality(Nullable)). */
    public boolean nullable() {
        return false;
    }

    protected static ConversionException notA(String what, byte[] b, int off, int len) {
        return new ConversionException(Texts.show(b, off, len) + " is not " + what);
    }
}
