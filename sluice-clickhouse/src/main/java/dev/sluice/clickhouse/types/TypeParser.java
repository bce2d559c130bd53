package dev.sluice.clickhouse.types;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses ClickHouse type names ({@code Array(LowCardinality(Nullable(String)))}, {@code Enum8('a' =
 * 1)}, {@code Tuple(a UInt8, b String)}, ...) into {@link ClickHouseType} trees.
 *
 * <p>{@code Nested(a T, b U)} parses to {@code Array(Tuple(a T, b U))}: servers flatten Nested
 * columns into dotted arrays in INSERT headers, and the nested form only appears in DDL.
 */
public final class TypeParser {
    private final String text;
    private int pos;

    private TypeParser(String text) {
        this.text = text;
    }

    /** Parses a full type name; anything unknown is an {@link UnsupportedTypeException}. */
    public static ClickHouseType parse(String typeName) {
        TypeParser p = new TypeParser(typeName);
        ClickHouseType t;
        try {
            t = p.type();
            p.skipSpaces();
            if (p.pos != p.text.length()) {
                throw p.error("unexpected '" + p.text.substring(p.pos) + "'");
            }
        } catch (UnsupportedTypeException e) {
            if (e.typeName().equals(typeName)) {
                throw e;
            }
            // Name the whole type, keep the innermost reason.
            throw new UnsupportedTypeException(typeName, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UnsupportedTypeException(typeName, e.getMessage());
        }
        return t;
    }

    private ClickHouseType type() {
        skipSpaces();
        int start = pos;
        String name = identifier0();
        skipSpaces();
        boolean hasArgs = peek() == '(';
        if (!hasArgs) {
            return simple(name, start);
        }
        pos++; // '('
        ClickHouseType t =
                switch (name) {
                    case "Nullable" -> new NullableType(typeThenClose());
                    case "Array" -> new ArrayType(typeThenClose());
                    case "LowCardinality" -> new LowCardinalityType(typeThenClose());
                    case "FixedString" -> new FixedStringType(intThenClose());
                    case "DateTime" -> new DateTimeType(stringThenClose());
                    case "DateTime64" -> dateTime64();
                    case "Decimal" -> decimal();
                    case "Decimal32" -> new DecimalType(9, intThenClose());
                    case "Decimal64" -> new DecimalType(18, intThenClose());
                    case "Decimal128" -> new DecimalType(38, intThenClose());
                    case "Decimal256" -> new DecimalType(76, intThenClose());
                    case "Enum8" -> new EnumType(8, enumEntries());
                    case "Enum16" -> new EnumType(16, enumEntries());
                    case "Tuple" -> tuple();
                    case "Nested" -> new ArrayType(nested());
                    case "Map" -> map();
                    case "SimpleAggregateFunction" -> simpleAggregate();
                    case "Object" -> objectType(start);
                    case "JSON" -> jsonWithArgs(start);
                    default -> throw unsupported(start);
                };
        return t;
    }

    private ClickHouseType simple(String name, int start) {
        SimpleType s = SimpleType.byName(name);
        if (s != null) {
            return s;
        }
        return switch (name) {
            case "DateTime" -> DateTimeType.PLAIN;
            case "JSON" -> new JsonType("JSON");
            case "Decimal" -> new DecimalType(10, 0); // the server's default for bare Decimal
            default -> throw unsupported(start);
        };
    }

    private ClickHouseType typeThenClose() {
        ClickHouseType t = type();
        expect(')');
        return t;
    }

    private int intThenClose() {
        int v = integer();
        expect(')');
        return v;
    }

    private String stringThenClose() {
        String s = quotedString();
        expect(')');
        return s;
    }

    private ClickHouseType dateTime64() {
        int precision = integer();
        String tz = null;
        skipSpaces();
        if (peek() == ',') {
            pos++;
            tz = quotedString();
        }
        expect(')');
        return new DateTime64Type(precision, tz);
    }

    private ClickHouseType decimal() {
        int precision = integer();
        int scale = 0;
        skipSpaces();
        if (peek() == ',') {
            pos++;
            scale = integer();
        }
        expect(')');
        return new DecimalType(precision, scale);
    }

    private List<EnumType.Entry> enumEntries() {
        List<EnumType.Entry> entries = new ArrayList<>();
        do {
            String name = quotedString();
            expect('=');
            entries.add(new EnumType.Entry(name, integer()));
            skipSpaces();
        } while (tryConsume(','));
        expect(')');
        return entries;
    }

    private TupleType tuple() {
        List<ClickHouseType> elements = new ArrayList<>();
        List<String> names = new ArrayList<>();
        do {
            skipSpaces();
            int save = pos;
            String first = identifier0();
            skipSpaces();
            char c = peek();
            if (c == ',' || c == ')' || c == '(') {
                pos = save; // an unnamed element: the identifier was the type
                elements.add(type());
            } else {
                names.add(first);
                elements.add(type());
            }
            skipSpaces();
        } while (tryConsume(','));
        expect(')');
        if (!names.isEmpty() && names.size() != elements.size()) {
            throw error("a Tuple must name all of its elements or none");
        }
        return new TupleType(elements, names);
    }

    private TupleType nested() {
        TupleType t = tuple();
        if (!t.isNamed()) {
            throw error("Nested needs named elements");
        }
        return t;
    }

    private MapType map() {
        ClickHouseType k = type();
        expect(',');
        ClickHouseType v = type();
        expect(')');
        return new MapType(k, v);
    }

    private SimpleAggregateFunctionType simpleAggregate() {
        skipSpaces();
        int start = pos;
        // The function may carry parameters, e.g. groupArrayArray or sumMap(...)
        int depth = 0;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
            pos++;
        }
        String fn = text.substring(start, pos).trim();
        expect(',');
        ClickHouseType inner = type();
        expect(')');
        return new SimpleAggregateFunctionType(fn, inner);
    }

    private ClickHouseType objectType(int start) {
        String kind = quotedString();
        expect(')');
        if (!kind.equalsIgnoreCase("json")) {
            throw unsupported(start);
        }
        return new JsonType(text.substring(start, pos));
    }

    private ClickHouseType jsonWithArgs(int start) {
        // JSON(max_dynamic_paths=..., a.b UInt32, SKIP x): the arguments only tune storage.
        int depth = 1;
        while (pos < text.length() && depth > 0) {
            char c = text.charAt(pos++);
            if (c == '\'') {
                pos--;
                quotedString();
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
        }
        if (depth != 0) {
            throw error("unbalanced parentheses");
        }
        return new JsonType(text.substring(start, pos));
    }

    // Lexing.

    private String identifier0() {
        skipSpaces();
        if (peek() == '`') {
            return backquoted();
        }
        int start = pos;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isLetterOrDigit(c) || c == '_' || c == '.') {
                pos++;
            } else {
                break;
            }
        }
        if (start == pos) {
            throw error(
                    pos < text.length() ? "unexpected '" + text.charAt(pos) + "'" : "end of input");
        }
        return text.substring(start, pos);
    }

    private String backquoted() {
        pos++; // '`'
        StringBuilder sb = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '\\' && pos < text.length()) {
                sb.append(text.charAt(pos++));
            } else if (c == '`') {
                if (peek() == '`') {
                    sb.append('`');
                    pos++;
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
        throw error("unterminated identifier");
    }

    private int integer() {
        skipSpaces();
        int start = pos;
        if (peek() == '-' || peek() == '+') {
            pos++;
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        try {
            return Integer.parseInt(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("expected a number");
        }
    }

    private String quotedString() {
        skipSpaces();
        if (peek() != '\'') {
            throw error("expected a quoted string");
        }
        pos++;
        StringBuilder sb = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '\\' && pos < text.length()) {
                char e = text.charAt(pos++);
                sb.append(
                        switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case '0' -> '\0';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            default -> e;
                        });
            } else if (c == '\'') {
                if (peek() == '\'') {
                    sb.append('\'');
                    pos++;
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
        throw error("unterminated string");
    }

    private void expect(char c) {
        skipSpaces();
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private boolean tryConsume(char c) {
        skipSpaces();
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + pos);
    }

    private UnsupportedTypeException unsupported(int start) {
        int end = pos;
        if (end < text.length() && text.charAt(end) == '(') {
            end++;
        }
        // Report the type as written, up to its closing parenthesis.
        int depth = 0;
        int i = start;
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    break;
                }
                depth--;
                if (depth == 0) {
                    i++;
                    break;
                }
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        return new UnsupportedTypeException(text.substring(start, Math.max(i, end)).trim(), null);
    }

    /** Quotes a string literal as ClickHouse prints it in type names. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('\'').toString();
    }

    /** An identifier, backquoted when it is not a plain word. */
    public static String identifier(String name) {
        boolean plain = !name.isEmpty() && !Character.isDigit(name.charAt(0));
        for (int i = 0; plain && i < name.length(); i++) {
            char c = name.charAt(i);
            plain = Character.isLetterOrDigit(c) || c == '_';
        }
        if (plain) {
            return name;
        }
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }
}
