package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * String: all rows in one byte array exactly as they go on the wire, plus the end offset of each
 * row. Text is encoded to UTF-8 straight into the array.
 *
 * <pre>
 * bytes: [VarUInt len0][value0][VarUInt len1][value1] ...
 *                      ^start(0)     ^end(0)       ^start(1)  ^end(1)
 * </pre>
 *
 * Keeping the length prefixes inline makes {@link #writeData} one bulk copy (which a draining
 * output can hand to its compressor without copying at all) instead of a VarUInt and a small copy
 * per row; an append writes the prefix it would have written anyway.
 */
public class StringColumn extends Column {
    private byte[] bytes = new byte[1024];
    private int used;
    private int[] ends = new int[64];
    private int rows;
    private final CharArrayView charView = new CharArrayView();

    public StringColumn(String name, ClickHouseType type) {
        super(name, type);
    }

    @Override
    public final int rows() {
        return rows;
    }

    @Override
    public final void reset() {
        rows = 0;
        used = 0;
    }

    @Override
    public final void reserveLike(Column other) {
        if (other instanceof StringColumn s) {
            if (bytes.length < s.bytes.length) {
                bytes = Arrays.copyOf(bytes, s.bytes.length);
            }
            if (ends.length < s.ends.length) {
                ends = Arrays.copyOf(ends, s.ends.length);
            }
        }
    }

    @Override
    public final void reserveMore(int more, long dataBytes) {
        if (more < 0 || dataBytes < 0) {
            throw new IllegalArgumentException(
                    "cannot reserve " + more + " rows, " + dataBytes + " bytes");
        }
        if (rows + (long) more > ends.length) {
            ends = Arrays.copyOf(ends, grow(ends.length, Math.addExact(rows, more)));
        }
        if (used + dataBytes > bytes.length) {
            ensureBytes((int) Math.min(Integer.MAX_VALUE, dataBytes));
        }
    }

    @Override
    public final long dataBytes() {
        return used; // exact: the prefixes are stored
    }

    @Override
    public final long capacityBytes() {
        return bytes.length + 4L * ends.length;
    }

    /**
     * The rows as on the wire, each a VarUInt length then the value: {@code bytesUsed()} are valid;
     * the value of row r is {@code [start(r), end(r))}.
     */
    public final byte[] rawBytes() {
        return bytes;
    }

    public final int bytesUsed() {
        return used;
    }

    /** Offset of the first byte of row's value, after its length prefix. */
    public final int start(int row) {
        int p = row == 0 ? 0 : ends[row - 1];
        while (bytes[p++] < 0) {
            // VarUInt continuation bytes have the high bit set
        }
        return p;
    }

    public final int end(int row) {
        return ends[row];
    }

    private void ensureBytes(int more) {
        long needed = (long) used + more;
        if (needed > bytes.length) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw invalid("column exceeds 2 GiB of string data");
            }
            bytes = Arrays.copyOf(bytes, grow(bytes.length, (int) needed));
        }
    }

    private void endRow() {
        if (rows == ends.length) {
            ends = Arrays.copyOf(ends, grow(ends.length, rows + 1));
        }
        ends[rows++] = used;
    }

    /**
     * Writes {@code len} as a VarUInt at {@code p} (room checked by the caller); returns the end.
     */
    private static int putVarUInt(byte[] b, int p, int len) {
        while ((len & ~0x7F) != 0) {
            b[p++] = (byte) (len | 0x80);
            len >>>= 7;
        }
        b[p++] = (byte) len;
        return p;
    }

    private static int varUIntSize(int len) {
        return len < 1 << 7 ? 1 : len < 1 << 14 ? 2 : len < 1 << 21 ? 3 : len < 1 << 28 ? 4 : 5;
    }

    @Override
    public void appendBytes(byte[] value, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, value.length);
        ensureBytes(length + 5);
        byte[] b = bytes;
        int p = putVarUInt(b, used, length);
        System.arraycopy(value, offset, b, p, length);
        used = p + length;
        endRow();
    }

    @Override
    public void appendString(CharSequence s) {
        if (s instanceof String text && appendAscii(text)) {
            return;
        }
        int n = s.length();
        // No UTF-16 unit takes more than 3 UTF-8 bytes: reserve the prefix for that bound, encode
        // after it, and close the gap when the real length needs a shorter prefix.
        long bound = 3L * n;
        if (bound > Integer.MAX_VALUE - 16) {
            throw invalid("text of " + n + " chars is too long for one string");
        }
        int reserved = varUIntSize((int) bound);
        ensureBytes((int) bound + reserved);
        byte[] b = bytes;
        int valueAt = used + reserved;
        int p = valueAt;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[p++] = (byte) c;
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < n
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | (cp >> 18));
                b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                throw invalid("text has an unpaired UTF-16 surrogate at char " + i);
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        int len = p - valueAt;
        int prefix = varUIntSize(len);
        if (prefix != reserved) {
            System.arraycopy(b, valueAt, b, used + prefix, len);
        }
        used = putVarUInt(b, used, len) + len;
        endRow();
    }

    /**
     * Appends {@code s} when it is ASCII, its UTF-8 then one byte per char and its length known
     * before it is encoded: one pass that copies and checks at once, no gap to close. False, with
     * nothing appended, otherwise (what it wrote past the end is overwritten by the next value).
     */
    private boolean appendAscii(String s) {
        int n = s.length();
        if (n > Integer.MAX_VALUE - 16) {
            return false; // appendString says it is too long
        }
        ensureBytes(n + 5);
        byte[] b = bytes;
        int p = putVarUInt(b, used, n);
        int any = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            any |= c;
            b[p + i] = (byte) c;
        }
        if (any >= 0x80) {
            return false;
        }
        used = p + n;
        endRow();
        return true;
    }

    /** Appends text from a char array (JSON parsers hand these out without copying). */
    public void appendChars(char[] chars, int offset, int length) {
        charView.set(chars, offset, length);
        try {
            appendString(charView);
        } finally {
            charView.set(null, 0, 0);
        }
    }

    /** A reusable view of a char range, so {@link #appendChars} allocates nothing. */
    private static final class CharArrayView implements CharSequence {
        private char[] chars;
        private int offset;
        private int length;

        void set(char[] chars, int offset, int length) {
            this.chars = chars;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return chars[offset + index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(chars, offset + start, end - start);
        }

        @Override
        public String toString() {
            return new String(chars, offset, length);
        }
    }

    @Override
    public void appendDefault() {
        ensureBytes(1);
        bytes[used++] = 0; // the empty string: length 0
        endRow();
    }

    @Override
    public void writeData(WireOutput out) {
        out.writeBytes(bytes, 0, used);
    }

    @Override
    public void readData(WireInput in, int n) {
        for (int i = 0; i < n; i++) {
            int len = in.readVarUIntAsInt("string length", WireInput.MAX_STRING_BYTES);
            ensureBytes(5);
            int prefix = putVarUInt(bytes, used, len) - used;
            // Grow with the bytes that arrive, not with the length the input claims.
            int filled = 0;
            while (filled < len) {
                int k = Math.min(len - filled, READ_STEP_BYTES);
                ensureBytes(prefix + filled + k);
                in.readFully(bytes, used + prefix + filled, k);
                filled += k;
            }
            used += prefix + len;
            endRow();
        }
    }

    public byte[] getBytes(int row) {
        checkRow(row);
        return Arrays.copyOfRange(bytes, start(row), ends[row]);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        int s = start(row);
        return new String(bytes, s, ends[row] - s, StandardCharsets.UTF_8);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    private void checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rows + " in " + name);
        }
    }

    @Override
    final int hashRow(int row) {
        int h = 1;
        for (int i = start(row), e = ends[row]; i < e; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }

    @Override
    final boolean rowsEqual(int a, int b) {
        return Arrays.equals(bytes, start(a), ends[a], bytes, start(b), ends[b]);
    }

    @Override
    public final void truncate(int newRows) {
        if (newRows < 0 || newRows > rows) {
            throw new IndexOutOfBoundsException(
                    "truncate " + name + " to " + newRows + " of " + rows);
        }
        rows = newRows;
        used = rows == 0 ? 0 : ends[rows - 1];
    }

    @Override
    final void appendRowFrom(Column source, int row) {
        StringColumn src = (StringColumn) source;
        int s = src.start(row);
        appendBytes(src.bytes, s, src.ends[row] - s);
    }

    @Override
    public final void appendAll(Column source) {
        checkGather(source, new int[0], 0, 0);
        StringColumn src = (StringColumn) source;
        int n = src.rows;
        if (this.rows + n > ends.length) {
            ends = Arrays.copyOf(ends, grow(ends.length, this.rows + n));
        }
        ensureBytes(src.used);
        System.arraycopy(src.bytes, 0, bytes, used, src.used);
        int base = used;
        int[] srcEnds = src.ends;
        for (int i = 0; i < n; i++) {
            ends[this.rows + i] = base + srcEnds[i];
        }
        this.rows += n;
        used = base + src.used;
    }

    @Override
    public final void appendRowsFrom(Column source, int[] rows, int from, int to) {
        int sourceRows = checkGather(source, rows, from, to);
        StringColumn src = (StringColumn) source;
        if (this.rows + (to - from) > ends.length) {
            ends = Arrays.copyOf(ends, grow(ends.length, this.rows + (to - from)));
        }
        int rowsBefore = this.rows;
        byte[] sb = src.bytes;
        try {
            for (int i = from; i < to; i++) {
                int r = rows[i];
                checkSourceRow(r, sourceRows);
                // A row's wire form, length prefix included, is src.bytes[end(r-1), end(r)).
                int s = r == 0 ? 0 : src.ends[r - 1];
                int len = src.ends[r] - s;
                ensureBytes(len);
                byte[] dst = bytes;
                int p = used;
                if (len <= 16) {
                    // Short rows: a plain loop beats the fixed cost of System.arraycopy.
                    for (int k = 0; k < len; k++) {
                        dst[p + k] = sb[s + k];
                    }
                } else {
                    System.arraycopy(sb, s, dst, p, len);
                }
                used = p + len;
                ends[this.rows++] = used;
            }
        } catch (RuntimeException e) {
            truncate(rowsBefore); // a bad row number leaves the column as it was
            throw e;
        }
    }
}
