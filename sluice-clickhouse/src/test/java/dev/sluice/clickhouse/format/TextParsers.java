package dev.sluice.clickhouse.format;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Minimal readers of the text the encoders write, after ClickHouse's own: enough to prove that
 * escaping loses nothing. Bytes in, bytes out, so invalid UTF-8 survives too.
 */
final class TextParsers {
    private TextParsers() {}

    /** Undoes TSV escaping (readEscapedString): a backslash and a letter are one byte. */
    static byte[] unescapeTsv(byte[] s, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = from; i < to; i++) {
            byte c = s[i];
            if (c != '\\') {
                out.write(c);
                continue;
            }
            byte e = s[++i];
            out.write(
                    switch (e) {
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        case '0' -> 0;
                        default -> e; // \\ \' and any other escaped byte stand for themselves
                    });
        }
        return out.toByteArray();
    }

    /** A single-quoted value: the quotes stripped, escapes undone. */
    static byte[] unquote(byte[] s) {
        if (s[0] != '\'' || s[s.length - 1] != '\'') {
            throw new IllegalArgumentException("not quoted");
        }
        return unescapeTsv(s, 1, s.length - 1);
    }

    /** A CSV field in double quotes: "" is one quote. */
    static byte[] unquoteCsv(byte[] s) {
        if (s[0] != '"' || s[s.length - 1] != '"') {
            throw new IllegalArgumentException("not quoted");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i < s.length - 1; i++) {
            out.write(s[i]);
            if (s[i] == '"') {
                if (s[i + 1] != '"') {
                    throw new IllegalArgumentException("lone quote at " + i);
                }
                i++;
            }
        }
        return out.toByteArray();
    }

    /** A JSON string (RFC 8259): escapes to UTF-8, other bytes as they are. */
    static byte[] unquoteJson(byte[] s) {
        if (s[0] != '"' || s[s.length - 1] != '"') {
            throw new IllegalArgumentException("not quoted");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i < s.length - 1; i++) {
            byte c = s[i];
            if (c == '"' || (c >= 0 && c < 0x20)) {
                throw new IllegalArgumentException("unescaped byte " + c + " at " + i);
            }
            if (c != '\\') {
                out.write(c);
                continue;
            }
            byte e = s[++i];
            switch (e) {
                case 'b' -> out.write('\b');
                case 'f' -> out.write('\f');
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case '"', '\\', '/' -> out.write(e);
                case 'u' -> {
                    int cp =
                            Integer.parseInt(
                                    new String(
                                            s,
                                            i + 1,
                                            4,
                                            java.nio.charset.StandardCharsets.US_ASCII),
                                    16);
                    i += 4;
                    byte[] utf8 =
                            new String(Character.toChars(cp))
                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    out.write(utf8, 0, utf8.length);
                }
                default -> throw new IllegalArgumentException("bad escape " + (char) e);
            }
        }
        return out.toByteArray();
    }

    /** Splits TSV text into rows of still-escaped fields. */
    static List<List<byte[]>> tsvRows(byte[] text) {
        List<List<byte[]>> rows = new ArrayList<>();
        List<byte[]> row = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\t' || text[i] == '\n') {
                row.add(java.util.Arrays.copyOfRange(text, start, i));
                start = i + 1;
                if (text[i] == '\n') {
                    rows.add(row);
                    row = new ArrayList<>();
                }
            }
        }
        if (start != text.length) {
            throw new IllegalArgumentException("no line end after the last row");
        }
        return rows;
    }

    /** Splits CSV text into rows of fields (quoted fields keep their quotes). */
    static List<List<byte[]>> csvRows(byte[] text) {
        List<List<byte[]>> rows = new ArrayList<>();
        List<byte[]> row = new ArrayList<>();
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < text.length; i++) {
            byte c = text[i];
            if (c == '"') {
                quoted = !quoted; // "" toggles twice
            } else if (!quoted && (c == ',' || c == '\n')) {
                row.add(java.util.Arrays.copyOfRange(text, start, i));
                start = i + 1;
                if (c == '\n') {
                    rows.add(row);
                    row = new ArrayList<>();
                }
            }
        }
        if (quoted || start != text.length) {
            throw new IllegalArgumentException("unterminated row");
        }
        return rows;
    }
}
