package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses ClickHouse's {@code ColumnsDescription::toString()} text, as carried by {@link
 * TableColumns}:
 *
 * <pre>
 * columns format version: 1\n
 * &lt;N&gt; columns:\n
 * `name` Type[\tKIND\texpr][\tCOMMENT 'text'][\tCODEC(...)][\tSTATISTICS(...)][\tTTL expr][\tSETTINGS (...)]\n
 * ... N lines, in table order (18.x: ordinary, then MATERIALIZED, then ALIAS columns)
 * </pre>
 *
 * KIND is DEFAULT, MATERIALIZED, ALIAS or EPHEMERAL. The name is back-quoted with backslash
 * escapes; the type and every clause are written escaped ({@code \t}, {@code \n}, {@code \\},
 * {@code \'}): ClickHouse's {@code writeText} of a String escapes, later versions call {@code
 * writeEscapedString} by name. So no field holds a raw tab or newline, and lines and fields split
 * safely. Clauses by version:
 *
 * <ul>
 *   <li>18.16: only a comment, as a bare SQL literal without the COMMENT keyword; a column with a
 *       comment but no default has an empty field in place of KIND and expr ({@code `c`
 *       UInt8\t\t'note'}, as 18.16.1 sends it).
 *   <li>19.x: {@code COMMENT 'text'} and {@code CODEC(...)}, then {@code TTL expr}.
 *   <li>newer: also {@code STATISTICS(...)} and {@code SETTINGS (...)}.
 * </ul>
 */
final class ColumnsDescriptionParser {

    private static final String HEADER = "columns format version: 1\n";
    private static final String COUNT_SUFFIX = " columns:\n";
    private static final String COMMENT = "COMMENT ";

    private ColumnsDescriptionParser() {}

    static List<ColumnDescription> parse(String text) {
        if (!text.startsWith(HEADER)) {
            throw malformed("does not start with '" + HEADER.strip() + "'", text);
        }
        int pos = HEADER.length();
        int countEnd = pos;
        while (countEnd < text.length()
                && text.charAt(countEnd) >= '0'
                && text.charAt(countEnd) <= '9') {
            countEnd++;
        }
        if (countEnd == pos || countEnd - pos > 9 || !text.startsWith(COUNT_SUFFIX, countEnd)) {
            throw malformed("no '<N> columns:' line", text);
        }
        int count = Integer.parseInt(text.substring(pos, countEnd));
        pos = countEnd + COUNT_SUFFIX.length();
        List<ColumnDescription> columns = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            int eol = text.indexOf('\n', pos);
            if (eol < 0) {
                throw malformed("ends after " + i + " of " + count + " columns", text);
            }
            columns.add(parseLine(text.substring(pos, eol), text));
            pos = eol + 1;
        }
        if (pos != text.length()) {
            throw malformed("has text after the " + count + " columns", text);
        }
        return columns;
    }

    private static ColumnDescription parseLine(String line, String text) {
        if (!line.startsWith("`")) {
            throw malformed("column line does not start with a back-quoted name: " + line, text);
        }
        // The name: back-quoted, backslash escapes, a doubled back quote also allowed.
        ByteArrayOutputStream name = new ByteArrayOutputStream();
        int i = 1;
        while (true) {
            if (i >= line.length()) {
                throw malformed("unterminated column name: " + line, text);
            }
            char c = line.charAt(i);
            if (c == '\\') {
                i = unescapeOne(line, i, name, text);
            } else if (c == '`' && i + 1 < line.length() && line.charAt(i + 1) == '`') {
                name.write('`');
                i += 2;
            } else if (c == '`') {
                i++;
                break;
            } else {
                i = appendUtf8(line, i, name);
            }
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            throw malformed("no type after column name: " + line, text);
        }
        String[] fields = line.substring(i + 1).split("\t", -1);
        String type = unescape(fields[0], text);
        if (type.isEmpty()) {
            throw malformed("empty type: " + line, text);
        }
        DefaultKind kind = DefaultKind.NONE;
        String expression = "";
        int f = 1;
        if (f < fields.length && isKind(fields[f])) {
            kind = DefaultKind.valueOf(fields[f]);
            expression = f + 1 < fields.length ? unescape(fields[f + 1], text) : "";
            f += 2;
        } else if (f < fields.length && fields[f].isEmpty()) {
            f++; // 18.x: no default, but a comment follows
        }
        String comment = "";
        List<String> others = new ArrayList<>();
        for (; f < fields.length; f++) {
            String clause = unescape(fields[f], text);
            if (clause.startsWith(COMMENT)) {
                comment = unquote(clause.substring(COMMENT.length()), text);
            } else if (clause.startsWith("'")) {
                comment = unquote(clause, text); // 18.x: the literal alone
            } else {
                others.add(clause);
            }
        }
        return new ColumnDescription(utf8(name), type, kind, expression, comment, others);
    }

    private static boolean isKind(String field) {
        return switch (field) {
            case "DEFAULT", "MATERIALIZED", "ALIAS", "EPHEMERAL" -> true;
            default -> false;
        };
    }

    // A SQL string literal 'text' (as ClickHouse quotes it) to its text.
    private static String unquote(String literal, String text) {
        if (literal.length() < 2 || !literal.startsWith("'") || !literal.endsWith("'")) {
            throw malformed("comment is not a quoted string: " + literal, text);
        }
        return unescape(literal.substring(1, literal.length() - 1), text);
    }

    private static String unescape(String s, String text) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); ) {
            i = s.charAt(i) == '\\' ? unescapeOne(s, i, out, text) : appendUtf8(s, i, out);
        }
        return utf8(out);
    }

    // Decodes the escape sequence at s[i] (a backslash) as ClickHouse's parseEscapeSequence
    // does; returns the index after it. \xHH is a byte, so decoding works on UTF-8 bytes.
    private static int unescapeOne(String s, int i, ByteArrayOutputStream out, String text) {
        if (i + 1 >= s.length()) {
            throw malformed("dangling backslash in: " + s, text);
        }
        char c = s.charAt(i + 1);
        switch (c) {
            case 'x' -> {
                if (i + 3 >= s.length()
                        || Character.digit(s.charAt(i + 2), 16) < 0
                        || Character.digit(s.charAt(i + 3), 16) < 0) {
                    throw malformed("bad \\x escape in: " + s, text);
                }
                out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
                return i + 4;
            }
            case 'a' -> out.write(0x07);
            case 'b' -> out.write('\b');
            case 'e' -> out.write(0x1B);
            case 'f' -> out.write('\f');
            case 'n' -> out.write('\n');
            case 'r' -> out.write('\r');
            case 't' -> out.write('\t');
            case 'v' -> out.write(0x0B);
            case '0' -> out.write(0);
            default -> {
                return appendUtf8(s, i + 1, out);
            }
        }
        return i + 2;
    }

    // Appends the code point at s[i] as UTF-8; returns the index after it.
    private static int appendUtf8(String s, int i, ByteArrayOutputStream out) {
        int cp = s.codePointAt(i);
        if (cp < 0x80) {
            out.write(cp);
        } else {
            out.writeBytes(Character.toString(cp).getBytes(StandardCharsets.UTF_8));
        }
        return i + Character.charCount(cp);
    }

    private static String utf8(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static WireException malformed(String why, String text) {
        String shown = text.length() > 200 ? text.substring(0, 200) + "..." : text;
        return new WireException("malformed columns description: " + why + " in: " + shown);
    }
}
