package dev.sluice.clickhouse.expr;

import java.util.Arrays;

/**
 * The values of an expression for the rows of one evaluation, held in primitive arrays (no object
 * per row). Which arrays are used depends on the {@link ValueType.Kind}: {@code longs} for
 * integers, dates, times and ordered columns, {@code doubles} for floats, {@code bytes} with {@code
 * starts}/{@code ends} for strings (the bytes may be a column's own buffer: read, never write).
 *
 * <p>A constant vector holds one value for every row: read row {@code i} through the accessors,
 * which handle that. The arrays are reused from one evaluation to the next and stay valid until the
 * expression is evaluated again.
 */
public final class ValueVector {
    private static final long[] NO_LONGS = {};
    private static final double[] NO_DOUBLES = {};
    private static final int[] NO_INTS = {};
    private static final byte[] NO_BYTES = {};

    ValueType type;
    int size;
    boolean constant;
    long[] longs = NO_LONGS;
    double[] doubles = NO_DOUBLES;
    byte[] bytes = NO_BYTES;
    int[] starts = NO_INTS;
    int[] ends = NO_INTS;

    /** 1 = NULL; only read when {@code hasNulls}. */
    byte[] nulls = NO_BYTES;

    boolean hasNulls;

    /** Bytes used in {@code bytes} when this vector owns them (computed strings). */
    int bytesUsed;

    ValueVector(ValueType type) {
        this.type = type;
    }

    public ValueType type() {
        return type;
    }

    /** Rows represented (a constant vector represents any number of rows with one value). */
    public int size() {
        return size;
    }

    public boolean isConstant() {
        return constant;
    }

    public boolean hasNulls() {
        return hasNulls;
    }

    public boolean isNull(int row) {
        return hasNulls && nulls[constant ? 0 : row] != 0;
    }

    public long getLong(int row) {
        return longs[constant ? 0 : row];
    }

    public double getDouble(int row) {
        return doubles[constant ? 0 : row];
    }

    /** The bytes holding string values; a value is {@code [start(row), end(row))}. */
    public byte[] bytes() {
        return bytes;
    }

    public int start(int row) {
        return starts[constant ? 0 : row];
    }

    public int end(int row) {
        return ends[constant ? 0 : row];
    }

    // ---- Filling, for the evaluator ----

    /** Prepares for {@code n} values of the current kind; contents are undefined until written. */
    void prepare(int n, boolean isConstant) {
        size = n;
        constant = isConstant;
        hasNulls = false;
        bytesUsed = 0;
        int cap = isConstant ? 1 : n;
        switch (type.kind()) {
            case FLOAT -> {
                if (doubles.length < cap) {
                    doubles = new double[grow(doubles.length, cap)];
                }
            }
            case STRING, FIXED_STRING -> {
                if (starts.length < cap) {
                    starts = new int[grow(starts.length, cap)];
                    ends = new int[starts.length];
                }
            }
            case NULL -> {}
            default -> {
                if (longs.length < cap) {
                    longs = new long[grow(longs.length, cap)];
                }
            }
        }
    }

    /** Makes room for the null map of the prepared rows, all non-null. */
    byte[] nullMap() {
        int cap = constant ? 1 : size;
        if (nulls.length < cap) {
            nulls = new byte[grow(nulls.length, cap)];
        } else {
            Arrays.fill(nulls, 0, cap, (byte) 0);
        }
        hasNulls = true;
        return nulls;
    }

    /** Ensures {@code more} bytes past {@code bytesUsed} in an owned byte buffer. */
    byte[] ownBytes(int more) {
        long needed = (long) bytesUsed + more;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new UnsupportedValueException("string results exceed 2 GiB in one evaluation");
        }
        if (bytes.length < needed) {
            bytes = Arrays.copyOf(bytes, grow(bytes.length, (int) needed));
        }
        return bytes;
    }

    /** Points the string arrays at someone else's bytes (a column's buffer). */
    void borrowBytes(byte[] shared) {
        bytes = shared;
    }

    /** Appends a computed string value for row {@code i} into owned bytes. */
    void putString(int i, byte[] src, int from, int to) {
        int len = to - from;
        byte[] b = ownBytes(len);
        System.arraycopy(src, from, b, bytesUsed, len);
        starts[i] = bytesUsed;
        bytesUsed += len;
        ends[i] = bytesUsed;
    }

    static int grow(int current, int needed) {
        long n = Math.max(needed, Math.max(16L, current + (current >> 1)));
        return (int) Math.min(n, Integer.MAX_VALUE - 16);
    }
}
