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
            case FLOAT -> f != Kind.STRING;
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
