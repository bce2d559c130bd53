package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.expr.Expr.Call;
import dev.sluice.clickhouse.expr.Expr.Identifier;
import dev.sluice.clickhouse.expr.Expr.Literal;
import dev.sluice.clickhouse.expr.ValueType.Kind;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Types an {@link Expr} the way the server does and builds the nodes that compute it. Anything
 * outside the supported set is an {@link UnsupportedExpressionException} naming the part.
 */
final class Compiler {
    private final Bindings bindings;
    private final DateLut serverLut;
    private final Deque<String> aliasesInProgress = new ArrayDeque<>();
    final Set<String> columns = new LinkedHashSet<>();
    boolean usesClock;
    boolean usesRaw;

    Compiler(Bindings bindings) {
        this.bindings = bindings;
        this.serverLut = DateLut.of(bindings.serverZone());
    }

    Node compile(Expr e) throws UnsupportedExpressionException {
        return switch (e) {
            case Identifier id -> identifier(id.name());
            case Literal l -> literal(l);
            case Call c -> call(c);
        };
    }

    /** {@code e} converted to {@code target} as an implicit CAST would. */
    Node compileAs(Expr e, ClickHouseType target) throws UnsupportedExpressionException {
        Node n = compile(e);
        ValueType t = valueType(target, "the target type");
        return sameType(n.type, t) ? n : convert(n, t, "CAST to " + target.typeName());
    }

    // ---- Leaves ----

    private Node identifier(String name) throws UnsupportedExpressionException {
        Expr alias = bindings.alias(name);
        if (alias != null) {
            if (aliasesInProgress.contains(name)) {
                throw new UnsupportedExpressionException(
                        "column " + name + " is defined in terms of itself");
            }
            aliasesInProgress.push(name);
            try {
                ClickHouseType type = bindings.columnType(name);
                return type == null ? compile(alias) : compileAs(alias, type);
            } finally {
                aliasesInProgress.pop();
            }
        }
        ClickHouseType type = bindings.columnType(name);
        if (type == null) {
            throw new UnsupportedExpressionException("unknown column " + name);
        }
        columns.add(name);
        ClickHouseType base = type;
        boolean nullable = false;
        if (base instanceof LowCardinalityType lc) {
            base = lc.inner();
        }
        if (base instanceof NullableType nt) {
            base = nt.inner();
            nullable = true;
        }
        ValueType vt = columnValueType(base, name).withNullable(nullable);
        return new ColumnRef(name, vt, signedStorage(base));
    }

    private ValueType columnValueType(ClickHouseType t, String name)
            throws UnsupportedExpressionException {
        return switch (t) {
            case DecimalType d when d.byteWidth() <= 8 ->
                    new ValueType(Kind.ORDERED, d.byteWidth() * 8, true, null, d, false);
            case EnumType en -> new ValueType(Kind.ORDERED, en.bits(), true, null, en, false);
            case DateTime64Type d -> new ValueType(Kind.ORDERED, 64, true, null, d, false);
            case SimpleType s when s == SimpleType.DATE32 ->
                    new ValueType(Kind.ORDERED, 32, true, null, s, false);
            case SimpleType s when s == SimpleType.IPV4 || s == SimpleType.BOOL ->
                    new ValueType(Kind.ORDERED, s.byteWidth() * 8, false, null, s, false);
            default -> valueType(t, "column " + name);
        };
    }

    private static boolean signedStorage(ClickHouseType t) {
        return switch (t) {
            case SimpleType s -> s.isSignedInteger() || s == SimpleType.DATE32;
            case DecimalType d -> true;
            case EnumType e -> true;
            case DateTime64Type d -> true;
            default -> false;
        };
    }

    /** The value type of a type the functions take (not Decimal, Enum and friends). */
    ValueType valueType(ClickHouseType t, String what) throws UnsupportedExpressionException {
        return switch (t) {
            case NullableType n -> valueType(n.inner(), what).withNullable(true);
            case LowCardinalityType lc -> valueType(lc.inner(), what);
            case DateTimeType d -> ValueType.dateTime(zone(d.timezone()), d.timezone());
            case FixedStringType f ->
                    new ValueType(Kind.FIXED_STRING, f.length() * 8, false, null, f, false);
            case EnumType en -> new ValueType(Kind.ORDERED, en.bits(), true, null, en, false);
            case SimpleType s -> simple(s, what);
            default ->
                    throw new UnsupportedExpressionException(
                            what + " has type " + t.typeName() + ", which is not supported");
        };
    }

    private static ValueType simple(SimpleType s, String what)
            throws UnsupportedExpressionException {
        return switch (s) {
            case INT8, INT16, INT32, INT64 -> ValueType.integer(s.byteWidth() * 8, true);
            case UINT8, UINT16, UINT32, UINT64 -> ValueType.integer(s.byteWidth() * 8, false);
            case FLOAT32 -> ValueType.FLOAT32;
            case FLOAT64 -> ValueType.FLOAT64;
            case STRING -> ValueType.STRING;
            case DATE -> ValueType.DATE;
            case NOTHING -> ValueType.NULL;
            default ->
                    throw new UnsupportedExpressionException(
                            what + " has type " + s.typeName() + ", which is not supported");
        };
    }

    private ZoneId zone(String name) throws UnsupportedExpressionException {
        if (name == null) {
            return bindings.serverZone();
        }
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new UnsupportedExpressionException("unknown time zone " + name);
        }
    }

    private static Node literal(Literal l) {
        return switch (l.kind()) {
            case NULL -> ConstNode.ofNull();
            case UNSIGNED -> {
                long v = l.bits();
                int bits =
                        v >= 0 && v <= 0xFF
                                ? 8
                                : v >= 0 && v <= 0xFFFF
                                        ? 16
                                        : v >= 0 && v <= 0xFFFF_FFFFL ? 32 : 64;
                yield ConstNode.ofLong(ValueType.integer(bits, false), v);
            }
            case SIGNED -> {
                long v = l.bits();
                int bits =
                        v >= Byte.MIN_VALUE
                                ? 8
                                : v >= Short.MIN_VALUE ? 16 : v >= Integer.MIN_VALUE ? 32 : 64;
                yield ConstNode.ofLong(ValueType.integer(bits, true), v);
            }
            case FLOAT -> ConstNode.ofDouble(ValueType.FLOAT64, l.number());
            case STRING -> ConstNode.ofString(l.text());
        };
    }

    // ---- Calls ----

    private Node call(Call c) throws UnsupportedExpressionException {
        String f = c.function();
        List<Expr> args = c.args();
        String lower = f.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "plus" -> {
                return arithmetic(ArithmeticNode.Op.PLUS, c);
            }
            case "minus" -> {
                return arithmetic(ArithmeticNode.Op.MINUS, c);
            }
            case "multiply" -> {
                return arithmetic(ArithmeticNode.Op.MULTIPLY, c);
            }
            case "divide" -> {
                return arithmetic(ArithmeticNode.Op.DIVIDE, c);
            }
            case "intdiv" -> {
                return arithmetic(ArithmeticNode.Op.INT_DIV, c);
            }
            case "modulo" -> {
                return arithmetic(ArithmeticNode.Op.MODULO, c);
            }
            case "negate" -> {
                return negate(c);
            }
            case "lower", "lcase" -> {
                return string(c, StringNode.Fn.LOWER, ValueType.STRING);
            }
            case "upper", "ucase" -> {
                return string(c, StringNode.Fn.UPPER, ValueType.STRING);
            }
            case "length" -> {
                return string(c, StringNode.Fn.LENGTH, ValueType.UINT64);
            }
            case "lengthutf8" -> {
                return string(c, StringNode.Fn.LENGTH_UTF8, ValueType.UINT64);
            }
            case "empty" -> {
                return string(c, StringNode.Fn.EMPTY, ValueType.UINT8);
            }
            case "notempty" -> {
                return string(c, StringNode.Fn.NOT_EMPTY, ValueType.UINT8);
            }
            case "substring", "substr", "mid" -> {
                return substring(c);
            }
            case "concat" -> {
                return concat(c);
            }
            case "tostring" -> {
                arity(c, 1, 1);
                return convert(compile(args.get(0)), ValueType.STRING, f);
            }
            case "cast" -> {
                return cast(c);
            }
            case "now" -> {
                arity(c, 0, 0);
                usesClock = true;
                return new ClockNode(
                        false, ValueType.dateTime(bindings.serverZone(), null), serverLut);
            }
            case "today" -> {
                arity(c, 0, 0);
                usesClock = true;
                return new ClockNode(true, ValueType.DATE, serverLut);
            }
            case "inthash32" -> {
                return hash(c, HashNode.Fn.INT_HASH32, ValueType.UINT32);
            }
            case "inthash64" -> {
                return hash(c, HashNode.Fn.INT_HASH64, ValueType.UINT64);
            }
            case "cityhash64" -> {
                return hash(c, HashNode.Fn.CITY_HASH64, ValueType.UINT64);
            }
            case "todate" -> {
                return toDate(c);
            }
            case "todatetime" -> {
                return toDateTime(c);
            }
            case "equals" -> {
                return compare(c, CompareNode.Op.EQUALS);
            }
            case "notequals" -> {
                return compare(c, CompareNode.Op.NOT_EQUALS);
            }
            case "less" -> {
                return compare(c, CompareNode.Op.LESS);
            }
            case "greater" -> {
                return compare(c, CompareNode.Op.GREATER);
            }
            case "lessorequals" -> {
                return compare(c, CompareNode.Op.LESS_OR_EQUALS);
            }
            case "greaterorequals" -> {
                return compare(c, CompareNode.Op.GREATER_OR_EQUALS);
            }
            case "and" -> {
                return logic(c, LogicNode.Op.AND);
            }
            case "or" -> {
                return logic(c, LogicNode.Op.OR);
            }
            case "xor" -> {
                return logic(c, LogicNode.Op.XOR);
            }
            case "not" -> {
                return logic(c, LogicNode.Op.NOT);
            }
            case "in" -> {
                return in(c, false);
            }
            case "notin" -> {
                return in(c, true);
            }
            case "isnull", "isnotnull" -> {
                arity(c, 1, 1);
                Node a = compile(args.get(0));
                return new NullCheckNode(a, lower.equals("isnotnull"));
            }
            case "if" -> {
                arity(c, 3, 3);
                return conditional(c, true);
            }
            case "multiif" -> {
                if (args.size() < 3 || args.size() % 2 == 0) {
                    throw new UnsupportedExpressionException(
                            "multiIf needs an odd number of arguments, at least 3");
                }
                return conditional(c, false);
            }
            case "coalesce", "ifnull" -> {
                if (lower.equals("ifnull")) {
                    arity(c, 2, 2);
                } else if (args.isEmpty()) {
                    throw new UnsupportedExpressionException("coalesce needs arguments");
                }
                return coalesce(c);
            }
            case "raw" -> {
                arity(c, 0, 0);
                if (!bindings.hasRawRecord()) {
                    throw new UnsupportedExpressionException(
                            "raw() is not available here (it reads the record a row came from)");
                }
                usesRaw = true;
                return new RawNode();
            }
            case "visitparamhas" -> {
                return jsonParam(c, JsonParamNode.Fn.HAS, ValueType.UINT8);
            }
            case "visitparamextractuint" -> {
                return jsonParam(c, JsonParamNode.Fn.UINT, ValueType.UINT64);
            }
            case "visitparamextractint" -> {
                return jsonParam(c, JsonParamNode.Fn.INT, ValueType.integer(64, true));
            }
            case "visitparamextractfloat" -> {
                return jsonParam(c, JsonParamNode.Fn.FLOAT, ValueType.FLOAT64);
            }
            case "visitparamextractbool" -> {
                return jsonParam(c, JsonParamNode.Fn.BOOL, ValueType.UINT8);
            }
            case "visitparamextractraw" -> {
                return jsonParam(c, JsonParamNode.Fn.RAW, ValueType.STRING);
            }
            case "visitparamextractstring" -> {
                return jsonParam(c, JsonParamNode.Fn.STRING, ValueType.STRING);
            }
            case "tofixedstring" -> {
                arity(c, 2, 2);
                long n = constantInteger(c, 1);
                if (n <= 0 || n > 0xFFFFFF) {
                    throw new UnsupportedExpressionException("toFixedString of length " + n);
                }
                return convert(
                        compile(c.args().get(0)),
                        new ValueType(
                                Kind.FIXED_STRING,
                                (int) n * 8,
                                false,
                                null,
                                new FixedStringType((int) n),
                                false),
                        f);
            }
            default -> {}
        }
        ValueType target = conversionTarget(lower);
        if (target != null) {
            arity(c, 1, 1);
            return convert(compile(args.get(0)), target, f);
        }
        DateNode.Fn dateFn = dateFunction(lower);
        if (dateFn != null) {
            return dateFunction(c, dateFn);
        }
        throw new UnsupportedExpressionException("function " + f + " is not supported");
    }

    private static void arity(Call c, int min, int max) throws UnsupportedExpressionException {
        int n = c.args().size();
        if (n < min || n > max) {
            throw new UnsupportedExpressionException(
                    c.function() + " with " + n + " arguments is not supported");
        }
    }

    private static ValueType conversionTarget(String lower) {
        return switch (lower) {
            case "touint8" -> ValueType.integer(8, false);
            case "touint16" -> ValueType.integer(16, false);
            case "touint32" -> ValueType.integer(32, false);
            case "touint64" -> ValueType.integer(64, false);
            case "toint8" -> ValueType.integer(8, true);
            case "toint16" -> ValueType.integer(16, true);
            case "toint32" -> ValueType.integer(32, true);
            case "toint64" -> ValueType.integer(64, true);
            case "tofloat32" -> ValueType.FLOAT32;
            case "tofloat64" -> ValueType.FLOAT64;
            default -> null;
        };
    }

    private Node arithmetic(ArithmeticNode.Op op, Call c) throws UnsupportedExpressionException {
        arity(c, 2, 2);
        Node a = compile(c.args().get(0));
        Node b = compile(c.args().get(1));
        ValueType ta = a.type;
        ValueType tb = b.type;
        boolean nullable = ta.nullable() || tb.nullable();
        boolean aDate = ta.kind() == Kind.DATE || ta.kind() == Kind.DATETIME;
        boolean bDate = tb.kind() == Kind.DATE || tb.kind() == Kind.DATETIME;
        if (aDate || bDate) {
            // Date/DateTime plus or minus an integer number of days/seconds keeps the date type.
            if (op == ArithmeticNode.Op.PLUS && aDate != bDate && (aDate ? tb : ta).isInteger()) {
                ValueType t = (aDate ? ta : tb).withNullable(nullable);
                return new ArithmeticNode(op, a, b, t);
            }
            if (op == ArithmeticNode.Op.MINUS && aDate && tb.isInteger()) {
                return new ArithmeticNode(op, a, b, ta.withNullable(nullable));
            }
            throw new UnsupportedExpressionException(
                    c.function() + "(" + ta + ", " + tb + ") is not supported");
        }
        if (!ta.isNumber() || !tb.isNumber()) {
            throw new UnsupportedExpressionException(
                    c.function() + "(" + ta + ", " + tb + ") is not supported");
        }
        boolean floating = ta.kind() == Kind.FLOAT || tb.kind() == Kind.FLOAT;
        boolean signed = ta.signed() || tb.signed() || floating;
        int maxBits = Math.max(ta.bits(), tb.bits());
        ValueType result =
                switch (op) {
                    case PLUS, MULTIPLY -> construct(signed, floating, next(maxBits));
                    case MINUS -> construct(true, floating, next(maxBits));
                    case DIVIDE -> ValueType.FLOAT64;
                    case INT_DIV, MODULO -> {
                        checkIntegerDivision(c, a, b);
                        yield ValueType.integer(
                                op == ArithmeticNode.Op.INT_DIV ? ta.bits() : tb.bits(), signed);
                    }
                };
        return new ArithmeticNode(op, a, b, result.withNullable(nullable));
    }

    /**
     * intDiv and modulo of integers, computed as the server's C++ does (see {@link
     * ArithmeticNode}); a constant divisor of 0 is refused by the server, and one of -1 takes a
     * path of its own there.
     */
    private static void checkIntegerDivision(Call c, Node a, Node b)
            throws UnsupportedExpressionException {
        if (!a.type.isInteger() || !b.type.isInteger()) {
            throw new UnsupportedExpressionException(
                    c.function()
                            + "("
                            + a.type
                            + ", "
                            + b.type
                            + ") is not supported (only"
                            + " integers)");
        }
        if (b instanceof ConstNode k
                && (k.out.longs[0] == 0 || (b.type.signed() && k.out.longs[0] == -1))) {
            throw new UnsupportedExpressionException(
                    c.function() + " by the constant " + k.out.longs[0] + " is not supported");
        }
    }

    private static int next(int bits) {
        return Math.min(64, bits * 2);
    }

    private static ValueType construct(boolean signed, boolean floating, int bits) {
        if (floating) {
            return ValueType.floating(bits <= 32 ? 32 : 64);
        }
        return ValueType.integer(bits, signed);
    }

    private Node negate(Call c) throws UnsupportedExpressionException {
        arity(c, 1, 1);
        Node a = compile(c.args().get(0));
        ValueType t = a.type;
        if (t.kind() == Kind.FLOAT) {
            return new NegateNode(a, t);
        }
        if (t.kind() != Kind.INT) {
            throw new UnsupportedExpressionException("negate(" + t + ") is not supported");
        }
        ValueType r = ValueType.integer(t.signed() ? t.bits() : next(t.bits()), true);
        return new NegateNode(a, r.withNullable(t.nullable()));
    }

    private Node string(Call c, StringNode.Fn fn, ValueType result)
            throws UnsupportedExpressionException {
        arity(c, 1, 1);
        Node a = compile(c.args().get(0));
        boolean fixedOk =
                fn == StringNode.Fn.LENGTH
                        || fn == StringNode.Fn.EMPTY
                        || fn == StringNode.Fn.NOT_EMPTY;
        if (a.type.kind() != Kind.STRING && !(fixedOk && a.type.kind() == Kind.FIXED_STRING)) {
            throw new UnsupportedExpressionException(
                    c.function() + "(" + a.type + ") is not supported");
        }
        return new StringNode(fn, result.withNullable(a.type.nullable()), new Node[] {a}, 0, -1);
    }

    private Node substring(Call c) throws UnsupportedExpressionException {
        arity(c, 2, 3);
        Node s = compile(c.args().get(0));
        if (s.type.kind() != Kind.STRING) {
            throw new UnsupportedExpressionException(
                    c.function() + "(" + s.type + ", ...) is not supported");
        }
        long offset = constantInteger(c, 1);
        long length = c.args().size() == 3 ? constantInteger(c, 2) : -1;
        if (offset == 0 || (c.args().size() == 3 && length < 0)) {
            throw new UnsupportedExpressionException(
                    c.function()
                            + " with offset "
                            + offset
                            + " and length "
                            + length
                            + " is refused by the server");
        }
        return new StringNode(
                StringNode.Fn.SUBSTRING,
                ValueType.STRING.withNullable(s.type.nullable()),
                new Node[] {s},
                offset,
                length);
    }

    private long constantInteger(Call c, int index) throws UnsupportedExpressionException {
        Node n = compile(c.args().get(index));
        if (!(n instanceof ConstNode k)
                || !n.type.isInteger()
                || (!n.type.signed() && n.type.bits() == 64 && k.out.longs[0] < 0)) {
            throw new UnsupportedExpressionException(
                    c.function() + " needs a constant integer as argument " + (index + 1));
        }
        return k.out.longs[0];
    }

    private Node concat(Call c) throws UnsupportedExpressionException {
        if (c.args().size() < 2) {
            throw new UnsupportedExpressionException("concat needs at least two arguments");
        }
        Node[] args = new Node[c.args().size()];
        boolean nullable = false;
        for (int i = 0; i < args.length; i++) {
            args[i] = compile(c.args().get(i));
            if (!args[i].type.isStringLike()) {
                throw new UnsupportedExpressionException(
                        "concat of " + args[i].type + " is not supported");
            }
            nullable |= args[i].type.nullable();
        }
        return new StringNode(
                StringNode.Fn.CONCAT, ValueType.STRING.withNullable(nullable), args, 0, -1);
    }

    private Node cast(Call c) throws UnsupportedExpressionException {
        arity(c, 2, 2);
        Node a = compile(c.args().get(0));
        if (!(c.args().get(1) instanceof Literal l) || l.kind() != Expr.LiteralKind.STRING) {
            throw new UnsupportedExpressionException("CAST needs a type name");
        }
        ClickHouseType target;
        try {
            target = ValueType.parseType(l.text());
        } catch (IllegalArgumentException e) {
            throw new UnsupportedExpressionException("CAST to " + l.text() + " is not supported");
        }
        ValueType t = valueType(target, "CAST target");
        if (a.type.kind() == Kind.NULL && !t.nullable()) {
            throw new UnsupportedExpressionException(
                    "CAST of NULL to " + t + " (the server refuses it)");
        }
        return sameType(a.type, t) ? a : convert(a, t, "CAST");
    }

    private Node toDate(Call c) throws UnsupportedExpressionException {
        arity(c, 1, 2);
        if (c.args().size() == 2) {
            return dateFunction(c, DateNode.Fn.TO_DATE);
        }
        Node a = compile(c.args().get(0));
        ValueType t = ValueType.DATE.withNullable(a.type.nullable());
        if (a.type.kind() == Kind.DATETIME) {
            return new DateNode(DateNode.Fn.TO_DATE, a, t, lutOf(a.type));
        }
        return convert(a, t, c.function());
    }

    private Node toDateTime(Call c) throws UnsupportedExpressionException {
        arity(c, 1, 2);
        Node a = compile(c.args().get(0));
        String tz = c.args().size() == 2 ? stringConstant(c, 1) : null;
        ValueType t =
                a.type.kind() == Kind.DATETIME || tz != null
                        ? resultTime(a.type, tz)
                        : ValueType.dateTime(bindings.serverZone(), null);
        return convert(a, t.withNullable(a.type.nullable()), c.function());
    }

    private String stringConstant(Call c, int index) throws UnsupportedExpressionException {
        if (!(c.args().get(index) instanceof Literal l) || l.kind() != Expr.LiteralKind.STRING) {
            throw new UnsupportedExpressionException(
                    c.function() + " needs a constant string as argument " + (index + 1));
        }
        return l.text();
    }

    private static DateNode.Fn dateFunction(String lower) {
        return switch (lower) {
            case "tostartofminute" -> DateNode.Fn.TO_START_OF_MINUTE;
            case "tostartoffiveminute" -> DateNode.Fn.TO_START_OF_FIVE_MINUTE;
            case "tostartoffifteenminutes" -> DateNode.Fn.TO_START_OF_FIFTEEN_MINUTES;
            case "tostartofhour" -> DateNode.Fn.TO_START_OF_HOUR;
            case "tostartofday" -> DateNode.Fn.TO_START_OF_DAY;
            case "tomonday" -> DateNode.Fn.TO_MONDAY;
            case "tostartofmonth" -> DateNode.Fn.TO_START_OF_MONTH;
            case "tostartofquarter" -> DateNode.Fn.TO_START_OF_QUARTER;
            case "tostartofyear" -> DateNode.Fn.TO_START_OF_YEAR;
            case "toyyyymm" -> DateNode.Fn.TO_YYYYMM;
            case "toyyyymmdd" -> DateNode.Fn.TO_YYYYMMDD;
            case "toyear" -> DateNode.Fn.TO_YEAR;
            case "tomonth" -> DateNode.Fn.TO_MONTH;
            case "todayofmonth" -> DateNode.Fn.TO_DAY_OF_MONTH;
            case "todayofweek" -> DateNode.Fn.TO_DAY_OF_WEEK;
            case "tohour" -> DateNode.Fn.TO_HOUR;
            case "tominute" -> DateNode.Fn.TO_MINUTE;
            case "tosecond" -> DateNode.Fn.TO_SECOND;
            default -> null;
        };
    }

    /** A date function of a Date or DateTime, with an optional constant time zone argument. */
    private Node dateFunction(Call c, DateNode.Fn fn) throws UnsupportedExpressionException {
        arity(c, 1, 2);
        Node a = compile(c.args().get(0));
        Kind k = a.type.kind();
        if (k != Kind.DATE && k != Kind.DATETIME) {
            throw new UnsupportedExpressionException(
                    c.function() + "(" + a.type + ") is not supported");
        }
        if (k == Kind.DATE && fn.needsTime()) {
            throw new UnsupportedExpressionException(
                    c.function() + " of a Date (the server refuses it)");
        }
        DateLut lut = lutOf(a.type);
        String tz = null;
        if (c.args().size() == 2) {
            tz = stringConstant(c, 1);
            lut = DateLut.of(zone(tz));
        }
        ValueType t =
                switch (fn) {
                    case TO_DATE,
                            TO_MONDAY,
                            TO_START_OF_MONTH,
                            TO_START_OF_QUARTER,
                            TO_START_OF_YEAR ->
                            ValueType.DATE;
                    case TO_START_OF_MINUTE,
                            TO_START_OF_FIVE_MINUTE,
                            TO_START_OF_FIFTEEN_MINUTES,
                            TO_START_OF_HOUR,
                            TO_START_OF_DAY ->
                            resultTime(a.type, tz);
                    case TO_YYYYMM, TO_YYYYMMDD -> ValueType.UINT32;
                    case TO_YEAR -> ValueType.UINT16;
                    default -> ValueType.UINT8;
                };
        return new DateNode(fn, a, t.withNullable(a.type.nullable()), lut);
    }

    /**
     * The DateTime a time function returns: in the zone argument's zone, else the argument's; the
     * server names its own zone when the argument has none.
     */
    private ValueType resultTime(ValueType arg, String tz) throws UnsupportedExpressionException {
        if (tz != null) {
            return ValueType.dateTime(zone(tz), tz);
        }
        String declared = ((DateTimeType) arg.chType()).timezone();
        return ValueType.dateTime(
                arg.zone(), declared != null ? declared : bindings.serverZone().getId());
    }

    private DateLut lutOf(ValueType t) {
        return t.kind() == Kind.DATETIME && t.zone() != null ? DateLut.of(t.zone()) : serverLut;
    }

    private Node hash(Call c, HashNode.Fn fn, ValueType result)
            throws UnsupportedExpressionException {
        if (fn == HashNode.Fn.CITY_HASH64) {
            if (c.args().isEmpty()) {
                throw new UnsupportedExpressionException("cityHash64() without arguments");
            }
        } else {
            arity(c, 1, 1);
        }
        Node[] args = new Node[c.args().size()];
        boolean nullable = false;
        for (int i = 0; i < args.length; i++) {
            args[i] = compile(c.args().get(i));
            Kind k = args[i].type.kind();
            boolean ok =
                    k == Kind.INT
                            || k == Kind.DATE
                            || k == Kind.DATETIME
                            || (fn == HashNode.Fn.CITY_HASH64
                                    && (k == Kind.FLOAT
                                            || k == Kind.STRING
                                            || k == Kind.FIXED_STRING));
            if (!ok) {
                throw new UnsupportedExpressionException(
                        c.function() + " of " + args[i].type + " is not supported");
            }
            nullable |= args[i].type.nullable();
        }
        return new HashNode(fn, args, result.withNullable(nullable));
    }

    // ---- Comparisons, logic, IN, conditionals ----

    private Node compare(Call c, CompareNode.Op op) throws UnsupportedExpressionException {
        arity(c, 2, 2);
        Node a = compile(c.args().get(0));
        Node b = compile(c.args().get(1));
        if (a.type.kind() == Kind.NULL || b.type.kind() == Kind.NULL) {
            return ConstNode.ofNull(); // the server's NULL of type Nullable(Nothing)
        }
        // A text constant compared with a date, a time or an Enum is read as one, once.
        if (isTextConstant(b) && readsText(a.type)) {
            b = constantOf(b, a.type, c.function());
        } else if (isTextConstant(a) && readsText(b.type)) {
            a = constantOf(a, b.type, c.function());
        }
        ValueType ta = a.type;
        ValueType tb = b.type;
        String why = comparable(ta, tb, a instanceof ConstNode || b instanceof ConstNode);
        if (why != null) {
            throw new UnsupportedExpressionException(
                    c.function() + "(" + ta + ", " + tb + ") is not supported: " + why);
        }
        ValueType result = ValueType.UINT8.withNullable(ta.nullable() || tb.nullable());
        return new CompareNode(
                op,
                a,
                CompareNode.side(ta),
                b,
                CompareNode.side(tb),
                result.withNullable(ta.nullable() || tb.nullable()));
    }

    /** A Date, DateTime or Enum: a text constant compared with one is read as one. */
    private static boolean readsText(ValueType t) {
        return t.kind() == Kind.DATE
                || t.kind() == Kind.DATETIME
                || (t.kind() == Kind.ORDERED && t.chType() instanceof EnumType);
    }

    private static boolean isTextConstant(Node n) {
        return n instanceof ConstNode && n.type.kind() == Kind.STRING;
    }

    /**
     * Why two types cannot be compared (as 18.16 refuses, or compares surprisingly), or null.
     *
     * @param constantArgument one side is a constant
     */
    private String comparable(ValueType a, ValueType b, boolean constantArgument) {
        Kind ka = a.kind();
        Kind kb = b.kind();
        if (a.isStringLike() || b.isStringLike()) {
            if (!a.isStringLike() || !b.isStringLike()) {
                return "a string compares only with a string (or a constant with a date, time or"
                        + " Enum)";
            }
            boolean fixedA = ka == Kind.FIXED_STRING;
            boolean fixedB = kb == Kind.FIXED_STRING;
            if (fixedA != fixedB) {
                return "18.16 compares a String with a FixedString in ways that differ between"
                        + " columns and constants"
                        + (constantArgument
                                ? " (a constant only by the" + " FixedString's length)"
                                : "")
                        + "; compare FixedStrings of one type";
            }
            if (fixedA && fixedB && !a.chType().equals(b.chType())) {
                return "FixedStrings of different lengths";
            }
            return null;
        }
        if (ka == Kind.DATE || kb == Kind.DATE) {
            if (ka == Kind.DATE && kb == Kind.DATE) {
                return null;
            }
            return ka == Kind.DATETIME || kb == Kind.DATETIME
                    ? "18.16 compares a Date's day number with a DateTime's seconds; convert one"
                            + " side (toDate or toDateTime)"
                    : "a Date compares only with a Date or a constant 'YYYY-MM-DD'";
        }
        boolean enumA = ka == Kind.ORDERED && a.chType() instanceof EnumType;
        boolean enumB = kb == Kind.ORDERED && b.chType() instanceof EnumType;
        if (enumA && enumB && !a.chType().equals(b.chType())) {
            return "two different Enum types";
        }
        boolean numberA = ka == Kind.INT || ka == Kind.FLOAT || ka == Kind.DATETIME || enumA;
        boolean numberB = kb == Kind.INT || kb == Kind.FLOAT || kb == Kind.DATETIME || enumB;
        return numberA && numberB ? null : "these types do not compare";
    }

    /**
     * A text constant as a value of {@code type} (a Date, DateTime or Enum), as the server reads it
     * for a comparison or an IN list.
     */
    private Node constantOf(Node text, ValueType type, String what)
            throws UnsupportedExpressionException {
        ValueVector v = ((ConstNode) text).out;
        byte[] b = java.util.Arrays.copyOfRange(v.bytes, v.starts[0], v.ends[0]);
        String s = new String(b, java.nio.charset.StandardCharsets.UTF_8);
        Long value = textAs(s, type, what);
        return ConstNode.ofLong(type.withNullable(false), value);
    }

    /** The value a text literal stands for in {@code type}; refused where the server differs. */
    private Long textAs(String s, ValueType type, String what)
            throws UnsupportedExpressionException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        switch (type.kind()) {
            case DATE -> {
                if (b.length != 10) {
                    throw new UnsupportedExpressionException(
                            what + ": write the Date '" + s + "' as 'YYYY-MM-DD'");
                }
                int year =
                        (b[0] - '0') * 1000 + (b[1] - '0') * 100 + (b[2] - '0') * 10 + b[3] - '0';
                if (year < 1970 || year > 2105) {
                    throw new UnsupportedExpressionException(
                            what + ": the Date '" + s + "' is outside 1970..2105");
                }
                try {
                    return (long) Conversions.parseDate(b, 0, b.length);
                } catch (UnsupportedValueException e) {
                    throw new UnsupportedExpressionException(what + ": " + e.getMessage());
                }
            }
            case DATETIME -> {
                if (!type.zone().equals(bindings.serverZone())) {
                    throw new UnsupportedExpressionException(
                            what
                                    + ": 18.16 reads the text '"
                                    + s
                                    + "' in the server's time zone, not the column's "
                                    + type.zone()
                                    + "; write toDateTime('...', '"
                                    + type.zone()
                                    + "')");
                }
                boolean digits =
                        b.length >= 5 && b.length <= 10 && s.chars().allMatch(Character::isDigit);
                if (!digits && b.length != 19) {
                    throw new UnsupportedExpressionException(
                            what + ": write the DateTime '" + s + "' as 'YYYY-MM-DD hh:mm:ss'");
                }
                if (!digits) {
                    int year =
                            (b[0] - '0') * 1000
                                    + (b[1] - '0') * 100
                                    + (b[2] - '0') * 10
                                    + b[3]
                                    - '0';
                    if (year < 1970 || year > 2105) {
                        throw new UnsupportedExpressionException(
                                what + ": the DateTime '" + s + "' is outside 1970..2105");
                    }
                }
                try {
                    return Conversions.parseDateTime(b, 0, b.length, serverLut);
                } catch (UnsupportedValueException e) {
                    throw new UnsupportedExpressionException(what + ": " + e.getMessage());
                }
            }
            case ORDERED -> {
                if (type.chType() instanceof EnumType en) {
                    int value = en.valueOf(s);
                    if (value == Integer.MIN_VALUE) {
                        throw new UnsupportedExpressionException(
                                what + ": '" + s + "' is not a value of " + en.typeName());
                    }
                    return (long) value;
                }
                throw new UnsupportedExpressionException(
                        what + ": text cannot stand for a " + type.typeName());
            }
            default ->
                    throw new UnsupportedExpressionException(
                            what + ": text cannot stand for a " + type.typeName());
        }
    }

    private Node logic(Call c, LogicNode.Op op) throws UnsupportedExpressionException {
        if (op == LogicNode.Op.NOT) {
            arity(c, 1, 1);
        } else if (c.args().size() < 2) {
            throw new UnsupportedExpressionException(
                    c.function() + " needs at least two arguments");
        }
        Node[] args = new Node[c.args().size()];
        boolean nullable = false;
        for (int i = 0; i < args.length; i++) {
            args[i] = compile(c.args().get(i));
            ValueType t = args[i].type;
            if (t.kind() == Kind.NULL) {
                if (op != LogicNode.Op.OR) {
                    throw new UnsupportedExpressionException(
                            c.function() + " of NULL is not supported (it is always NULL)");
                }
                continue;
            }
            if (t.kind() != Kind.INT && t.kind() != Kind.FLOAT) {
                throw new UnsupportedExpressionException(
                        c.function() + " of " + t + " is not supported (it takes numbers)");
            }
            nullable |= t.nullable();
        }
        // or is never NULL: a NULL argument counts as false (18.16).
        ValueType result = ValueType.UINT8.withNullable(op != LogicNode.Op.OR && nullable);
        return new LogicNode(op, args, result);
    }

    private Node in(Call c, boolean negated) throws UnsupportedExpressionException {
        arity(c, 2, 2);
        Node x = compile(c.args().get(0));
        ValueType t = x.type.withNullable(false);
        if (t.kind() == Kind.NULL) {
            throw new UnsupportedExpressionException(c.function() + " of NULL is not supported");
        }
        Expr list = c.args().get(1);
        List<Expr> items =
                list instanceof Call call && call.function().equals("tuple")
                        ? call.args()
                        : List.of(list);
        boolean strings = t.isStringLike();
        java.util.List<Long> numbers = new java.util.ArrayList<>();
        java.util.List<byte[]> texts = new java.util.ArrayList<>();
        for (Expr item : items) {
            if (!(item instanceof Literal l)) {
                throw new UnsupportedExpressionException(
                        c.function() + " takes a list of constants, not " + item);
            }
            if (l.kind() == Expr.LiteralKind.NULL) {
                continue; // NULL is in no list
            }
            if (strings) {
                if (l.kind() != Expr.LiteralKind.STRING) {
                    throw new UnsupportedExpressionException(
                            c.function() + ": " + l + " is not a " + t.typeName());
                }
                byte[] b = l.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                if (t.kind() == Kind.FIXED_STRING) {
                    int n = ((FixedStringType) t.chType()).length();
                    if (b.length > n) {
                        throw new UnsupportedExpressionException(
                                c.function() + ": " + l + " is longer than " + t.typeName());
                    }
                    b = java.util.Arrays.copyOf(b, n);
                }
                texts.add(b);
            } else {
                Long v = inElement(l, t, c.function());
                if (v != null) {
                    numbers.add(v);
                }
            }
        }
        if (strings) {
            return new InNode(x, negated, null, texts.toArray(new byte[0][]));
        }
        long[] values = new long[numbers.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = numbers.get(i);
        }
        return new InNode(x, negated, values, null);
    }

    /**
     * An IN list's constant as the value of {@code t} it matches (a float: its bits), or null when
     * {@code t} cannot hold it exactly (the server drops it from the set).
     */
    private Long inElement(Literal l, ValueType t, String what)
            throws UnsupportedExpressionException {
        Expr.LiteralKind k = l.kind();
        switch (t.kind()) {
            case INT -> {
                if (k == Expr.LiteralKind.STRING) {
                    throw new UnsupportedExpressionException(what + ": " + l + " is not a " + t);
                }
                if (k == Expr.LiteralKind.FLOAT) {
                    double d = l.number();
                    if (d != Math.rint(d) || Double.isInfinite(d)) {
                        return null;
                    }
                    if (d < -0x1p63 || d >= 0x1p64) {
                        return null;
                    }
                    long v = d >= 0x1p63 ? (long) (d - 0x1p63) + Long.MIN_VALUE : (long) d;
                    return fitsInteger(v, d >= 0x1p63 || d >= 0, t) ? v : null;
                }
                long v = l.bits();
                return fitsInteger(v, k == Expr.LiteralKind.UNSIGNED, t) ? v : null;
            }
            case FLOAT -> {
                if (k == Expr.LiteralKind.STRING) {
                    throw new UnsupportedExpressionException(what + ": " + l + " is not a " + t);
                }
                double d;
                if (k == Expr.LiteralKind.FLOAT) {
                    d = l.number();
                } else {
                    long v = l.bits();
                    d = k == Expr.LiteralKind.UNSIGNED ? ExprParser.unsignedToDouble(v) : v;
                    // Not exactly representable: dropped.
                    boolean exact =
                            k == Expr.LiteralKind.UNSIGNED
                                    ? CompareNode.compareWithDouble(v, true, d) == 0
                                    : CompareNode.compareWithDouble(v, false, d) == 0;
                    if (!exact) {
                        return null;
                    }
                }
                if (t.bits() == 32) {
                    if (Double.isNaN(d)) {
                        d = (float) d; // a Float32 NaN, as the column's values read
                    } else if ((float) d != d) {
                        return null;
                    }
                }
                return Double.doubleToRawLongBits(d);
            }
            case DATE, DATETIME -> {
                if (k == Expr.LiteralKind.STRING) {
                    return textAs(l.text(), t, what);
                }
                if (k != Expr.LiteralKind.UNSIGNED) {
                    throw new UnsupportedExpressionException(what + ": " + l + " is not a " + t);
                }
                long max = t.kind() == Kind.DATE ? 0xFFFF : 0xFFFF_FFFFL;
                return l.bits() >= 0 && l.bits() <= max ? l.bits() : null;
            }
            case ORDERED -> {
                if (k == Expr.LiteralKind.STRING && t.chType() instanceof EnumType) {
                    return textAs(l.text(), t, what);
                }
                throw new UnsupportedExpressionException(what + ": " + l + " is not a " + t);
            }
            default ->
                    throw new UnsupportedExpressionException(
                            what + " of " + t + " is not supported");
        }
    }

    /** Whether integer {@code v} (unsigned: its 64 bits as UInt64) is a value of {@code t}. */
    private static boolean fitsInteger(long v, boolean unsigned, ValueType t) {
        if (unsigned && v < 0) {
            return !t.signed() && t.bits() == 64;
        }
        if (!unsigned && v < 0 && !t.signed()) {
            return false;
        }
        return Conversions.wrap(v, t) == v;
    }

    /** {@code if} ({@code multi} false) or {@code multiIf}. */
    private Node conditional(Call c, boolean single) throws UnsupportedExpressionException {
        List<Expr> args = c.args();
        int conditionCount = args.size() / 2;
        Node[] conditions = new Node[conditionCount];
        Node[] branches = new Node[conditionCount + 1];
        boolean nullableCondition = false;
        for (int j = 0; j < conditionCount; j++) {
            conditions[j] = compile(args.get(2 * j));
            ValueType t = conditions[j].type;
            if (t.kind() != Kind.INT || t.bits() != 8 || t.signed()) {
                throw new UnsupportedExpressionException(
                        c.function() + ": the condition is a " + t + ", not a UInt8");
            }
            nullableCondition |= t.nullable();
            branches[j] = compile(args.get(2 * j + 1));
        }
        branches[conditionCount] = compile(args.get(args.size() - 1));
        ValueType[] types = new ValueType[branches.length];
        for (int j = 0; j < branches.length; j++) {
            types[j] = branches[j].type;
        }
        ValueType result = supertype(c.function(), types);
        // A Nullable condition makes the result Nullable (if: NULL where the condition is).
        result = result.withNullable(result.nullable() || nullableCondition);
        for (int j = 0; j < branches.length; j++) {
            branches[j] = toSupertype(branches[j], result, c.function());
        }
        return new IfNode(conditions, branches, single, result);
    }

    /**
     * {@code coalesce(a, b, ...)} and {@code ifNull(a, b)}: NULL arguments are dropped, arguments
     * after the first that cannot be NULL are never reached; the result is the arguments' common
     * type, Nullable only when the last one is.
     */
    private Node coalesce(Call c) throws UnsupportedExpressionException {
        List<Node> args = new java.util.ArrayList<>();
        for (Expr e : c.args()) {
            Node n = compile(e);
            if (n.type.kind() == Kind.NULL) {
                continue;
            }
            args.add(n);
            if (!n.type.nullable()) {
                break;
            }
        }
        if (args.isEmpty()) {
            return ConstNode.ofNull();
        }
        if (args.size() == 1) {
            return args.get(0);
        }
        ValueType[] types = new ValueType[args.size()];
        for (int j = 0; j < types.length; j++) {
            types[j] = args.get(j).type.withNullable(false);
        }
        ValueType result =
                supertype(c.function(), types)
                        .withNullable(args.get(args.size() - 1).type.nullable());
        int last = args.size() - 1;
        Node[] conditions = new Node[last];
        Node[] branches = new Node[last + 1];
        for (int j = 0; j < last; j++) {
            conditions[j] = new NullCheckNode(args.get(j), true);
            branches[j] =
                    toSupertype(
                            new AssumeNotNullNode(args.get(j)),
                            result.withNullable(false),
                            c.function());
            if (result.nullable()) {
                branches[j] = toSupertype(branches[j], result, c.function());
            }
        }
        branches[last] = toSupertype(args.get(last), result, c.function());
        return new IfNode(conditions, branches, false, result);
    }

    private Node toSupertype(Node n, ValueType target, String what)
            throws UnsupportedExpressionException {
        if (sameType(n.type, target)) {
            return n;
        }
        if (n.type.kind() == Kind.NULL) {
            return n; // its rows are NULL whatever the type
        }
        return new ConvertNode(n, target, serverLut, false);
    }

    /**
     * The least type every one of {@code types} converts to, by the server's {@code
     * getLeastSupertype}: NULL adds Nullable; numbers widen (signed and unsigned of the same width
     * need a wider signed type, an integer and a float a float wide enough to hold it exactly);
     * strings join as String; Date and DateTime as DateTime. Refused where the server finds none,
     * and where its conversion differs between functions (FixedString with String, zones).
     */
    ValueType supertype(String what, ValueType... types) throws UnsupportedExpressionException {
        java.util.List<ValueType> present = new java.util.ArrayList<>();
        boolean nullable = false;
        for (ValueType t : types) {
            if (t.kind() == Kind.NULL) {
                nullable = true;
                continue;
            }
            nullable |= t.nullable();
            present.add(t.withNullable(false));
        }
        if (present.isEmpty()) {
            return ValueType.NULL;
        }
        ValueType first = present.get(0);
        boolean allSame = true;
        for (ValueType t : present) {
            allSame &= sameType(t, first);
        }
        if (allSame) {
            return first.withNullable(nullable);
        }
        String names = String.join(", ", present.stream().map(ValueType::typeName).toList());
        boolean strings = present.stream().allMatch(ValueType::isStringLike);
        if (strings) {
            if (present.stream().anyMatch(t -> t.kind() == Kind.FIXED_STRING)) {
                throw new UnsupportedExpressionException(
                        what
                                + ": FixedString and String together ("
                                + names
                                + ") are not supported; convert with toString");
            }
            return ValueType.STRING.withNullable(nullable);
        }
        boolean dates =
                present.stream().allMatch(t -> t.kind() == Kind.DATE || t.kind() == Kind.DATETIME);
        if (dates) {
            // 18.16 takes a Date's day number as a DateTime's seconds here, and mixes zones.
            throw new UnsupportedExpressionException(
                    what
                            + ": Date and DateTime, or DateTimes of different zones, together ("
                            + names
                            + ") are not supported; convert with toDate or toDateTime");
        }
        int signedBits = 0;
        int unsignedBits = 0;
        int mantissa = 0;
        for (ValueType t : present) {
            switch (t.kind()) {
                case INT -> {
                    if (t.signed()) {
                        signedBits = Math.max(signedBits, t.bits());
                    } else {
                        unsignedBits = Math.max(unsignedBits, t.bits());
                    }
                }
                case FLOAT -> mantissa = Math.max(mantissa, t.bits() == 32 ? 24 : 53);
                default ->
                        throw new UnsupportedExpressionException(
                                what + ": no common type for " + names);
            }
        }
        int bits = Math.max(signedBits, unsignedBits);
        if (signedBits > 0 && unsignedBits >= signedBits) {
            bits++;
        }
        ValueType result;
        if (mantissa > 0) {
            int needed = Math.max(bits, mantissa);
            if (needed <= 24) {
                result = ValueType.FLOAT32;
            } else if (needed <= 53) {
                result = ValueType.FLOAT64;
            } else {
                throw new UnsupportedExpressionException(
                        what + ": no float holds every value of " + names);
            }
        } else if (bits > 64) {
            throw new UnsupportedExpressionException(
                    what + ": no signed integer holds every value of " + names);
        } else {
            int width = bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 32 ? 32 : 64;
            result = ValueType.integer(width, signedBits > 0);
        }
        return result.withNullable(nullable);
    }

    private Node jsonParam(Call c, JsonParamNode.Fn fn, ValueType result)
            throws UnsupportedExpressionException {
        arity(c, 2, 2);
        Node a = compile(c.args().get(0));
        if (a.type.kind() != Kind.STRING) {
            throw new UnsupportedExpressionException(
                    c.function() + " of " + a.type + " is not supported (it reads a String)");
        }
        String name = stringConstant(c, 1);
        if (name.indexOf('\0') >= 0) {
            throw new UnsupportedExpressionException(c.function() + ": a name with a zero byte");
        }
        return new JsonParamNode(fn, a, name, result.withNullable(a.type.nullable()));
    }

    // ---- Conversions ----

    private Node convert(Node a, ValueType target, String what)
            throws UnsupportedExpressionException {
        if (!convertible(a.type, target)) {
            throw new UnsupportedExpressionException(
                    what + " from " + a.type + " to " + target + " is not supported");
        }
        if (a.type.nullable() && !target.nullable() && a.type.kind() != Kind.NULL) {
            // toT(Nullable(x)) stays Nullable; only CAST to a non-Nullable type refuses NULLs.
            if (!what.startsWith("CAST")) {
                target = target.withNullable(true);
            }
        }
        return new ConvertNode(a, target, serverLut, what.startsWith("CAST"));
    }

    /** The conversions {@link ConvertNode} reproduces. */
    static boolean convertible(ValueType from, ValueType to) {
        Kind f = from.kind();
        if (f == Kind.NULL) {
            return to.nullable();
        }
        if (f == Kind.ORDERED || f == Kind.FIXED_STRING && to.kind() != Kind.FIXED_STRING) {
            return false;
        }
        return switch (to.kind()) {
            case INT -> true;
            case DATE, DATETIME -> f != Kind.FLOAT;
            case FLOAT -> f != Kind.STRING || to.bits() == 64; // text: toFloat64 only
            case STRING -> true;
            case FIXED_STRING ->
                    f == Kind.STRING
                            || f == Kind.FIXED_STRING
                                    && sameType(from.withNullable(false), to.withNullable(false));
            case ORDERED -> to.chType() instanceof EnumType && (f == Kind.STRING || f == Kind.INT);
            case NULL -> false;
        };
    }

    static boolean sameType(ValueType a, ValueType b) {
        return a.kind() == b.kind()
                && a.nullable() == b.nullable()
                && a.chType().equals(b.chType())
                && (a.kind() != Kind.DATETIME || a.zone().equals(b.zone()));
    }
}
