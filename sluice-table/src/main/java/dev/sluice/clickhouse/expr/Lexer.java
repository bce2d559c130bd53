package dev.sluice.clickhouse.expr;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Splits ClickHouse SQL into tokens: the subset expressions in table metadata use. */
final class Lexer {

    enum Kind {
        /** A bare word: identifier, keyword or function name. */
        WORD,
        /** A back-quoted or double-quoted identifier, unquoted. */
        QUOTED_WORD,
        NUMBER,
        STRING,
        /** Punctuation and operators: ( ) [ ] , . ? : :: -> + - * / % || = == != <> < > <= >= */
        SYMBOL,
        END
    }

    record Token(Kind kind, String text, int position) {
        boolean is(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        boolean isWord(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }
    }

    private static final String[] SYMBOLS = {
        "::", "->", "||", "==", "!=", "<>", "<=", ">=", "(", ")", "[", "]", ",", ".", "?", ":", "+",
        "-", "*", "/", "%", "=", "<", ">"
    };

    private Lexer() {}

    static List<Token> tokenize(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (true) {
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i >= n) {
                out.add(new Token(Kind.END, "", n));
                return out;
            }
            char c = text.charAt(i);
            int start = i;
            if (Character.isLetter(c) || c == '_') {
                while (i < n
                        && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, text.substring(start, i), start));
            } else if (Character.isDigit(c)
                    || (c == '.'
                            && i + 1 < n
                            && Character.isDigit(text.charAt(i + 1))
                            && !endsOperand(out))) {
                i = number(text, i);
                out.add(new Token(Kind.NUMBER, text.substring(start, i), start));
            } else if (c == '\'') {
                int[] end = new int[1];
                out.add(new Token(Kind.STRING, quoted(text, i, '\'', end), start));
                i = end[0];
            } else if (c == '`' || c == '"') {
                int[] end = new int[1];
                out.add(new Token(Kind.QUOTED_WORD, quoted(text, i, c, end), start));
                i = end[0];
            } else {
                String symbol = null;
                for (String s : SYMBOLS) {
                    if (text.startsWith(s, i)) {
                        symbol = s;
                        break;
                    }
                }
                if (symbol == null) {
                    throw new ExprParseException("unexpected character '" + c + "' at " + i);
                }
                out.add(new Token(Kind.SYMBOL, symbol, start));
                i += symbol.length();
            }
        }
    }

    /** True after a token that ends an operand: then {@code .1} is tuple access, not 0.1. */
    private static boolean endsOperand(List<Token> tokens) {
        if (tokens.isEmpty()) {
            return false;
        }
        Token t = tokens.get(tokens.size() - 1);
        return t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_WORD || t.is(")") || t.is("]");
    }

    private static int number(String text, int i) {
        int n = text.length();
        if (text.startsWith("0x", i) || text.startsWith("0X", i)) {
            i += 2;
            while (i < n && Character.digit(text.charAt(i), 16) >= 0) {
                i++;
            }
            return i;
        }
        while (i < n && Character.isDigit(text.charAt(i))) {
            i++;
        }
        if (i < n && text.charAt(i) == '.') {
            i++;
            while (i < n && Character.isDigit(text.charAt(i))) {
                i++;
            }
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (text.charAt(j) == '+' || text.charAt(j) == '-')) {
                j++;
            }
            if (j < n && Character.isDigit(text.charAt(j))) {
                i = j;
                while (i < n && Character.isDigit(text.charAt(i))) {
                    i++;
                }
            }
        }
        return i;
    }

    /**
     * A quoted token from {@code text[i]} (the opening quote): backslash escapes as ClickHouse
     * reads them, a doubled quote is one quote. Stores the index after the closing quote in {@code
     * end[0]}.
     */
    private static String quoted(String text, int i, char quote, int[] end) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int n = text.length();
        int p = i + 1;
        while (true) {
            if (p >= n) {
                throw new ExprParseException("unterminated quoted text at " + i);
            }
            char c = text.charAt(p);
            if (c == quote) {
                if (p + 1 < n && text.charAt(p + 1) == quote) {
                    bytes.write(quote);
                    p += 2;
                    continue;
                }
                end[0] = p + 1;
                return utf8(bytes.toByteArray(), i);
            }
            if (c == '\\' && p + 1 < n) {
                char e = text.charAt(p + 1);
                p += 2;
                switch (e) {
                    case 'n' -> bytes.write('\n');
                    case 't' -> bytes.write('\t');
                    case 'r' -> bytes.write('\r');
                    case '0' -> bytes.write(0);
                    case 'b' -> bytes.write('\b');
                    case 'f' -> bytes.write('\f');
                    case 'a' -> bytes.write(7);
                    case 'v' -> bytes.write(11);
                    case 'e' -> bytes.write(27);
                    case 'x' -> {
                        if (p + 1 >= n
                                || Character.digit(text.charAt(p), 16) < 0
                                || Character.digit(text.charAt(p + 1), 16) < 0) {
                            throw new ExprParseException("bad \\x escape at " + (p - 2));
                        }
                        bytes.write(Integer.parseInt(text.substring(p, p + 2), 16));
                        p += 2;
                    }
                    default -> {
                        int cp = text.codePointAt(p - 1);
                        bytes.writeBytes(Character.toString(cp).getBytes(StandardCharsets.UTF_8));
                        p += Character.charCount(cp) - 1;
                    }
                }
                continue;
            }
            int cp = text.codePointAt(p);
            bytes.writeBytes(Character.toString(cp).getBytes(StandardCharsets.UTF_8));
            p += Character.charCount(cp);
        }
    }

    /** Strict UTF-8: a literal holding other bytes is outside what the evaluator reproduces. */
    private static String utf8(byte[] bytes, int at) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ExprParseException("quoted text at " + at + " is not valid UTF-8");
        }
    }
}
