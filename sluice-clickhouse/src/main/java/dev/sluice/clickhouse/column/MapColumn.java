package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.MapType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Map(K, V): append each entry's key to {@link #keys()} and value to {@link #values()}, then close
 * the row with {@link #endMap()}. On the wire exactly Array(Tuple(K, V)): offsets, keys, values.
 */
public final class MapColumn extends Column {
    private final Column keys;
    private final Column values;
    private final Offsets offsets = new Offsets();

    /** Entry indexes of the rows being copied; kept for the next copy. */
    private int[] entryRows = new int[0];

    public MapColumn(String name, MapType type, Column keys, Column values) {
        super(name, type);
        this.keys = keys;
        this.values = values;
    }

    public Column keys() {
        return keys;
    }

    public Column values() {
        return values;
    }

    public void endMap() {
        if (keys.rows() != values.rows()) {
            throw invalid("map row has " + keys.rows() + " keys but " + values.rows() + " values");
        }
        offsets.add(keys.rows());
    }

    /** Discards entries appended since the last {@link #endMap()}. */
    public void abortMap() {
        keys.truncate((int) offsets.last());
        values.truncate((int) offsets.last());
    }

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
        keys.reset();
        values.reset();
    }

    @Override
    public void truncate(int rows) {
        offsets.truncate(rows, name);
        keys.truncate((int) offsets.last());
        values.truncate((int) offsets.last());
    }

    @Override
    public long dataBytes() {
        return 8L * offsets.rows() + keys.dataBytes() + values.dataBytes();
    }

    @Override
    public long capacityBytes() {
        return offsets.capacityBytes()
                + 4L * entryRows.length
                + keys.capacityBytes()
                + values.capacityBytes();
    }

    @Override
    public void appendDefault() {
        if (keys.rows() != offsets.last() || values.rows() != offsets.last()) {
            throw invalid("an empty map was requested while entries were pending");
        }
        endMap();
    }

    @Override
    public void writePrefix(WireOutput out) {
        keys.writePrefix(out);
        values.writePrefix(out);
    }

    @Override
    public void writeData(WireOutput out) {
        if (keys.rows() != offsets.last() || values.rows() != offsets.last()) {
            throw new IllegalStateException(
                    "column " + name + ": entries appended after the last endMap()");
        }
        offsets.write(out);
        keys.writeData(out);
        values.writeData(out);
    }

    @Override
    public void readPrefix(WireInput in) {
        keys.readPrefix(in);
        values.readPrefix(in);
    }

    @Override
    public void readData(WireInput in, int n) {
        int added = (int) offsets.read(in, n, name);
        keys.readData(in, added);
        values.readData(in, added);
    }

    @Override
    public Object getObject(int row) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = start(row), e = end(row); i < e; i++) {
            out.put(keys.getObject(i), values.getObject(i));
        }
        return out;
    }

    @Override
    public void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        if (keys.rows() != offsets.last() || values.rows() != offsets.last()) {
            throw invalid("rows were copied in while entries were pending");
        }
        for (int i = from; i < to; i++) {
            checkSourceRow(rows[i], sourceRows);
        }
        MapColumn src = (MapColumn) source;
        int[] count = new int[1];
        entryRows = offsets.gather(src.offsets, rows, from, to, entryRows, count);
        keys.appendRowsFrom(src.keys, entryRows, 0, count[0]);
        values.appendRowsFrom(src.values, entryRows, 0, count[0]);
    }
}
