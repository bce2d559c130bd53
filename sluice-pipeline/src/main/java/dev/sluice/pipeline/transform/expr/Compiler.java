package dev.sluice.pipeline.transform.expr;

import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.DateTimes;
import dev.sluice.pipeline.decode.convert.MomentParser;
import dev.sluice.pipeline.decode.json.JsonPath;
import dev.sluice.pipeline.transform.expr.Lexer.Token;
import dev.sluice.pipeline.transform.expr.Lexer.Type;
import dev.sluice.pipeline.transform.expr.Operators.Domain;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compiles the expression language of computed columns and filters into {@link Expr} trees:
 *
 * <pre>
 * expr    := expr or expr | expr and expr | not expr
 *          | sum (= | == | != | &lt;&gt; | &lt; | &lt;= | &gt; | &gt;=) sum
 *          | sum is [not] null | sum [not] in [literal, ...]
 *          | sum
 * sum     := term ((+ | -) term)*          term := unary ((* | / | %) unary)*
 * unary   := - unary | literal | column | function(args) | ( expr )
 * literal := 123 | 1.5 | 'text' | true | false | null
 * column  := name | `any name` | "any name"
 * </pre>
 *
 * Functions: now(), today(), raw(), concat(...), coalesce(...), json(text, '/pointer'),
 * toString(x), toInt64(x), toFloat64(x), toDate(x), toDateTime(x). Types are checked here; a text
 * literal compared with a date, number or time is converted once, here.
 */
public final class Compiler {
    private final String source;
    private final List<Token> tokens;
    private final TargetColumns columns;
    private final Set<String> unavailable;
    private int pos;

    private Compiler(String source, TargetColumns columns, Set<String> unavailable) {
        this.source = source;
        this.tokens = Lexer.tokens(source);
        this.columns = columns;
        this.unavailable = unavailable;
    }

    /**
     * @param unavailable columns the expression may not read (computed by this or a later
     *     transform, so they have no value yet)
     * @throws ExprException when the expression is malformed or mistyped
     */
    public static Expr compile(String source, TargetColumns columns, Set<String> unavailable) {
        Compiler c = new Compiler(source, columns, unavailable);
        Expr e = c.or();
        if (c.peek().type() != Type.END) {
            throw c.error("unexpected " + c.describe(c.peek()));
        }
        return e;
    }

    /** Compiles a filter's condition: a Bool (or an integer, non-zero meaning true). */
    public static Expr compileCondition(
            String source, TargetColumns columns, Set<String> unavailable) {
        Compiler c = new Compiler(source, columns, unavailable);
        Expr e = c.condition(c.or());
        if (c.peek().type() != Type.END) {
            throw c.error("unexpected " + c.describe(c.peek()));
        }
        return e;
    }

    // ---- grammar ----

    private Expr or() {
        Expr l = and();
        while (keyword("or")) {
            l = new Operators.Logic(false, condition(l), condition(and()));
        }
        return l;
    }

    private Expr and() {
        Expr l = not();
        while (keyword("and")) {
            l = new Operators.Logic(true, condition(l), condition(not()));
        }
        return l;
    }

    private Expr not() {
        if (keyword("not")) {
            return new Operators.Not(condition(not()));
        }
        return comparison();
    }

    private Expr comparison() {
        Expr l = sum();
        Token t = peek();
        if (t.type() == Type.OP
                && List.of("=", "==", "!=", "<>", "<", "<=", ">", ">=").contains(t.text())) {
            pos++;
            String op =
                    switch (t.text()) {
                        case "==" -> "=";
                        case "<>" -> "!=";
                        default -> t.text();
                    };
            return compare(op, l, sum(), t);
        }
        if (keyword("is")) {
            boolean negated = keyword("not");
            expectKeyword("null");
            return new Operators.IsNull(l, negated);
        }
        int save = pos;
        boolean negated = keyword("not");
        if (keyword("in")) {
            return in(l, negated);
        }
        pos = save;
        return l;
    }

    private Expr sum() {
        Expr l = term();
        while (peek().is(Type.OP, "+") || peek().is(Type.OP, "-")) {
            Token op = next();
            l = arithmetic(op.text().charAt(0), l, term(), op);
        }
        return l;
    }

    private Expr term() {
        Expr l = unary();
        while (peek().is(Type.OP, "*") || peek().is(Type.OP, "/") || peek().is(Type.OP, "%")) {
            Token op = next();
            l = arithmetic(op.text().charAt(0), l, unary(), op);
        }
        return l;
    }

    private Expr unary() {
        if (peek().is(Type.OP, "-")) {
            Token t = next();
            Expr e = unary();
            if (!e.kind.numeric()) {
                throw error("cannot negate a " + e.kind.sqlName(), t);
            }
            if (e instanceof Literal lit) {
                return e.kind == Kind.FLOAT
                        ? Literal.floating(-lit.asDouble(new EvalContext(null)))
                        : Literal.integral(e.kind, -lit.asLong(new EvalContext(null)));
            }
            return new Operators.Negate(e);
        }
        return primary();
    }

    private Expr primary() {
        Token t = next();
        switch (t.type()) {
            case NUMBER -> {
                return number(t);
            }
            case STRING -> {
                return Literal.string(t.text());
            }
            case KEYWORD -> {
                switch (t.text()) {
                    case "true" -> {
                        return Literal.integral(Kind.BOOL, 1);
                    }
                    case "false" -> {
                        return Literal.integral(Kind.BOOL, 0);
                    }
                    case "null" -> {
                        return Literal.NULL;
                    }
                    default -> throw error("unexpected " + describe(t), t);
                }
            }
            case IDENT -> {
                if (peek().is(Type.OP, "(")) {
                    pos++;
                    return function(t);
                }
                return column(t);
            }
            case OP -> {
                if (t.text().equals("(")) {
                    Expr e = or();
                    expect(")");
                    return e;
                }
                throw error("unexpected " + describe(t), t);
            }
            default -> throw error("the expression ends too early", t);
        }
    }

    private Expr number(Token t) {
        String s = t.text();
        try {
            if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
                return Literal.integral(Kind.INT, Long.parseLong(s));
            }
            return Literal.floating(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            throw error("'" + s + "' is not a number", t);
        }
    }

    private Expr column(Token t) {
        String name = t.text();
        int i = columns.indexOf(name);
        if (i < 0) {
            throw error(
                    "unknown column "
                            + name
                            + " (this pipeline writes "
                            + String.join(
                                    ", ", columns.columns().stream().map(c -> c.name()).toList())
                            + ")",
                    t);
        }
        if (unavailable.contains(name)) {
            throw error("column " + name + " is computed by this or a later transform", t);
        }
        try {
            return ColumnRef.of(i, name, columns.columns().get(i).type());
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage(), t);
        }
    }

    private Expr function(Token name) {
        List<Expr> args = new ArrayList<>();
        List<Token> at = new ArrayList<>();
        if (!peek().is(Type.OP, ")")) {
            do {
                at.add(peek());
                args.add(or());
            } while (accept(","));
        }
        expect(")");
        String f = name.text().toLowerCase(Locale.ROOT);
        switch (f) {
            case "now" -> {
                arity(name, args, 0);
                return new Functions.Now();
            }
            case "today" -> {
                arity(name, args, 0);
                return new Functions.Today();
            }
            case "raw" -> {
                arity(name, args, 0);
                return new Functions.Raw();
            }
            case "concat" -> {
                if (args.isEmpty()) {
                    throw error("concat() needs at least one argument", name);
                }
                return new Functions.Concat(args);
            }
            case "coalesce" -> {
                return coalesce(name, args);
            }
            case "json" -> {
                arity(name, args, 2);
                if (args.get(0).kind != Kind.STRING) {
                    throw error(
                            "json() reads a String, not a " + args.get(0).kind.sqlName(),
                            at.get(0));
                }
                if (!(args.get(1) instanceof Literal p) || p.kind != Kind.STRING) {
                    throw error("json()'s second argument must be a pointer in quotes", at.get(1));
                }
                String pointer = new String(p.bytes(), StandardCharsets.UTF_8);
                try {
                    return new Functions.Json(args.get(0), JsonPath.parse(pointer));
                } catch (IllegalArgumentException e) {
                    throw error(e.getMessage(), at.get(1));
                }
            }
            case "tostring" -> {
                arity(name, args, 1);
                return new Functions.ToString(args.get(0));
            }
            case "toint64" -> {
                arity(name, args, 1);
                return new Functions.ToInt(args.get(0));
            }
            case "tofloat64" -> {
                arity(name, args, 1);
                return new Functions.ToFloat(args.get(0));
            }
            case "todate" -> {
                arity(name, args, 1);
                return new Functions.ToTime(Kind.DATE, args.get(0));
            }
            case "todatetime" -> {
                arity(name, args, 1);
                return new Functions.ToTime(Kind.DATETIME, args.get(0));
            }
            default ->
                    throw error(
                            "unknown function "
                                    + name.text()
                                    + " (known: now, today, raw, concat, coalesce, json, toString,"
                                    + " toInt64, toFloat64, toDate, toDateTime)",
                            name);
        }
    }

    private Expr coalesce(Token name, List<Expr> args) {
        Kind kind = null;
        List<Expr> kept = new ArrayList<>();
        for (Expr a : args) {
            if (a.kind == Kind.NULL) {
                continue;
            }
            if (kind != null && a.kind != kind) {
                throw error(
                        "coalesce() arguments must have one type, not "
                                + kind.sqlName()
                                + " and "
                                + a.kind.sqlName(),
                        name);
            }
            kind = a.kind;
            kept.add(a);
        }
        return kind == null ? Literal.NULL : new Functions.Coalesce(kind, kept);
    }

    private void arity(Token name, List<Expr> args, int n) {
        if (args.size() != n) {
            throw error(name.text() + "() takes " + n + " argument" + (n == 1 ? "" : "s"), name);
        }
    }

    // ---- typing ----

    private Expr condition(Expr e) {
        if (e.kind == Kind.BOOL || e.kind == Kind.INT || e.kind == Kind.NULL) {
            return e;
        }
        throw error(e + " is a " + e.kind.sqlName() + ", not a condition");
    }

    private Expr arithmetic(char op, Expr l, Expr r, Token at) {
        if (!l.kind.numeric() || !r.kind.numeric()) {
            if (l.kind == Kind.NULL || r.kind == Kind.NULL) {
                return Literal.NULL;
            }
            throw error(
                    "cannot apply "
                            + op
                            + " to "
                            + l.kind.sqlName()
                            + " and "
                            + r.kind.sqlName()
                            + (l.kind == Kind.STRING || r.kind == Kind.STRING
                                    ? " (concat() joins strings)"
                                    : ""),
                    at);
        }
        if (op == '/' || l.kind == Kind.FLOAT || r.kind == Kind.FLOAT) {
            return new Operators.FloatArithmetic(op, l, r);
        }
        boolean lt = l.kind == Kind.DATE || l.kind == Kind.DATETIME;
        boolean rt = r.kind == Kind.DATE || r.kind == Kind.DATETIME;
        Kind kind;
        if (!lt && !rt) {
            kind = Kind.INT;
        } else if (lt && rt && op == '-' && l.kind == r.kind) {
            kind = Kind.INT; // a difference of days or seconds
        } else if (lt && !rt && (op == '+' || op == '-')) {
            kind = l.kind;
        } else if (rt && !lt && op == '+') {
            kind = r.kind;
        } else {
            throw error(
                    "cannot apply " + op + " to " + l.kind.sqlName() + " and " + r.kind.sqlName(),
                    at);
        }
        return new Operators.IntArithmetic(kind, op, l, r);
    }

    private Expr compare(String op, Expr l, Expr r, Token at) {
        if (l.kind == Kind.NULL || r.kind == Kind.NULL) {
            return Literal.NULL; // x = NULL is never true: "is null" tests for NULL
        }
        l = coerce(l, r.kind, at);
        r = coerce(r, l.kind, at);
        return new Operators.Compare(op, domain(l.kind, r.kind, at), l, r);
    }

    private Domain domain(Kind a, Kind b, Token at) {
        if (a == Kind.STRING && b == Kind.STRING) {
            return Domain.BYTES;
        }
        if (a.numeric() && b.numeric()) {
            if ((a == Kind.DATE && b == Kind.DATETIME) || (a == Kind.DATETIME && b == Kind.DATE)) {
                throw error("compare a Date with toDate(...) of the DateTime", at);
            }
            return a == Kind.FLOAT || b == Kind.FLOAT ? Domain.DOUBLE : Domain.LONG;
        }
        throw error("cannot compare " + a.sqlName() + " with " + b.sqlName(), at);
    }

    /** A text literal next to a number, date or time becomes one. */
    private Expr coerce(Expr e, Kind other, Token at) {
        if (!(e instanceof Literal lit) || e.kind != Kind.STRING || other == Kind.STRING) {
            return e;
        }
        byte[] b = lit.bytes();
        String text = new String(b, StandardCharsets.UTF_8);
        try {
            switch (other) {
                case DATE -> {
                    MomentParser p = new MomentParser(null);
                    p.parse(b, 0, b.length, "Date");
                    return Literal.integral(
                            Kind.DATE, Math.floorDiv(p.seconds(), DateTimes.SECONDS_PER_DAY));
                }
                case DATETIME -> {
                    MomentParser p = new MomentParser(null);
                    p.parse(b, 0, b.length, "DateTime");
                    return Literal.integral(Kind.DATETIME, p.seconds());
                }
                case INT, BOOL -> {
                    return Literal.integral(other, Long.parseLong(text.trim()));
                }
                case FLOAT -> {
                    return Literal.floating(Double.parseDouble(text.trim()));
                }
                default -> {
                    return e;
                }
            }
        } catch (ConversionException | NumberFormatException ex) {
            throw error("'" + text + "' is not a " + other.sqlName(), at);
        }
    }

    private Expr in(Expr l, boolean negated) {
        Token open = peek();
        if (!accept("[") && !accept("(")) {
            throw error("expected a list in [ ] after 'in'", open);
        }
        String close = open.text().equals("[") ? "]" : ")";
        List<Expr> items = new ArrayList<>();
        if (!accept(close)) {
            do {
                Token t = peek();
                Expr item = unary();
                if (!(item instanceof Literal)) {
                    throw error("a list after 'in' holds literals only", t);
                }
                if (item.kind != Kind.NULL) {
                    items.add(coerce(item, l.kind, t));
                }
            } while (accept(","));
            expect(close);
        }
        EvalContext k = new EvalContext(null);
        Domain d = items.isEmpty() ? Domain.LONG : l.kind == Kind.STRING ? Domain.BYTES : null;
        for (Expr i : items) {
            Domain di = domain(l.kind, i.kind, open);
            d = d == null || d == di ? di : Domain.DOUBLE;
        }
        long[] longs = new long[items.size()];
        double[] doubles = new double[items.size()];
        Slice[] strings = new Slice[items.size()];
        for (int i = 0; i < items.size(); i++) {
            Expr item = items.get(i);
            if (d == Domain.BYTES) {
                strings[i] = new Slice();
                byte[] b = ((Literal) item).bytes();
                strings[i].set(b, 0, b.length);
            } else {
                longs[i] = item.asLong(k);
                doubles[i] = item.asDouble(k);
            }
        }
        return new Operators.In(l, d, longs, doubles, strings, negated);
    }

    // ---- tokens ----

    private Token peek() {
        return tokens.get(pos);
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.type() != Type.END) {
            pos++;
        }
        return t;
    }

    private boolean accept(String op) {
        if (peek().is(Type.OP, op)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(String op) {
        if (!accept(op)) {
            throw error("expected '" + op + "' but found " + describe(peek()));
        }
    }

    private boolean keyword(String k) {
        if (peek().is(Type.KEYWORD, k)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String k) {
        if (!keyword(k)) {
            throw error("expected '" + k + "' but found " + describe(peek()));
        }
    }

    private String describe(Token t) {
        return t.type() == Type.END ? "the end" : "'" + t.text() + "'";
    }

    private ExprException error(String problem) {
        return error(problem, peek());
    }

    private ExprException error(String problem, Token at) {
        return new ExprException(problem, source, at.at());
    }
}
