package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.LowCardinalityType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * LowCardinality(T): a dictionary of the distinct values, built here as rows arrive, plus one index
 * per row.
 *
 * <p>An append lands in the dictionary column first; if that value is already present the new row
 * is dropped again and the existing index is used. So deduplication works for any dictionary type
 * by comparing stored bytes, without an object per value.
 *
 * <p>Wire layout (Native, no shared dictionary):
 *
 * <pre>
 * prefix: UInt64 key version = 1 (SharedDictionariesWithAdditionalKeys)
 * data:   UInt64 flags = index width code (0 UInt8, 1 UInt16, 2 UInt32, 3 UInt64)
 *                      | HasAdditionalKeys (1 << 9) | NeedUpdateDictionary (1 << 10)
 *         UInt64 key count, keys as a column of T without Nullable
 *         UInt64 row count, one index per row at the chosen width
 * </pre>
 *
 * For {@code LowCardinality(Nullable(T))} key 0 means NULL (its stored value is T's default). No
 * bytes at all are written for zero rows, as the server does for empty arrays of this type.
 */
public final class LowCardinalityColumn extends Column {
    static final long KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS = 1;
    static final long HAS_ADDITIONAL_KEYS = 1L << 9;
    static final long NEED_UPDATE_DICTIONARY = 1L << 10;
    static final long NEED_GLOBAL_DICTIONARY = 1L << 8;

    private final Column dictionary;
    private final boolean nullable;
    private int[] indexes = new int[64];
    private int rows;

    /** Open addressing: slot holds dictionary index + 1, 0 = empty. */
    private int[] slots = new int[64];

    private int slotsUsed;

    /** Source key to our key + 1 (0 = not yet seen), for one copy. */
    private int[] keyMap = new int[0];

    public LowCardinalityColumn(String name, LowCardinalityType type, Column dictionary) {
        super(name, type);
        if (!(dictionary instanceof FixedWidthColumn || dictionary instanceof StringColumn)) {
            throw new IllegalArgumentException(
                    "LowCardinality of " + dictionary.type().typeName() + " is not supported");
        }
        this.dictionary = dictionary;
        this.nullable = type.isNullable();
        startDictionary();
    }

    private void startDictionary() {
        dictionary.reset();
        Arrays.fill(slots, 0);
        slotsUsed = 0;
        if (nullable) {
            dictionary.appendDefault(); // key 0: the NULL placeholder, never matched by lookups
        }
    }

    /** The distinct values; row {@code i} is key {@code i}. */
    public Column dictionary() {
        return dictionary;
    }

    /** The dictionary key of {@code row}. */
    public int index(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rows + " in " + name);
        }
        return indexes[row];
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public void reset() {
        rows = 0;
        startDictionary();
    }

    @Override
    public void truncate(int newRows) {
        if (newRows < 0 || newRows > rows) {
            throw new IndexOutOfBoundsException(
                    "truncate " + name + " to " + newRows + " of " + rows);
        }
        rows = newRows; // unused keys may stay: they cost bytes, never correctness
    }

    @Override
    public long dataBytes() {
        if (rows == 0) {
            return 0; // nothing at all is written for zero rows
        }
        return 24 + dictionary.dataBytes() + (long) rows * indexWidth(dictionary.rows());
    }

    @Override
    public long capacityBytes() {
        return dictionary.capacityBytes() + 4L * (indexes.length + slots.length + keyMap.length);
    }

    // ---- Appends: value into the dictionary, then deduplicate ----

    private void addIndex(int index) {
        if (rows == indexes.length) {
            indexes = Arrays.copyOf(indexes, grow(indexes.length, rows + 1));
        }
        indexes[rows++] = index;
    }

    /** Called after one value was appended to the dictionary as its last row. */
    private void commitLastKey() {
        int candidate = dictionary.rows() - 1;
        int h = mix(dictionary.hashRow(candidate));
        int mask = slots.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int s = slots[i];
            if (s == 0) {
                slots[i] = candidate + 1;
                slotsUsed++;
                addIndex(candidate);
                if (slotsUsed * 2 > slots.length) {
                    rehash();
                }
                return;
            }
            if (dictionary.rowsEqual(s - 1, candidate)) {
                dictionary.truncate(candidate);
                addIndex(s - 1);
                return;
            }
        }
    }

    private void rehash() {
        int[] bigger = new int[slots.length * 2];
        int mask = bigger.length - 1;
        for (int s : slots) {
            if (s != 0) {
                int i = mix(dictionary.hashRow(s - 1)) & mask;
                while (bigger[i] != 0) {
                    i = (i + 1) & mask;
                }
                bigger[i] = s;
            }
        }
        slots = bigger;
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** The dictionary's row count is no row number: report the rejection as ours. */
    private ColumnValueException rejected(ColumnValueException e) {
        return e.reportedAs(type.typeName(), rows);
    }

    @Override
    public void appendNull() {
        if (!nullable) {
            throw reject("NULL (the type is not Nullable)");
        }
        addIndex(0);
    }

    @Override
    public void appendDefault() {
        if (nullable) {
            addIndex(0);
        } else {
            dictionary.appendDefault();
            commitLastKey();
        }
    }

    @Override
    public void appendLong(long value) {
        try {
            dictionary.appendLong(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendUnsignedLong(long bits) {
        try {
            dictionary.appendUnsignedLong(bits);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendDouble(double value) {
        try {
            dictionary.appendDouble(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendBoolean(boolean value) {
        try {
            dictionary.appendBoolean(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendBigInteger(BigInteger value) {
        try {
            dictionary.appendBigInteger(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendBigDecimal(BigDecimal value) {
        try {
            dictionary.appendBigDecimal(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendString(CharSequence value) {
        try {
            dictionary.appendString(value);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendBytes(byte[] value, int offset, int length) {
        try {
            dictionary.appendBytes(value, offset, length);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    @Override
    public void appendUuid(long mostSignificant, long leastSignificant) {
        try {
            dictionary.appendUuid(mostSignificant, leastSignificant);
        } catch (ColumnValueException e) {
            throw rejected(e);
        }
        commitLastKey();
    }

    // ---- Encoding ----

    static int indexWidthCode(int keys) {
        if (keys <= 1 << 8) {
            return 0;
        }
        if (keys <= 1 << 16) {
            return 1;
        }
        return 2;
    }

    static int indexWidth(int keys) {
        return 1 << indexWidthCode(keys);
    }

    @Override
    public void writePrefix(WireOutput out) {
        out.writeInt64(KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS);
    }

    @Override
    public void writeData(WireOutput out) {
        if (rows == 0) {
            return;
        }
        int keys = dictionary.rows();
        int code = indexWidthCode(keys);
        out.writeInt64(code | HAS_ADDITIONAL_KEYS | NEED_UPDATE_DICTIONARY);
        out.writeInt64(keys);
        dictionary.writeData(out);
        out.writeInt64(rows);
        switch (code) {
            case 0 -> {
                out.ensureWritable(rows);
                byte[] b = out.array();
                int p = out.position();
                for (int r = 0; r < rows; r++) {
                    b[p + r] = (byte) indexes[r];
                }
                out.advance(rows);
            }
            case 1 -> {
                for (int r = 0; r < rows; r++) {
                    out.writeInt16(indexes[r]);
                }
            }
            default -> {
                for (int r = 0; r < rows; r++) {
                    out.writeInt32(indexes[r]);
                }
            }
        }
    }

    @Override
    public void readPrefix(WireInput in) {
        long version = in.readInt64();
        if (version != KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS) {
            throw new WireException(
                    "column " + name + ": unknown LowCardinality key version " + version);
        }
    }

    @Override
    public void readData(WireInput in, int n) {
        // Rows may come in several chunks, each with its own keys.
        Column chunkKeys = null;
        int remaining = n;
        while (remaining > 0) {
            long flags = in.readInt64();
            if ((flags & NEED_GLOBAL_DICTIONARY) != 0) {
                throw new WireException(
                        "column " + name + ": LowCardinality with a global dictionary in Native");
            }
            if ((flags & HAS_ADDITIONAL_KEYS) == 0) {
                throw new WireException("column " + name + ": LowCardinality chunk without keys");
            }
            int code = (int) (flags & 0xFF);
            if (code > 3) {
                throw new WireException(
                        "column " + name + ": bad LowCardinality index type " + code);
            }
            int keyCount = (int) readCount(in, "key count");
            if (chunkKeys == null) {
                chunkKeys = ColumnFactory.create(name + ".keys", dictionary.type());
            } else {
                chunkKeys.reset();
            }
            chunkKeys.readData(in, keyCount);
            int chunkRows = (int) readCount(in, "row count");
            if (chunkRows > remaining) {
                throw new WireException(
                        "column "
                                + name
                                + ": LowCardinality chunk of "
                                + chunkRows
                                + " rows where "
                                + remaining
                                + " remain");
            }
            for (int r = 0; r < chunkRows; r++) {
                long key =
                        switch (code) {
                            case 0 -> in.readUInt8();
                            case 1 -> in.readInt16() & 0xFFFFL;
                            case 2 -> in.readInt32() & 0xFFFF_FFFFL;
                            default -> in.readInt64();
                        };
                if (key < 0 || key >= keyCount) {
                    throw new WireException(
                            "column "
                                    + name
                                    + ": LowCardinality index "
                                    + key
                                    + " of "
                                    + keyCount
                                    + " keys");
                }
                if (nullable && key == 0) {
                    addIndex(0);
                } else {
                    dictionary.appendRowFrom(chunkKeys, (int) key);
                    commitLastKey();
                }
            }
            remaining -= chunkRows;
        }
    }

    private long readCount(WireInput in, String what) {
        long v = in.readInt64();
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new WireException("column " + name + ": LowCardinality " + what + " " + v);
        }
        return v;
    }

    // ---- Reads ----

    @Override
    public boolean isNull(int row) {
        return nullable && index(row) == 0;
    }

    @Override
    public long getLong(int row) {
        return dictionary.getLong(index(row));
    }

    @Override
    public double getDouble(int row) {
        return dictionary.getDouble(index(row));
    }

    @Override
    public String getString(int row) {
        return isNull(row) ? null : dictionary.getString(index(row));
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : dictionary.getObject(index(row));
    }

    @Override
    public void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        LowCardinalityColumn src = (LowCardinalityColumn) source;
        for (int i = from; i < to; i++) {
            checkSourceRow(rows[i], sourceRows);
        }
        // Each source key is looked up in our dictionary once: keyMap[sourceKey] = our key + 1.
        int keys = src.dictionary.rows();
        if (keyMap.length < keys) {
            keyMap = new int[grow(keyMap.length, keys)];
        }
        Arrays.fill(keyMap, 0, keys, 0);
        for (int i = from; i < to; i++) {
            int key = src.indexes[rows[i]];
            if (nullable && key == 0) {
                addIndex(0);
            } else if (keyMap[key] != 0) {
                addIndex(keyMap[key] - 1);
            } else {
                dictionary.appendRowFrom(src.dictionary, key);
                commitLastKey();
                keyMap[key] = indexes[this.rows - 1] + 1;
            }
        }
    }
}
