package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * Tuple(T1, ..., Tn): one column per element; a row is complete when each element column has one
 * more value. On the wire the element columns follow one another.
 */
public final class TupleColumn extends Column {
    private final List<Column> elements;

    public TupleColumn(String name, TupleType type, List<Column> elements) {
        super(name, type);
        this.elements = List.copyOf(elements);
    }

    public Column element(int i) {
        return elements.get(i);
    }

    public int size() {
        return elements.size();
    }

    /** Complete rows: while a row is being appended, some elements are one value ahead. */
    @Override
    public int rows() {
        int rows = Integer.MAX_VALUE;
        for (Column c : elements) {
            rows = Math.min(rows, c.rows());
        }
        return rows;
    }

    @Override
    public void reset() {
        for (Column c : elements) {
            c.reset();
        }
    }

    @Override
    public void truncate(int rows) {
        int most = 0;
        for (Column c : elements) {
            most = Math.max(most, c.rows());
        }
        // Elements may be uneven in the middle of a row; any count up to the longest is valid.
        if (rows < 0 || rows > most) {
            throw new IndexOutOfBoundsException(
                    "truncate " + name + " to " + rows + " of " + rows());
        }
        for (Column c : elements) {
            if (c.rows() > rows) {
                c.truncate(rows);
            }
        }
    }

    @Override
    public long dataBytes() {
        long n = 0;
        for (Column c : elements) {
            n += c.dataBytes();
        }
        return n;
    }

    @Override
    public long capacityBytes() {
        long n = 0;
        for (Column c : elements) {
            n += c.capacityBytes();
        }
        return n;
    }

    @Override
    public void appendDefault() {
        int r = rows();
        for (Column c : elements) {
            if (c.rows() == r) {
                c.appendDefault();
            }
        }
        checkAligned();
    }

    private void checkAligned() {
        int r = rows();
        for (Column c : elements) {
            if (c.rows() != r) {
                throw new IllegalStateException(
                        "column "
                                + name
                                + ": tuple elements have different row counts ("
                                + c.name()
                                + " has "
                                + c.rows()
                                + ", the shortest has "
                                + r
                                + ")");
            }
        }
    }

    @Override
    public void writePrefix(WireOutput out) {
        for (Column c : elements) {
            c.writePrefix(out);
        }
    }

    @Override
    public void writeData(WireOutput out) {
        checkAligned();
        for (Column c : elements) {
            c.writeData(out);
        }
    }

    @Override
    public void readPrefix(WireInput in) {
        for (Column c : elements) {
            c.readPrefix(in);
        }
    }

    @Override
    public void readData(WireInput in, int n) {
        for (Column c : elements) {
            c.readData(in, n);
        }
    }

    @Override
    public Object getObject(int row) {
        List<Object> out = new ArrayList<>(elements.size());
        for (Column c : elements) {
            out.add(c.getObject(row));
        }
        return out;
    }

    @Override
    public void appendRowsFrom(Column source, int[] rows, int from, int to) {
        checkGather(source, rows, from, to);
        TupleColumn src = (TupleColumn) source;
        for (int e = 0; e < elements.size(); e++) {
            elements.get(e).appendRowsFrom(src.elements.get(e), rows, from, to);
        }
    }
}
