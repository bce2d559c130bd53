package dev.sluice.clickhouse.expr;

import java.nio.charset.StandardCharsets;

/**
 * The server's {@code visitParam*} functions (18.16 has no {@code JSONExtract*}): a parameter is
 * found by searching the text for {@code "name":} — the first occurrence, at any depth, without
 * parsing the JSON — and its value read from the byte after the colon.
 *
 * <ul>
 *   <li>{@code visitParamHas}: 1 when found.
 *   <li>{@code visitParamExtractUInt/Int}: the digits there (one leading {@code "} skipped), with
 *       the server's reader's quirks: a {@code +} anywhere among them is skipped, a {@code -} makes
 *       an Int negative and ends a UInt; the value wraps past 64 bits; 0 when not found.
 *   <li>{@code visitParamExtractFloat}: a float there, read as {@link FloatText} reads it.
 *   <li>{@code visitParamExtractBool}: 1 when the value starts with {@code true}.
 *   <li>{@code visitParamExtractRaw}: the value's text up to the {@code ,} or {@code }} that ends
 *       it outside brackets and quotes (brackets and quotes nest as the server counts them, even
 *       inside strings); empty when it does not end.
 *   <li>{@code visitParamExtractString}: a JSON string there, unescaped ({@code \}{@code uXXXX} to
 *       UTF-8); empty when there is none.
 * </ul>
 *
 * <p>What 18.16 does not define is refused ({@link UnsupportedValueException}): a raw value that
 * meets a zero byte or the end of the text outside brackets (the server reads freed memory there,
 * and crashes), a {@code \}{@code u} escape that is not four hex digits or an unpaired surrogate.
 */
final class JsonParamNode extends Node {
    enum Fn {
        HAS,
        UINT,
        INT,
        FLOAT,
        BOOL,
        RAW,
        STRING
    }

    private final Fn fn;
    private final Node arg;
    private final byte[] needle;
    private final FloatText.Result parsed = new FloatText.Result();
    private byte[] stack = new byte[16];

    JsonParamNode(Fn fn, Node arg, String name, ValueType type) {
        super(type);
        this.fn = fn;
        this.arg = arg;
        this.needle = ("\"" + name + "\":").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = prepare(ctx, a);
        for (int i = 0; i < n; i++) {
            int s = a.starts[i];
            int e = a.ends[i];
            int at = nullAt(i) ? -1 : indexOf(a.bytes, s, e);
            int v = at < 0 ? -1 : at + needle.length;
            switch (fn) {
                case HAS -> out.longs[i] = at >= 0 ? 1 : 0;
                case UINT, INT -> out.longs[i] = v < 0 ? 0 : integer(a.bytes, v, e);
                case FLOAT -> out.doubles[i] = v < 0 ? 0 : floating(a.bytes, v, e);
                case BOOL -> out.longs[i] = v >= 0 && startsWithTrue(a.bytes, v, e) ? 1 : 0;
                case RAW -> raw(i, a.bytes, v, e);
                case STRING -> string(i, a.bytes, v, e);
            }
        }
        return out;
    }

    private int indexOf(byte[] b, int from, int to) {
        int last = to - needle.length;
        byte first = needle[0];
        outer:
        for (int p = from; p <= last; p++) {
            if (b[p] != first) {
                continue;
            }
            for (int k = 1; k < needle.length; k++) {
                if (b[p + k] != needle[k]) {
                    continue outer;
                }
            }
            return p;
        }
        return -1;
    }

    /** The server's {@code tryReadIntText} after an optional quote: 0 when it fails. */
    private long integer(byte[] b, int p, int to) {
        if (p < to && b[p] == '"') {
            p++;
        }
        boolean negative = false;
        long v = 0;
        for (; p < to; p++) {
            byte c = b[p];
            if (c == '+') {
                continue;
            }
            if (c == '-') {
                if (fn == Fn.UINT) {
                    break; // an unsigned reader stops at a minus
                }
                negative = true;
                continue;
            }
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
        }
        return negative ? -v : v;
    }

    private double floating(byte[] b, int p, int to) {
        if (p < to && b[p] == '"') {
            p++;
        }
        FloatText.parse(b, p, to, parsed);
        return parsed.value;
    }

    private static boolean startsWithTrue(byte[] b, int p, int to) {
        return to - p >= 4 && b[p] == 't' && b[p + 1] == 'r' && b[p + 2] == 'u' && b[p + 3] == 'e';
    }

    /** The server reads past the value into the zero byte that ends a string in its buffers. */
    private void raw(int i, byte[] b, int p, int to) {
        out.starts[i] = out.bytesUsed;
        out.ends[i] = out.bytesUsed;
        if (p < 0) {
            return;
        }
        int depth = 0;
        byte expect = 0;
        for (int q = p; q <= to; q++) {
            byte c = q < to ? b[q] : 0;
            if (c == expect) {
                if (depth == 0) {
                    throw new UnsupportedValueException(
                            "visitParamExtractRaw: the value of "
                                    + new String(needle, StandardCharsets.UTF_8)
                                    + " meets a zero byte or the end of the text before a , or }"
                                    + " (undefined in the server: 18.16 crashes)");
                }
                depth--;
                expect = depth == 0 ? 0 : stack[depth - 1];
                continue;
            }
            switch (c) {
                case '[' -> expect = push((byte) ']', ++depth);
                case '{' -> expect = push((byte) '}', ++depth);
                case '"' -> expect = push((byte) '"', ++depth);
                case '\\' -> {
                    if (q + 1 < to && b[q + 1] == '"') {
                        q++;
                    }
                }
                default -> {
                    if (expect == 0 && (c == ',' || c == '}')) {
                        out.putString(i, b, p, q);
                        return;
                    }
                }
            }
        }
    }

    private byte push(byte close, int depth) {
        if (stack.length < depth) {
            stack = java.util.Arrays.copyOf(stack, depth * 2);
        }
        stack[depth - 1] = close;
        return close;
    }

    /** The server's {@code tryReadJSONStringInto}: empty when there is no closed JSON string. */
    private void string(int i, byte[] b, int p, int to) {
        int start = out.bytesUsed;
        out.starts[i] = start;
        out.ends[i] = start;
        if (p < 0 || p >= to || b[p] != '"') {
            return;
        }
        p++;
        byte[] o = out.ownBytes(to - p);
        int w = start;
        while (p < to) {
            byte c = b[p];
            if (c == '"') {
                out.bytesUsed = w;
                out.ends[i] = w;
                return;
            }
            if (c != '\\') {
                o[w++] = c;
                p++;
                continue;
            }
            p++;
            if (p >= to) {
                break;
            }
            byte e = b[p];
            switch (e) {
                case 'b' -> o[w++] = '\b';
                case 'f' -> o[w++] = '\f';
                case 'n' -> o[w++] = '\n';
                case 'r' -> o[w++] = '\r';
                case 't' -> o[w++] = '\t';
                case 'u' -> {
                    int code = hex4(b, p + 1, to);
                    p += 5;
                    if (code >= 0xD800 && code <= 0xDBFF) {
                        if (to - p < 6 || b[p] != '\\' || b[p + 1] != 'u') {
                            throw badEscape();
                        }
                        int low = hex4(b, p + 2, to);
                        if (low < 0xDC00 || low > 0xDFFF) {
                            throw badEscape();
                        }
                        p += 6;
                        int cp = 0x10000 + (code - 0xD800) * 1024 + (low - 0xDC00);
                        o[w++] = (byte) (((cp >> 18) & 0x07) | 0xF0);
                        o[w++] = (byte) (((cp >> 12) & 0x3F) | 0x80);
                        o[w++] = (byte) (((cp >> 6) & 0x3F) | 0x80);
                        o[w++] = (byte) ((cp & 0x3F) | 0x80);
                    } else if (code <= 0x7F) {
                        o[w++] = (byte) code;
                    } else if (code <= 0x7FF) {
                        o[w++] = (byte) (((code >> 6) & 0x1F) | 0xC0);
                        o[w++] = (byte) ((code & 0x3F) | 0x80);
                    } else {
                        o[w++] = (byte) (((code >> 12) & 0x0F) | 0xE0);
                        o[w++] = (byte) (((code >> 6) & 0x3F) | 0x80);
                        o[w++] = (byte) ((code & 0x3F) | 0x80);
                    }
                    continue;
                }
                default -> o[w++] = e; // \" \\ \/ and any other character stand for themselves
            }
            p++;
        }
        // No closing quote: the server resets the value to empty.
    }

    private static int hex4(byte[] b, int p, int to) {
        if (to - p < 4) {
            throw badEscape();
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(b[p + k], 16);
            if (d < 0) {
                throw badEscape();
            }
            v = v * 16 + d;
        }
        return v;
    }

    private static UnsupportedValueException badEscape() {
        return new UnsupportedValueException(
                "visitParamExtractString: a \\u escape that is not four hex digits, or an unpaired"
                        + " surrogate, is not reproduced");
    }
}
