package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;

/**
 * Reads the text form ClickHouse gives values nested in arrays, tuples and maps, as found in TSV
 * and CSV fields: {@code [1,2]}, {@code ['a','b\'c']}, {@code (1,NULL)}, {@code {'k':[1]}}. Strings
 * are quoted ({@code '} or {@code "}) with backslash escapes; {@code NULL} is NULL; nested values
 * are handed on as their text. Each composite converter owns one reader, so nesting never shares a
 * scratch buffer.
 */
final class QuotedReader {
    private final String typeName;
    private byte[] b;
    private int p;
    private int off;
    private int end;
    private byte[] scratch = new byte[64];

    QuotedReader(String typeName) {
        this.typeName = typeName;
    }

    /** Starts reading {@code b[off, off + len)}, which must open with {@code open}. */
    void start(byte[] b, int off, int len, char open) {
        this.b = b;
        this.off = off;
        this.p = off;
        this.end = off + len;
        skipSpaces();
        if (p == end || b[p] != open) {
            throw error("expected '" + open + "'");
        }
        p++;
    }

    /** Consumes {@code close} when it comes next. */
    boolean closes(char close) {
        skipSpaces();
        if (p < end && b[p] == close) {
            p++;
            return true;
        }
        return false;
    }

    /** After a value: true on a comma (another value follows), false on {@code close}. */
    boolean next(char close) {
        skipSpaces();
        if (p < end && b[p] == ',') {
            p++;
            return true;
        }
        if (p < end && b[p] == close) {
            p++;
            return false;
        }
        throw error("expected ',' or '" + close + "'");
    }

    void expect(char c) {
        skipSpaces();
        if (p == end || b[p] != c) {
            throw error("expected '" + c + "'");
        }
        p++;
    }

    /** The text must end here (spaces aside). */
    void finish() {
        skipSpaces();
        if (p != end) {
            throw error("unexpected text after the closing bracket");
        }
    }

    /** Reads one value and appends it to {@code col} through {@code conv}. */
    void value(Converter conv, Column col) {
        skipSpaces();
        if (p == end) {
            throw error("a value is missing");
        }
        byte c = b[p];
        if (c == '\'' || c == '"') {
            int n = unquote(c);
            conv.text(col, scratch, 0, n);
        } else if (c == '[' || c == '(' || c == '{') {
            int s = p;
            p = matching(p);
            conv.text(col, b, s, p - s);
        } else {
            int s = p;
            while (p < end && !isStop(b[p])) {
                p++;
            }
            if (p == s) {
                throw error("a value is missing");
            }
            if (Texts.equalsIgnoreCase(b, s, p - s, "null")) {
                if (conv.nullable()) {
                    conv.nul(col);
                } else {
                    col.appendDefault(); // NULL for a non-Nullable type: its default, as elsewhere
                }
            } else {
                conv.text(col, b, s, p - s);
            }
        }
    }

    private static boolean isStop(byte c) {
        return c == ',' || c == ']' || c == ')' || c == '}' || c == ':' || Texts.isSpace(c);
    }

    /** Unescapes the string quoted by {@code q} at {@link #p} into the scratch buffer. */
    private int unquote(byte q) {
        p++;
        if (scratch.length < end - p) {
            scratch = new byte[Math.max(end - p, scratch.length * 2)];
        }
        int n = 0;
        while (p < end) {
            byte c = b[p++];
            if (c == q) {
                return n;
            }
            if (c == '\\' && p < end) {
                byte e = b[p++];
                if (e == 'x' && end - p >= 2 && hex(b[p]) >= 0 && hex(b[p + 1]) >= 0) {
                    scratch[n++] = (byte) (hex(b[p]) << 4 | hex(b[p + 1]));
                    p += 2;
                } else {
                    scratch[n++] = Escapes.unescape(e);
                }
            } else {
                scratch[n++] = c;
            }
        }
        throw error("a quoted string is not closed");
    }

    private static int hex(byte c) {
        return UuidConverter.hexValue(c);
    }

    /** The index after the bracket that closes the one at {@code from}, skipping strings. */
    private int matching(int from) {
        int depth = 0;
        int i = from;
        while (i < end) {
            byte c = b[i++];
            if (c == '[' || c == '(' || c == '{') {
                depth++;
            } else if (c == ']' || c == ')' || c == '}') {
                if (--depth == 0) {
                    return i;
                }
            } else if (c == '\'' || c == '"') {
                while (i < end && b[i] != c) {
                    i += b[i] == '\\' ? 2 : 1;
                }
                i++;
            }
        }
        throw error("a bracket is not closed");
    }

    private void skipSpaces() {
        while (p < end && Texts.isSpace(b[p])) {
            p++;
        }
    }

    private ConversionException error(String problem) {
        return new ConversionException(
                Texts.show(b, off, end - off)
                        + " is not a "
                        + typeName
                        + ": "
                        + problem
                        + " at character "
                        + (p - off + 1));
    }
}
