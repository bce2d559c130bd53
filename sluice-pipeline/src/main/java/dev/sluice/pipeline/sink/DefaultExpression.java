package dev.sluice.pipeline.sink;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A column's DEFAULT expression, as far as the client can compute it: a literal (number, string or
 * NULL), a cast of one ({@code CAST(5, 'UInt8')}, {@code CAST(5 AS UInt8)}, {@code toUInt8(5)}),
 * {@code now()} or {@code today()}. Anything else is {@link Kind#UNSUPPORTED}: the server must fill
 * it, which it can only do for a column an INSERT leaves out entirely.
 *
 * <p>Casts are not applied here: the cast target is the column's type in every expression the
 * server prints, and the literal is converted to that type when it is appended.
 */
public record DefaultExpression(Kind kind, String text, String literal) {

    public enum Kind {
        /** {@link #literal()} is the digits of a number, e.g. {@code -1.5}. */
        NUMBER,
        /** {@link #literal()} is the unescaped content of a string literal. */
        STRING,
        NULL,
        NOW,
        TODAY,
        UNSUPPORTED
    }

    /** Parses the expression as {@code system.columns.default_expression} prints it. */
    public static DefaultExpression parse(String text) {
        Parser p = new Parser(text);
        DefaultExpression e;
        try {
            e = p.expression();
            p.skipSpaces();
            if (!p.atEnd()) {
                e = null;
            }
        } catch (IllegalArgumentException ex) {
            e = null;
        }
        return e == null ? new DefaultExpression(Kind.UNSUPPORTED, text, null) : e;
    }

    /** Functions that only convert their argument to a type (the column's, in practice). */
    private static final Pattern CAST_FUNCTION =
            Pattern.compile(
                    "to(U?Int(8|16|32|64|128|256)|Float(32|64)|String|FixedString|Date|Date32"
                            + "|DateTime|DateTime64|Decimal(32|64|128|256)|UUID|IPv4|IPv6|Bool)"
                            + "(OrZero|OrNull|OrDefault)?");

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String text) {
            this.s = text;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        void skipSpaces() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        DefaultExpression expression() {
            skipSpaces();
            if (atEnd()) {
                return null;
            }
            char c = s.charAt(i);
            if (c == '\'' || c == '-' || c == '+' || Character.isDigit(c)) {
                return literal();
            }
            String name = identifier();
            if (name.isEmpty()) {
                return null;
            }
            skipSpaces();
            if (name.equalsIgnoreCase("NULL") && (atEnd() || s.charAt(i) != '(')) {
                return new DefaultExpression(Kind.NULL, s, null);
            }
            expect('(');
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("now") || lower.equals("today")) {
                skipSpaces();
                expect(')');
                return new DefaultExpression(lower.equals("now") ? Kind.NOW : Kind.TODAY, s, null);
            }
            boolean cast = lower.equals("cast");
            if (!cast && !CAST_FUNCTION.matcher(name).matches()) {
                return null;
            }
            DefaultExpression inner = expression();
            if (inner == null) {
                return null;
            }
            skipSpaces();
            if (cast && !atEnd() && s.charAt(i) != ',') {
                String as = identifier();
                if (!as.equalsIgnoreCase("AS")) {
                    return null;
                }
            }
            skipRestOfCall(); // the cast's type, or a precision / scale argument
            return new DefaultExpression(inner.kind, s, inner.literal);
        }

        /** Skips to after the parenthesis that closes the current call. */
        private void skipRestOfCall() {
            int depth = 0;
            while (!atEnd()) {
                char c = s.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    if (depth == 0) {
                        i++;
                        return;
                    }
                    depth--;
                } else if (c == '\'') {
                    stringLiteral();
                    continue;
                }
                i++;
            }
            throw new IllegalArgumentException("unclosed call");
        }

        private DefaultExpression literal() {
            if (s.charAt(i) == '\'') {
                return new DefaultExpression(Kind.STRING, s, stringLiteral());
            }
            int start = i;
            if (s.charAt(i) == '-' || s.charAt(i) == '+') {
                i++;
            }
            int digits = i;
            while (!atEnd()
                    && (Character.isDigit(s.charAt(i))
                            || ".eE".indexOf(s.charAt(i)) >= 0
                            || ((s.charAt(i) == '-' || s.charAt(i) == '+')
                                    && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E')))) {
                i++;
            }
            if (i == digits) {
                throw new IllegalArgumentException("not a number");
            }
            String number = s.substring(start, i);
            Double.parseDouble(number); // validates the shape
            return new DefaultExpression(
                    Kind.NUMBER, s, number.startsWith("+") ? number.substring(1) : number);
        }

        /** A single-quoted literal with ClickHouse's backslash escapes and doubled quotes. */
        private String stringLiteral() {
            expect('\'');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (atEnd()) {
                    throw new IllegalArgumentException("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '\'') {
                    if (!atEnd() && s.charAt(i) == '\'') {
                        sb.append('\'');
                        i++;
                        continue;
                    }
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (atEnd()) {
                    throw new IllegalArgumentException("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case '0' -> sb.append('\0');
                    case 'x' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 2), 16));
                        i += 2;
                    }
                    default -> sb.append(e);
                }
            }
        }

        private String identifier() {
            int start = i;
            while (!atEnd() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                i++;
            }
            return s.substring(start, i);
        }

        private void expect(char c) {
            if (atEnd() || s.charAt(i) != c) {
                throw new IllegalArgumentException("expected " + c);
            }
            i++;
        }
    }
}
