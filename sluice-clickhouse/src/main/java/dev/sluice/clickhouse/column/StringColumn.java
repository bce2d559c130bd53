package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * String: all values in one byte array plus the end offset of each row. On the wire each row is a
 * VarUInt length and the bytes. Text is encoded to UTF-8 straight into the array.
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
    public final long dataBytes() {
        // Each length prefix is one byte for values under 128 bytes, the common case.
        return used + (long) rows;
    }

    /** Bytes of all values, back to back: {@code bytesUsed()} are valid. */
    public final byte[] rawBytes() {
        return bytes;
    }

    public final int bytesUsed() {
        return used;
    }

    public final int start(int row) {
        return row == 0 ? 0 : ends[row - 1];
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

    @Override
    public void appendBytes(byte[] value, int offset, int length) {
        ensureBytes(length);
        System.arraycopy(value, offset, bytes, used, length);
        used += length;
        endRow();
    }

    @Override
    public void appendString(CharSequence s) {
        int n = s.length();
        ensureBytes(n * 3); // no UTF-16 unit takes more than 3 UTF-8 bytes
        byte[] b = bytes;
        int p = used;
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
        used = p;
        endRow();
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
        endRow();
    }

    @Override
    public void writeData(WireOutput out) {
        byte[] b = bytes;
        int start = 0;
        for (int r = 0; r < rows; r++) {
            int end = ends[r];
            int len = end - start;
            out.writeVarUInt(len);
            out.writeBytes(b, start, len);
            start = end;
        }
    }

    @Override
    public void readData(WireInput in, int n) {
        for (int i = 0; i < n; i++) {
            int len = in.readVarUIntAsInt("string length", WireInput.MAX_STRING_BYTES);
            // Grow with the bytes that arrive, not with the length the input claims.
            int filled = 0;
            while (filled < len) {
                int k = Math.min(len - filled, READ_STEP_BYTES);
                ensureBytes(filled + k);
                in.readFully(bytes, used + filled, k);
                filled += k;
            }
            used += len;
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
}
