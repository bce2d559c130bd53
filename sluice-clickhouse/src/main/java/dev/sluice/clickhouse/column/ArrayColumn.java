package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ArrayType;
import java.util.ArrayList;
import java.util.List;

/**
 * Array(T): append a row's elements to {@link #elements()}, then close the row with {@link
 * #endArray()}. On the wire: one UInt64 end offset per row, then all elements as one T column.
 */
public final class ArrayColumn extends Column {
    private final Column elements;
    private final Offsets offsets = new Offsets();

    /** Element indexes of the rows being copied; kept for the next copy. */
    private int[] elementRows = new int[0];

    public ArrayColumn(String name, ArrayType type, Column elements) {
        super(name, type);
        this.elements = elements;
    }

    public Column elements() {
        return elements;
    }

    /** Closes the current row: every element appended since the previous row belongs to it. */
    public void endArray() {
        offsets.add(elements.rows());
    }

    /** Discards elements appended since the last {@link #endArray()} (after a failed append). */
    public void abortArray() {
        elements.truncate((int) offsets.last());
    }

    /** Elements of {@code row}: {@code elements()} rows {@code [start(row), end(row))}. */
    public int start(int row) {
        return (int) offsets.start(row);
    }

    public int end(int row) {
        return (int) offsets.end(row);
    }

    @Override
    public int rows() {
        return offsets.rows();
    }

    @Override
    public void reset() {
        offsets.reset();
        elements.reset();
    }

    @Override
    public void truncate(int rows) {
        offsets.truncate(rows, name);
        elements.truncate((int) offsets.last());
    }

    @Override
    public long dataBytes() {
        return 8L * offsets.rows() + elements.dataBytes();
    }

    @Override
    public long capacityBytes() {
        return offsets.capacityBytes() + 4L * elementRows.length + elements.capacityBytes();
    }

    @Override
    public void appendDefault() {
        if (elements.rows() != offsets.last()) {
            throw invalid("an empty array was requested while elements were pending");
        }
        endArray();
    }

    @Override
    public void writePrefix(WireOutput out) {
        elements.writePrefix(out);
    }

    @Override
    public void writeData(WireOutput out) {
        if (elements.rows() != offsets.last()) {
            throw new IllegalStateException(
                    "column " + name + ": elements appended after the last endArray()");
        }
        offsets.write(out);
        elements.writeData(out);
    }

    @Override
    public void readPrefix(WireInput in) {
        elements.readPrefix(in);
    }

    @Override
    public void readData(WireInput in, int n) {
        long added = offsets.read(in, n, name);
        elements.readData(in, (int) added);
    }

    @Override
    public Object getObject(int row) {
        int s = start(row);
        int e = end(row);
        List<Object> out = new ArrayList<>(e - s);
        for (int i = s; i < e; i++) {
            out.add(elements.getObject(i));
        }
        return out;
    }

    @Override
    public void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        if (elements.rows() != offsets.last()) {
            throw invalid("rows were copied in while elements were pending");
        }
        for (int i = from; i < to; i++) {
            checkSourceRow(rows[i], sourceRows);
        }
        ArrayColumn src = (ArrayColumn) source;
        int[] count = new int[1];
        elementRows = offsets.gather(src.offsets, rows, from, to, elementRows, count);
        elements.appendRowsFrom(src.elements, elementRows, 0, count[0]);
    }
}
