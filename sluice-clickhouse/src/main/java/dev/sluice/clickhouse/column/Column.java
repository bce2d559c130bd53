package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * One column of a Native block: a reusable, growable buffer of values of one ClickHouse type,
 * stored the way the wire wants them (primitive arrays, no object per row).
 *
 * <p><b>Writing.</b> Each row is one typed append ({@link #appendLong}, {@link #appendString}, ...)
 * or {@link #appendNull}/{@link #appendDefault}. A column accepts the appends that make sense for
 * its type; any other append, and any value outside the type's range, throws {@link
 * ColumnValueException} naming the column, type, row and value, and leaves the column unchanged.
 * Composite types expose their parts: append elements to {@link ArrayColumn#elements()} and close
 * the row with {@link ArrayColumn#endArray()}; see each class.
 *
 * <p><b>Encoding.</b> Native serializes each column as a <i>prefix</i> (state such as the
 * LowCardinality key version, nested types first) followed by the <i>data</i> of all rows. {@link
 * #reset()} forgets the rows and keeps the capacity, so one set of columns serves every batch.
 *
 * <p>Not thread-safe.
 */
public abstract class Column {
    protected final String name;
    protected final ClickHouseType type;

    protected Column(String name, ClickHouseType type) {
        this.name = name;
        this.type = type;
    }

    public final String name() {
        return name;
    }

    public final ClickHouseType type() {
        return type;
    }

    /** Rows appended since the last {@link #reset()}. */
    public abstract int rows();

    /** Drops all rows, keeping allocated capacity. */
    public abstract void reset();

    /**
     * Drops rows from {@code rows} on: the undo of appends, used to take back a partly appended
     * record when one of its values is rejected.
     */
    public abstract void truncate(int rows);

    /** Approximate bytes the data part occupies on the wire (for batch sizing). */
    public abstract long dataBytes();

    /**
     * Bytes of memory the column's buffers hold, used or not: what a reused or pre-sized column
     * really costs (the pipeline's in-flight budget counts it). At least {@link #dataBytes()} for
     * columns that track their buffers; the default is that.
     */
    public long capacityBytes() {
        return dataBytes();
    }

    /**
     * Grows this column's buffers to at least the capacity {@code other}'s have, which must be a
     * column of the same type; nothing else changes. A writer that fills one block after another
     * gives a fresh block the size its predecessors grew to, so that it is allocated once instead
     * of growing by copies (a 64 MiB String column otherwise allocates about three times that and
     * copies twice, most of a short load's pipeline-thread time). Columns without a flat buffer
     * ignore it.
     */
    public void reserveLike(Column other) {}

    /**
     * Makes room for {@code rows} more rows holding {@code dataBytes} more bytes as {@link
     * #dataBytes()} counts them, so that appending them ({@link #appendAll}) allocates nothing on
     * the way: a concatenation knows its total before it starts, and growing by copies would
     * allocate about 2.5 times it and copy it twice more. Nothing else changes; columns without a
     * flat buffer ignore it.
     */
    public void reserveMore(int rows, long dataBytes) {}

    // ---- Native encoding ----

    /** Writes the serialization state prefix; nothing for most types. */
    public void writePrefix(WireOutput out) {}

    /** Writes the data of all rows. */
    public abstract void writeData(WireOutput out);

    /** Reads the serialization state prefix. */
    public void readPrefix(WireInput in) {}

    /** Reads and appends {@code rows} rows. */
    public abstract void readData(WireInput in, int rows);

    // ---- Appends: each adds one row or throws without changing the column ----

    public void appendLong(long value) {
        throw reject("an integer " + value);
    }

    /** A UInt64 given as its 64 bits (so values above Long.MAX_VALUE are negative here). */
    public void appendUnsignedLong(long bits) {
        if (bits < 0) {
            throw reject("the unsigned integer " + Long.toUnsignedString(bits));
        }
        appendLong(bits);
    }

    public void appendDouble(double value) {
        throw reject("a floating-point number " + value);
    }

    public void appendBoolean(boolean value) {
        appendLong(value ? 1 : 0);
    }

    public void appendBigInteger(BigInteger value) {
        if (value.bitLength() < 64) {
            appendLong(value.longValue());
            return;
        }
        throw reject("the integer " + value);
    }

    public void appendBigDecimal(BigDecimal value) {
        throw reject("the decimal " + value.toPlainString());
    }

    /** Text, encoded as UTF-8 into the column without an intermediate byte array. */
    public void appendString(CharSequence value) {
        throw reject("a string " + abbreviate(value));
    }

    /** Raw bytes (a UTF-8 string, or FixedString/IPv6 content). */
    public void appendBytes(byte[] value, int offset, int length) {
        throw reject("a byte string of " + length + " bytes");
    }

    public final void appendBytes(byte[] value) {
        appendBytes(value, 0, value.length);
    }

    public void appendUuid(long mostSignificant, long leastSignificant) {
        throw reject("a UUID");
    }

    public void appendNull() {
        throw reject("NULL (the type is not Nullable)");
    }

    /** The type's default value: 0, empty string, empty array, epoch... */
    public abstract void appendDefault();

    /**
     * Appends rows {@code rows[from .. to)} of {@code source}, in that order: a gather, for
     * reordering a block by a permutation or splitting it by a row selection. {@code source} must
     * have the same type and must not be this column.
     *
     * @throws IllegalArgumentException when {@code source} has another type or is this column
     * @throws IndexOutOfBoundsException when a row is not a row of {@code source}
     */
    public abstract void appendRowsFrom(Column source, int[] rows, int from, int to);

    /**
     * Appends every row of {@code source}, in order: a concatenation. Columns with flat buffers
     * copy them whole; the rest gather row by row. Same contract as {@link #appendRowsFrom}.
     */
    public void appendAll(Column source) {
        int n = source.rows();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        appendRowsFrom(source, all, 0, n);
    }

    /** Checks the arguments of {@link #appendRowsFrom} and returns the source's row count. */
    protected final int checkGather(Column source, int[] rows, int from, int to) {
        if (source == this || !source.type.equals(type) || source.getClass() != getClass()) {
            throw new IllegalArgumentException("cannot copy rows of " + source + " into " + this);
        }
        Objects.checkFromToIndex(from, to, rows.length);
        return source.rows();
    }

    /** Throws unless {@code row} is a row of a column of {@code rowCount} rows. */
    protected final void checkSourceRow(int row, int rowCount) {
        if (row < 0 || row >= rowCount) {
            throw new IndexOutOfBoundsException(
                    "row " + row + " of " + rowCount + " copied into " + name);
        }
    }

    // ---- Reads, for decoded blocks and tests ----

    public boolean isNull(int row) {
        return false;
    }

    public long getLong(int row) {
        throw unsupportedRead("getLong");
    }

    public double getDouble(int row) {
        throw unsupportedRead("getDouble");
    }

    public String getString(int row) {
        throw unsupportedRead("getString");
    }

    /**
     * The value as a Java object: Long, Double/Float, BigInteger (UInt64 above Long.MAX_VALUE,
     * 128/256-bit), BigDecimal, String, byte[] (FixedString), java.util.UUID, List (Array, Tuple),
     * Map (Map), or null.
     */
    public abstract Object getObject(int row);

    // ---- Dictionary support for LowCardinality: rows compared by their stored bytes ----

    /** Hash of the stored value of {@code row}; only for types a dictionary can hold. */
    int hashRow(int row) {
        throw new UnsupportedOperationException(type.typeName() + " cannot be a dictionary");
    }

    /** True when rows {@code a} and {@code b} hold the same value. */
    boolean rowsEqual(int a, int b) {
        throw new UnsupportedOperationException(type.typeName() + " cannot be a dictionary");
    }

    /** Appends a copy of {@code row} of {@code source}, a column of the same class and type. */
    void appendRowFrom(Column source, int row) {
        throw new UnsupportedOperationException(type.typeName() + " cannot be a dictionary");
    }

    // ---- Helpers ----

    protected final ColumnValueException reject(String what) {
        return new ColumnValueException(
                name, type.typeName(), rows(), "cannot store " + what + " in this type");
    }

    protected final ColumnValueException outOfRange(String value) {
        return new ColumnValueException(
                name, type.typeName(), rows(), "value " + value + " is out of range");
    }

    protected final ColumnValueException invalid(String problem) {
        return new ColumnValueException(name, type.typeName(), rows(), problem);
    }

    private UnsupportedOperationException unsupportedRead(String method) {
        return new UnsupportedOperationException(
                method + " is not defined for column " + name + " of type " + type.typeName());
    }

    static String abbreviate(CharSequence s) {
        String t = s.toString();
        return t.length() <= 64 ? "'" + t + "'" : "'" + t.substring(0, 61) + "...'";
    }

    /**
     * Largest step, in bytes, by which a decoder grows a buffer before the input has shown it has
     * the bytes: a corrupt row count or length then ends in a WireException at the end of the
     * input, not in a huge allocation.
     */
    static final int READ_STEP_BYTES = 1 << 20;

    static int grow(int current, int needed) {
        long n = Math.max(needed, Math.max(16L, current + (current >> 1)));
        if (n > Integer.MAX_VALUE - 16) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("column exceeds 2 GiB");
            }
            n = Integer.MAX_VALUE - 16;
        }
        return (int) n;
    }

    @Override
    public String toString() {
        return name + " " + type.typeName() + " [" + rows() + " rows]";
    }
}
