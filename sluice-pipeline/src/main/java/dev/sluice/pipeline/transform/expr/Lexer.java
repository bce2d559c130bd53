package dev.sluice.pipeline.transform.expr;

import java.util.ArrayList;
import java.util.List;

/** Splits an expression into tokens. */
final class Lexer {
    enum Type {
        NUMBER,
        STRING,
        IDENT,
        /** A word that is a keyword (and, or, not, in, is, null, true, false), lower-cased. */
        KEYWORD,
        OP,
        END
    }

    record Token(Type type, String text, int at) {
        boolean is(Type t, String s) {
            return type == t && text.equals(s);
        }
    }

    private static final List<String> KEYWORDS =
            List.of("and", "or", "not", "in", "is", "null", "true", "false");

    private Lexer() {}

    static List<Token> tokens(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i == s.length()) {
                out.add(new Token(Type.END, "", i));
                return out;
            }
            char c = s.charAt(i);
            int start = i;
            if (Character.isDigit(c)
                    || (c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
                while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                    i++;
                }
                if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    i++;
                    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                        i++;
                    }
                    while (i < s.length() && Character.isDigit(s.charAt(i))) {
                        i++;
                    }
                }
                out.add(new Token(Type.NUMBER, s.substring(start, i), start));
            } else if (c == '\'') {
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    if (i >= s.length()) {
                        throw new ExprException("a string is not closed", s, start);
                    }
                    char d = s.charAt(i++);
                    if (d == '\'') {
                        if (i < s.length() && s.charAt(i) == '\'') {
                            sb.append('\'');
                            i++;
                            continue;
                        }
                        break;
                    }
                    if (d == '\\' && i < s.length()) {
                        char e = s.charAt(i++);
                        sb.append(
                                switch (e) {
                                    case 'n' -> '\n';
                                    case 't' -> '\t';
                                    case 'r' -> '\r';
                                    case '0' -> '\0';
                                    default -> e;
                                });
                        continue;
                    }
                    sb.append(d);
                }
                out.add(new Token(Type.STRING, sb.toString(), start));
            } else if (c == '`' || c == '"') {
                int close = s.indexOf(c, i + 1);
                if (close < 0) {
                    throw new ExprException("a quoted name is not closed", s, start);
                }
                out.add(new Token(Type.IDENT, s.substring(i + 1, close), start));
                i = close + 1;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < s.length()
                        && (Character.isLetterOrDigit(s.charAt(i))
                                || s.charAt(i) == '_'
                                || s.charAt(i) == '.')) {
                    i++;
                }
                String word = s.substring(start, i);
                String lower = word.toLowerCase(java.util.Locale.ROOT);
                out.add(
                        KEYWORDS.contains(lower)
                                ? new Token(Type.KEYWORD, lower, start)
                                : new Token(Type.IDENT, word, start));
            } else {
                String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
                if (two.equals("<=")
                        || two.equals(">=")
                        || two.equals("!=")
                        || two.equals("<>")
                        || two.equals("==")) {
                    out.add(new Token(Type.OP, two, start));
                    i += 2;
                } else if ("()[],+-*/%=<>".indexOf(c) >= 0) {
                    out.add(new Token(Type.OP, String.valueOf(c), start));
                    i++;
                } else {
                    throw new ExprException("unexpected character '" + c + "'", s, start);
                }
            }
        }
    }
}
