package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.expr.Expr.Call;
import dev.sluice.clickhouse.expr.Expr.Identifier;
import dev.sluice.clickhouse.expr.Expr.Literal;
import dev.sluice.clickhouse.expr.Lexer.Kind;
import dev.sluice.clickhouse.expr.Lexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the ClickHouse SQL expressions found in table metadata: DEFAULT expressions in {@code
 * system.columns} and the TableColumns packet, sorting and partition keys in {@code system.tables},
 * and the engine clause of a CREATE statement.
 *
 * <p>Supported: identifiers (bare, back-quoted, double-quoted, dotted Nested names), literals
 * (NULL, integers typed by value as the server does, floats including {@code inf} and {@code nan},
 * strings with backslash escapes), function calls, tuples, arrays, {@code CAST(x AS T)}, {@code
 * CAST(x, 'T')}, {@code x::T}, unary minus, {@code * / % + - ||}, comparisons, {@code LIKE}, {@code
 * IN}, {@code IS [NOT] NULL}, {@code BETWEEN}, {@code NOT AND OR}, {@code ?:}, {@code x[i]}, {@code
 * x.N}, {@code INTERVAL n UNIT} and lambdas. Operators become the server's function names (see
 * {@link Expr}). {@code CASE} and subqueries are parse errors.
 */
public final class ExprParser {
    private final List<Token> tokens;
    private int pos;

    private ExprParser(String text) {
        this.tokens = Lexer.tokenize(text);
    }

    /** Parses {@code text}, which must be exactly one expression. */
    public static Expr parse(String text) {
        ExprParser p = new ExprParser(text);
        Expr e = p.expression();
        p.expectEnd();
        return e;
    }

    /**
     * Parses a comma-separated list, as {@code system.tables} prints a sorting key ({@code a,
     * toDate(ts)}); an empty text is an empty list.
     */
    public static List<Expr> parseList(String text) {
        ExprParser p = new ExprParser(text);
        List<Expr> out = new ArrayList<>();
        if (p.peek().kind() == Kind.END) {
            return out;
        }
        out.add(p.expression());
        while (p.peek().is(",")) {
            p.pos++;
            out.add(p.expression());
        }
        p.expectEnd();
        return out;
    }

    /**
     * The expression following the clause keywords (e.g. {@code ORDER BY}) at the top level of an
     * engine clause such as {@code MergeTree PARTITION BY toYYYYMM(d) ORDER BY (a, b) SETTINGS
     * ...}; null when the clause is absent.
     */
    public static Expr clause(String engineClause, String... keywords) {
        ExprParser p = new ExprParser(engineClause);
        int depth = 0;
        for (int i = 0; i < p.tokens.size(); i++) {
            Token t = p.tokens.get(i);
            if (t.is("(") || t.is("[")) {
                depth++;
            } else if (t.is(")") || t.is("]")) {
                depth--;
            } else if (depth == 0 && matches(p.tokens, i, keywords)) {
                p.pos = i + keywords.length;
                return p.expression();
            }
        }
        return null;
    }

    /**
     * The arguments of the engine in an engine clause ({@code MergeTree(d, (a, b), 8192)} gives
     * three); empty when the engine has no parentheses.
     */
    public static List<Expr> engineArguments(String engineClause) {
        ExprParser p = new ExprParser(engineClause);
        List<Expr> out = new ArrayList<>();
        if (p.peek().kind() != Kind.WORD) {
            return out;
        }
        p.pos++;
        if (!p.peek().is("(")) {
            return out;
        }
        p.pos++;
        if (p.peek().is(")")) {
            return out;
        }
        out.add(p.expression());
        while (p.peek().is(",")) {
            p.pos++;
            out.add(p.expression());
        }
        p.expect(")");
        return out;
    }

    private static boolean matches(List<Token> tokens, int i, String[] keywords) {
        for (int k = 0; k < keywords.length; k++) {
            if (i + k >= tokens.size() || !tokens.get(i + k).isWord(keywords[k])) {
                return false;
            }
        }
        return true;
    }

    // ---- Grammar, lowest precedence first ----

    private Expr expression() {
        Expr left = ternary();
        if (peek().is("->")) {
            pos++;
            Expr body = expression();
            Expr params =
                    left instanceof Call c && c.function().equals("tuple") ? left : tuple(left);
            return new Call("lambda", List.of(params, body));
        }
        return left;
    }

    private static Expr tuple(Expr e) {
        return new Call("tuple", List.of(e));
    }

    private Expr ternary() {
        Expr cond = or();
        if (peek().is("?")) {
            pos++;
            Expr then = expression();
            expect(":");
            Expr otherwise = expression();
            return new Call("if", List.of(cond, then, otherwise));
        }
        return cond;
    }

    private Expr or() {
        Expr e = and();
        if (!peek().isWord("OR")) {
            return e;
        }
        List<Expr> args = new ArrayList<>(List.of(e));
        while (peek().isWord("OR")) {
            pos++;
            args.add(and());
        }
        return new Call("or", args);
    }

    private Expr and() {
        Expr e = not();
        if (!peek().isWord("AND")) {
            return e;
        }
        List<Expr> args = new ArrayList<>(List.of(e));
        while (peek().isWord("AND")) {
            pos++;
            args.add(not());
        }
        return new Call("and", args);
    }

    private Expr not() {
        // As the server's parser: an even run of NOTs cancels out (NOT NOT x is x).
        int nots = 0;
        while (peek().isWord("NOT")) {
            pos++;
            nots++;
        }
        Expr e = nullCheck();
        return nots % 2 == 0 ? e : new Call("not", List.of(e));
    }

    private Expr nullCheck() {
        Expr e = comparison();
        if (peek().isWord("IS")) {
            pos++;
            boolean negated = false;
            if (peek().isWord("NOT")) {
                pos++;
                negated = true;
            }
            expectWord("NULL");
            return new Call(negated ? "isNotNull" : "isNull", List.of(e));
        }
        return e;
    }

    private Expr comparison() {
        Expr left = between();
        Token t = peek();
        String function = null;
        int width = 1;
        if (t.kind() == Kind.SYMBOL) {
            function =
                    switch (t.text()) {
                        case "=", "==" -> "equals";
                        case "!=", "<>" -> "notEquals";
                        case "<" -> "less";
                        case ">" -> "greater";
                        case "<=" -> "lessOrEquals";
                        case ">=" -> "greaterOrEquals";
                        default -> null;
                    };
        } else if (t.isWord("LIKE")) {
            function = "like";
        } else if (t.isWord("ILIKE")) {
            function = "ilike";
        } else if (t.isWord("IN")) {
            function = "in";
        } else if (t.isWord("NOT") && at(1).isWord("LIKE")) {
            function = "notLike";
            width = 2;
        } else if (t.isWord("NOT") && at(1).isWord("IN")) {
            function = "notIn";
            width = 2;
        } else if (t.isWord("GLOBAL") && at(1).isWord("IN")) {
            function = "globalIn";
            width = 2;
        } else if (t.isWord("GLOBAL") && at(1).isWord("NOT") && at(2).isWord("IN")) {
            function = "globalNotIn";
            width = 3;
        }
        if (function == null) {
            return left;
        }
        pos += width;
        return new Call(function, List.of(left, between()));
    }

    private Expr between() {
        Expr e = concat();
        if (peek().isWord("BETWEEN")) {
            pos++;
            Expr low = concat();
            expectWord("AND");
            Expr high = concat();
            return new Call(
                    "and",
                    List.of(
                            new Call("greaterOrEquals", List.of(e, low)),
                            new Call("lessOrEquals", List.of(e, high))));
        }
        return e;
    }

    private Expr concat() {
        Expr e = additive();
        if (!peek().is("||")) {
            return e;
        }
        List<Expr> args = new ArrayList<>(List.of(e));
        while (peek().is("||")) {
            pos++;
            args.add(additive());
        }
        return new Call("concat", args);
    }

    private Expr additive() {
        Expr e = multiplicative();
        while (peek().is("+") || peek().is("-")) {
            String f = next().text().equals("+") ? "plus" : "minus";
            e = new Call(f, List.of(e, multiplicative()));
        }
        return e;
    }

    private Expr multiplicative() {
        Expr e = unary();
        while (peek().is("*") || peek().is("/") || peek().is("%")) {
            String f =
                    switch (next().text()) {
                        case "*" -> "multiply";
                        case "/" -> "divide";
                        default -> "modulo";
                    };
            e = new Call(f, List.of(e, unary()));
        }
        return e;
    }

    private Expr unary() {
        if (peek().is("-")) {
            pos++;
            Expr operand = unary();
            // The server folds a minus into the number it precedes: -5 is an Int8 literal.
            if (operand instanceof Literal l) {
                if (l.kind() == Expr.LiteralKind.UNSIGNED
                        && Long.compareUnsigned(l.bits(), Long.MIN_VALUE) <= 0) {
                    return Literal.ofInteger(-l.bits());
                }
                if (l.kind() == Expr.LiteralKind.UNSIGNED) {
                    return Literal.ofFloat(-unsignedToDouble(l.bits()));
                }
                if (l.kind() == Expr.LiteralKind.FLOAT) {
                    return Literal.ofFloat(-l.number());
                }
            }
            return new Call("negate", List.of(operand));
        }
        return postfix();
    }

    private Expr postfix() {
        Expr e = primary();
        while (true) {
            if (peek().is("[")) {
                pos++;
                Expr index = expression();
                expect("]");
                e = new Call("arrayElement", List.of(e, index));
            } else if (peek().is("::")) {
                pos++;
                e = new Call("CAST", List.of(e, Literal.ofString(typeName())));
            } else if (peek().is(".") && at(1).kind() == Kind.NUMBER) {
                pos++;
                e = new Call("tupleElement", List.of(e, number(next())));
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = next();
        switch (t.kind()) {
            case NUMBER -> {
                return number(t);
            }
            case STRING -> {
                return Literal.ofString(t.text());
            }
            case QUOTED_WORD -> {
                return identifierOrCall(t.text(), false);
            }
            case WORD -> {
                return word(t);
            }
            case SYMBOL -> {
                if (t.is("(")) {
                    List<Expr> items = list(")");
                    return items.size() == 1 ? items.get(0) : new Call("tuple", items);
                }
                if (t.is("[")) {
                    return new Call("array", list("]"));
                }
                throw unexpected(t);
            }
            default -> throw unexpected(t);
        }
    }

    private Expr word(Token t) {
        String w = t.text();
        switch (w.toUpperCase(Locale.ROOT)) {
            case "NULL" -> {
                return Literal.NULL;
            }
            case "NAN" -> {
                return Literal.ofFloat(Double.NaN);
            }
            case "INF", "INFINITY" -> {
                return Literal.ofFloat(Double.POSITIVE_INFINITY);
            }
            case "CAST" -> {
                if (peek().is("(")) {
                    return cast();
                }
            }
            case "INTERVAL" -> {
                Expr n = concat();
                Token unit = next();
                if (unit.kind() != Kind.WORD) {
                    throw unexpected(unit);
                }
                String u = unit.text().toLowerCase(Locale.ROOT);
                return new Call(
                        "toInterval" + Character.toUpperCase(u.charAt(0)) + u.substring(1),
                        List.of(n));
            }
            case "CASE", "SELECT", "WITH" ->
                    throw new ExprParseException(
                            w + " at " + t.position() + " is not supported in this parser");
            default -> {}
        }
        return identifierOrCall(w, true);
    }

    private Expr identifierOrCall(String name, boolean bare) {
        if (bare && peek().is("(")) {
            pos++;
            List<Expr> args = list(")");
            if (peek().is("(")) {
                // Parametric function such as quantile(0.5)(x): outside what we evaluate.
                throw new ExprParseException("parametric function " + name + " is not supported");
            }
            return new Call(name, args);
        }
        StringBuilder full = new StringBuilder(name);
        // Nested columns are named `n.x`: a dotted identifier is one name.
        while (peek().is(".") && (at(1).kind() == Kind.WORD || at(1).kind() == Kind.QUOTED_WORD)) {
            pos++;
            full.append('.').append(next().text());
        }
        return new Identifier(full.toString());
    }

    private Expr cast() {
        expect("(");
        Expr value = expression();
        String type;
        if (peek().isWord("AS")) {
            pos++;
            type = typeName();
        } else {
            expect(",");
            Token t = next();
            if (t.kind() != Kind.STRING) {
                throw unexpected(t);
            }
            type = t.text();
        }
        expect(")");
        return new Call("CAST", List.of(value, Literal.ofString(type)));
    }

    /** A type name as raw text up to the next top-level {@code )} or {@code ,}. */
    private String typeName() {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        while (true) {
            Token t = peek();
            if (t.kind() == Kind.END || (depth == 0 && (t.is(")") || t.is(",") || t.is("]")))) {
                break;
            }
            if (t.is("(")) {
                depth++;
            } else if (t.is(")")) {
                depth--;
            }
            pos++;
            switch (t.kind()) {
                case STRING -> sb.append(quoteString(t.text()));
                case QUOTED_WORD -> sb.append(quoteIdentifier(t.text()));
                default -> {
                    if (t.is(",")) {
                        sb.append(", ");
                    } else {
                        if (!sb.isEmpty()
                                && t.kind() == Kind.WORD
                                && Character.isLetterOrDigit(sb.charAt(sb.length() - 1))) {
                            sb.append(' ');
                        }
                        sb.append(t.text());
                    }
                }
            }
        }
        if (sb.isEmpty()) {
            throw unexpected(peek());
        }
        return sb.toString();
    }

    private List<Expr> list(String close) {
        List<Expr> items = new ArrayList<>();
        if (peek().is(close)) {
            pos++;
            return items;
        }
        items.add(expression());
        while (peek().is(",")) {
            pos++;
            items.add(expression());
        }
        expect(close);
        return items;
    }

    private static Literal number(Token t) {
        String s = t.text();
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Literal.ofUnsigned(Long.parseUnsignedLong(s.substring(2), 16));
            }
            if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
                try {
                    return Literal.ofUnsigned(Long.parseUnsignedLong(s));
                } catch (NumberFormatException tooLarge) {
                    return Literal.ofFloat(Double.parseDouble(s)); // beyond UInt64: Float64
                }
            }
            return Literal.ofFloat(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            throw new ExprParseException("bad number " + s + " at " + t.position());
        }
    }

    static double unsignedToDouble(long bits) {
        if (bits >= 0) {
            return bits;
        }
        // Halve with the lost bit kept sticky, so rounding to nearest is not done twice.
        return ((double) ((bits >>> 1) | (bits & 1))) * 2.0;
    }

    // ---- Token helpers ----

    private Token peek() {
        return tokens.get(pos);
    }

    private Token at(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Kind.END) {
            pos++;
        }
        return t;
    }

    private void expect(String symbol) {
        Token t = next();
        if (!t.is(symbol)) {
            throw new ExprParseException(
                    "expected '" + symbol + "' at " + t.position() + ", found " + describe(t));
        }
    }

    private void expectWord(String keyword) {
        Token t = next();
        if (!t.isWord(keyword)) {
            throw new ExprParseException(
                    "expected " + keyword + " at " + t.position() + ", found " + describe(t));
        }
    }

    private void expectEnd() {
        Token t = peek();
        if (t.kind() != Kind.END) {
            throw new ExprParseException("unexpected " + describe(t) + " at " + t.position());
        }
    }

    private static ExprParseException unexpected(Token t) {
        return new ExprParseException("unexpected " + describe(t) + " at " + t.position());
    }

    private static String describe(Token t) {
        return t.kind() == Kind.END ? "end of text" : "'" + t.text() + "'";
    }

    // ---- Printing ----

    /** {@code name}, back-quoted when it is not a plain (possibly dotted Nested) identifier. */
    public static String quoteIdentifier(String name) {
        boolean plain =
                !name.isEmpty()
                        && !Character.isDigit(name.charAt(0))
                        && name.charAt(0) != '.'
                        && !name.endsWith(".");
        for (int i = 0; i < name.length() && plain; i++) {
            char c = name.charAt(i);
            plain = (c < 0x80 && Character.isLetterOrDigit(c)) || c == '_' || c == '.';
        }
        return plain ? name : "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** A SQL string literal with the server's escapes. */
    public static String quoteString(String s) {
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'' -> sb.append("\\'");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        return sb.append('\'').toString();
    }
}
