package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.NullableType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Nullable(T): one byte per row (1 = NULL) followed by T's column, which holds T's default in NULL
 * rows. Appends other than {@link #appendNull()} go to the inner column.
 */
public final class NullableColumn extends Column {
    private final Column inner;
    private byte[] nulls = new byte[64];
    private int rows;

    public NullableColumn(String name, NullableType type, Column inner) {
        super(name, type);
        this.inner = inner;
    }

    public Column inner() {
        return inner;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public void reset() {
        rows = 0;
        inner.reset();
    }

    @Override
    public void truncate(int newRows) {
        if (newRows < 0 || newRows > rows) {
            throw new IndexOutOfBoundsException(
                    "truncate " + name + " to " + newRows + " of " + rows);
        }
        rows = newRows;
        inner.truncate(newRows);
    }

    @Override
    public long dataBytes() {
        return rows + inner.dataBytes();
    }

    @Override
    public long capacityBytes() {
        return nulls.length + inner.capacityBytes();
    }

    private void mark(int isNull) {
        if (rows == nulls.length) {
            nulls = Arrays.copyOf(nulls, grow(nulls.length, rows + 1));
        }
        nulls[rows++] = (byte) isNull;
    }

    @Override
    public void appendNull() {
        inner.appendDefault();
        mark(1);
    }

    @Override
    public void appendDefault() {
        // The default of Nullable(T) is NULL, as in the server.
        appendNull();
    }

    // Each append lands in the inner column first: if it throws, the null map is untouched. The
    // inner column shares our name; its rejections are reported with our type.

    @Override
    public void appendLong(long value) {
        try {
            inner.appendLong(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendUnsignedLong(long bits) {
        try {
            inner.appendUnsignedLong(bits);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendDouble(double value) {
        try {
            inner.appendDouble(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendBoolean(boolean value) {
        try {
            inner.appendBoolean(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendBigInteger(BigInteger value) {
        try {
            inner.appendBigInteger(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendBigDecimal(BigDecimal value) {
        try {
            inner.appendBigDecimal(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendString(CharSequence value) {
        try {
            inner.appendString(value);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendBytes(byte[] value, int offset, int length) {
        try {
            inner.appendBytes(value, offset, length);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    @Override
    public void appendUuid(long mostSignificant, long leastSignificant) {
        try {
            inner.appendUuid(mostSignificant, leastSignificant);
        } catch (ColumnValueException e) {
            throw e.reportedAs(type.typeName(), rows);
        }
        mark(0);
    }

    /**
     * Records a non-null row whose value was appended to {@link #inner()} directly (for inner
     * columns with specialised appends, such as DecimalColumn.appendUnscaled).
     */
    public void markNotNull() {
        if (inner.rows() != rows + 1) {
            throw new IllegalStateException(
                    "column " + name + ": append one value to inner() before markNotNull()");
        }
        mark(0);
    }

    @Override
    public void writePrefix(WireOutput out) {
        inner.writePrefix(out);
    }

    @Override
    public void writeData(WireOutput out) {
        out.writeBytes(nulls, 0, rows);
        inner.writeData(out);
    }

    @Override
    public void readPrefix(WireInput in) {
        inner.readPrefix(in);
    }

    @Override
    public void readData(WireInput in, int n) {
        for (int left = n; left > 0; ) {
            int k = Math.min(left, READ_STEP_BYTES);
            if (nulls.length < rows + k) {
                nulls = Arrays.copyOf(nulls, grow(nulls.length, rows + k));
            }
            in.readFully(nulls, rows, k);
            rows += k;
            left -= k;
        }
        inner.readData(in, n);
    }

    @Override
    public boolean isNull(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rows + " in " + name);
        }
        return nulls[row] != 0;
    }

    @Override
    public long getLong(int row) {
        return inner.getLong(row);
    }

    @Override
    public double getDouble(int row) {
        return inner.getDouble(row);
    }

    @Override
    public String getString(int row) {
        return isNull(row) ? null : inner.getString(row);
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : inner.getObject(row);
    }

    @Override
    public void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        NullableColumn src = (NullableColumn) source;
        if (this.rows + (to - from) > nulls.length) {
            nulls = Arrays.copyOf(nulls, grow(nulls.length, this.rows + (to - from)));
        }
        for (int i = from; i < to; i++) {
            int r = rows[i];
            checkSourceRow(r, sourceRows);
            nulls[this.rows + i - from] = src.nulls[r];
        }
        inner.appendRowsFrom(src.inner, rows, from, to);
        this.rows += to - from;
    }
}
