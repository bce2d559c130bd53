package dev.sluice.clickhouse.expr;

import static dev.sluice.clickhouse.expr.FunctionsServerIT.INT_TYPES;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.fillDate;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.fillFloat;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.fillInt;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.fillString;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.fillTime;
import static dev.sluice.clickhouse.expr.FunctionsServerIT.nullEvery;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.it.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The functions pipeline transforms use beyond the DEFAULT set — comparisons, {@code and/or/xor/
 * not}, {@code IN}, {@code isNull}, {@code if/multiIf}, {@code coalesce/ifNull}, {@code toFloat64}
 * of text and the {@code visitParam*} JSON functions — computed by the test server and by the
 * evaluator over the same rows (edge values, NULLs, then seeded random ones); types and values must
 * match in every row. The number of values compared per function is printed.
 */
class TransformFunctionsServerIT {
    private static final int ROWS = 3000;
    private static final Map<String, Integer> TOTALS = new TreeMap<>();
    private static NativeConnection connection;

    @BeforeAll
    static void connect() {
        connection = TestServer.connect();
    }

    @AfterAll
    static void report() {
        if (connection != null) {
            connection.close();
        }
        StringBuilder sb = new StringBuilder("values compared with the server, per function:");
        TOTALS.forEach((f, n) -> sb.append("\n  ").append(f).append(": ").append(n));
        System.out.println(sb);
    }

    private static void record(ServerComparison s) {
        s.compared().forEach((f, n) -> TOTALS.merge(f, n, Integer::sum));
    }

    private static String col(String type) {
        return "c" + type.toLowerCase();
    }

    // ---- Comparisons ----

    @Test
    void comparisonsOfNumbers() {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String t : INT_TYPES) {
            cols.put(col(t), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        cols.put("ni", "Nullable(Int32)");
        cols.put("nf", "Nullable(Float64)");
        ServerComparison s =
                new ServerComparison(connection, "cmp_num", cols, ROWS, b -> numbers(b, 11));
        List<String> nums = new ArrayList<>();
        for (String t : INT_TYPES) {
            nums.add(col(t));
        }
        nums.add("f32");
        nums.add("f64");
        for (String a : nums) {
            for (String b : nums) {
                s.check(a + " = " + b);
                s.check(a + " < " + b);
            }
            s.check(a + " != f64");
            s.check(a + " <= cint64");
            s.check(a + " >= cuint64");
            s.check(a + " > f32");
            for (String k :
                    List.of(
                            "0",
                            "-1",
                            "1.5",
                            "255",
                            "-128",
                            "18446744073709551615",
                            "9223372036854775807",
                            "-9223372036854775808",
                            "9007199254740993",
                            "9007199254740992",
                            "1e19",
                            "-0.",
                            "inf",
                            "nan")) {
                s.check(a + " = " + k);
                s.check(a + " < " + k);
                s.check(k + " >= " + a);
            }
        }
        s.check("ni = cint32");
        s.check("ni < 0");
        s.check("nf != ni");
        s.check("nf >= f64");
        s.check("ni = NULL");
        s.check("NULL < f64");
        s.check("(cint8 < 0) = (cuint8 > 100)");
        record(s);
    }

    @Test
    void comparisonsOfStringsDatesAndEnums() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("s", "String");
        cols.put("s2", "String");
        cols.put("fs", "FixedString(3)");
        cols.put("ns", "Nullable(String)");
        cols.put("lcs", "LowCardinality(String)");
        cols.put("d", "Date");
        cols.put("d2", "Date");
        cols.put("dt", "DateTime");
        cols.put("dt2", "DateTime");
        cols.put("dtk", "DateTime('Asia/Kolkata')");
        cols.put("e", "Enum8('c' = -3, 'a' = 1, 'b' = 2)");
        cols.put("e16", "Enum16('y' = -1000, 'x' = 1000)");
        cols.put("u8", "UInt8");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "cmp_str",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(12);
                            fillString(b.column("s"), rnd, ROWS);
                            fillString(b.column("s2"), new Random(12), ROWS);
                            shuffleHalf(b.column("s2"), rnd);
                            for (int r = 0; r < ROWS; r++) {
                                String v = FunctionsServerIT.STRING_EDGES[r % 9];
                                byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                                b.column("fs").appendBytes(bytes, 0, Math.min(3, bytes.length));
                            }
                            fillString(b.column("ns"), rnd, ROWS);
                            nullEvery(b.column("ns"), 5);
                            fillString(b.column("lcs"), new Random(13), ROWS);
                            fillDate(b.column("d"), rnd, ROWS);
                            fillDate(b.column("d2"), new Random(14), ROWS);
                            fillTime(b.column("dt"), rnd, ROWS);
                            fillTime(b.column("dt2"), new Random(15), ROWS);
                            fillTime(b.column("dtk"), rnd, ROWS);
                            for (int r = 0; r < ROWS; r++) {
                                b.column("e").appendString(new String[] {"a", "b", "c"}[r % 3]);
                                b.column("e16").appendString(r % 2 == 0 ? "x" : "y");
                                b.column("u8").appendLong(rnd.nextInt(256));
                            }
                        });
        for (String a : List.of("s", "fs", "ns", "lcs")) {
            for (String b : List.of("s", "s2", "fs", "ns", "lcs")) {
                if (a.equals("fs") != b.equals("fs")) {
                    s.checkUnsupported(a + " = " + b);
                    continue;
                }
                s.check(a + " = " + b);
                s.check(a + " < " + b);
                s.check(a + " >= " + b);
            }
            if (a.equals("fs")) {
                s.checkUnsupported("fs = 'abc'");
                s.checkUnsupported("'Moscow' <= fs");
                continue;
            }
            for (String k : List.of("''", "'a'", "'abc'", "'ab\\0'", "'Moscow'", "'ÄÖÜ äöü'")) {
                s.check(a + " = " + k);
                s.check(a + " != " + k);
                s.check(a + " > " + k);
                s.check(k + " <= " + a);
            }
        }
        for (String op : List.of("=", "!=", "<", ">", "<=", ">=")) {
            s.check("d " + op + " d2");
            s.check("dt " + op + " dt2");
            s.check("dt " + op + " dtk");
            s.check("d " + op + " '2020-01-02'");
            s.check("'1999-12-31' " + op + " d");
            s.check("dt " + op + " '2020-01-02 03:04:05'");
            s.check("dt " + op + " '1500000000'");
            s.check("dt " + op + " 1500000000");
            s.check("e " + op + " 'b'");
            s.check("e " + op + " e");
            s.check("e " + op + " 1");
            s.check("e16 " + op + " 'y'");
            s.check("e " + op + " u8");
        }
        s.checkUnsupported("d = dt");
        s.checkUnsupported("d = 18262");
        s.checkUnsupported("s = 1");
        s.checkUnsupported("dtk = '2020-01-01 00:00:00'");
        s.checkUnsupported("e = 'z'");
        record(s);
    }

    // ---- Logic ----

    @Test
    void logic() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("a", "UInt8");
        cols.put("b", "UInt8");
        cols.put("na", "Nullable(UInt8)");
        cols.put("nb", "Nullable(UInt8)");
        cols.put("n", "Int32");
        cols.put("f", "Float64");
        cols.put("nf", "Nullable(Float64)");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "logic",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(21);
                            for (int r = 0; r < ROWS; r++) {
                                b.column("a").appendLong(rnd.nextInt(3));
                                b.column("b").appendLong(rnd.nextInt(2));
                                int na = rnd.nextInt(4);
                                if (na == 3) {
                                    b.column("na").appendNull();
                                } else {
                                    b.column("na").appendLong(na);
                                }
                                int nb = rnd.nextInt(3);
                                if (nb == 2) {
                                    b.column("nb").appendNull();
                                } else {
                                    b.column("nb").appendLong(nb);
                                }
                                b.column("n").appendLong(rnd.nextInt(5) - 2);
                            }
                            fillFloat(b.column("f"), rnd, ROWS, false);
                            fillFloat(b.column("nf"), rnd, ROWS, false);
                            nullEveryFloat(b.column("nf"), 4);
                        });
        List<String> args = List.of("a", "b", "na", "nb", "n", "f", "nf");
        for (String x : args) {
            s.check("NOT " + x);
            for (String y : args) {
                s.check(x + " AND " + y);
                s.check(x + " OR " + y);
                s.check("xor(" + x + ", " + y + ")");
            }
            s.check(x + " AND 0");
            s.check(x + " AND 1");
            s.check(x + " OR 0");
            s.check(x + " OR 1");
            s.check(x + " OR NULL");
        }
        s.check("and(a, na, nb)");
        s.check("or(a, na, nb, f)");
        s.check("xor(a, b, n)");
        s.check("a AND b OR na AND NOT nb");
        s.check("(n > 0) AND (f < 1) OR (nf IS NULL)");
        s.check("NOT (na = 1)");
        s.check("NOT NOT nf"); // the parser drops an even run of NOTs, as the server does
        s.check("not(not(nf))");
        s.checkUnsupported("'x' AND 1");
        record(s);
    }

    // ---- IN, isNull ----

    @Test
    void inListsAndNullChecks() {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String t : INT_TYPES) {
            cols.put(col(t), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        cols.put("s", "String");
        cols.put("fs", "FixedString(3)");
        cols.put("ns", "Nullable(String)");
        cols.put("ni", "Nullable(Int32)");
        cols.put("d", "Date");
        cols.put("dt", "DateTime");
        cols.put("e", "Enum8('c' = -3, 'a' = 1, 'b' = 2)");
        cols.put("lcs", "LowCardinality(String)");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "in_list",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(31);
                            for (String t : INT_TYPES) {
                                smallInts(b.column(col(t)), t, rnd);
                            }
                            for (int r = 0; r < ROWS; r++) {
                                b.column("f32").appendDouble(smallFloat(rnd));
                                b.column("f64").appendDouble(smallFloat(rnd));
                                String v = FunctionsServerIT.STRING_EDGES[rnd.nextInt(12)];
                                b.column("s").appendString(v);
                                byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                                b.column("fs").appendBytes(bytes, 0, Math.min(3, bytes.length));
                                if (r % 5 == 1) {
                                    b.column("ns").appendNull();
                                    b.column("ni").appendNull();
                                } else {
                                    b.column("ns").appendString(v);
                                    b.column("ni").appendLong(rnd.nextInt(7) - 3);
                                }
                                b.column("d").appendLong(18260 + rnd.nextInt(5));
                                b.column("dt").appendLong(1577836800L + rnd.nextInt(3));
                                b.column("e").appendString(new String[] {"a", "b", "c"}[r % 3]);
                                b.column("lcs").appendString(v);
                            }
                        });
        for (String t : INT_TYPES) {
            String c = col(t);
            s.check(c + " IN (0, 1, 2)");
            s.check(c + " NOT IN (0, 1, 2)");
            s.check(c + " IN (-1, 255, 256, -129, 65535, 4294967295, 18446744073709551615)");
            s.check(c + " IN (1.0, 2.5, -1.0, 1e30)");
            s.check(c + " IN (3)");
            s.check(c + " IN 2");
            s.check(c + " IN (NULL, 1)");
            s.check(c + " NOT IN (NULL, 1)");
            s.check("(" + c + " + 1) IN (1, 2)");
        }
        for (String c : List.of("f32", "f64")) {
            s.check(c + " IN (0, 0.5, 1, -0.5, 16777217, 0.1)");
            s.check(c + " IN (-0., nan, inf)");
            s.check(c + " NOT IN (1.5, 2)");
        }
        s.check("s IN ('', 'a', 'abc', 'Moscow')");
        s.check("s NOT IN ('a', 'ÄÖÜ äöü')");
        s.check("lcs IN ('abc', 'nope')");
        s.check("fs IN ('a', 'abc', '')");
        s.check("ns IN ('a', 'abc')");
        s.check("ns NOT IN ('a', 'abc')");
        s.check("ni IN (0, 1, -1)");
        s.check("ni NOT IN (0, 1, NULL)");
        s.check("d IN ('2019-12-30', '2020-01-01', 18263)");
        s.check("d NOT IN ('2020-01-02')");
        s.check("dt IN ('2020-01-01 00:00:01', 1577836800)");
        s.check("e IN ('a', 'c')");
        s.check("e NOT IN ('b')");
        s.check("isNull(ns)");
        s.check("isNotNull(ns)");
        s.check("ni IS NULL");
        s.check("ni IS NOT NULL");
        s.check("s IS NULL");
        s.check("s IS NOT NULL");
        s.check("isNull(ni + 1)");
        s.checkUnsupported("s IN ('a', 1)");
        s.checkUnsupported("fs IN ('abcd')");
        s.checkUnsupported("e IN (1)");
        s.checkUnsupported("cint8 IN [1, 2]");
        record(s);
    }

    // ---- if, multiIf, coalesce ----

    @Test
    void conditionals() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("c", "UInt8");
        cols.put("c2", "UInt8");
        cols.put("nc", "Nullable(UInt8)");
        for (String t : INT_TYPES) {
            cols.put(col(t), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        cols.put("s", "String");
        cols.put("s2", "String");
        cols.put("ns", "Nullable(String)");
        cols.put("ni", "Nullable(Int32)");
        cols.put("ni8", "Nullable(Int8)");
        cols.put("nf", "Nullable(Float64)");
        cols.put("d", "Date");
        cols.put("dt", "DateTime");
        cols.put("nd", "Nullable(Date)");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "cond",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(41);
                            for (int r = 0; r < ROWS; r++) {
                                b.column("c").appendLong(rnd.nextInt(3));
                                b.column("c2").appendLong(rnd.nextInt(2));
                                if (r % 4 == 3) {
                                    b.column("nc").appendNull();
                                } else {
                                    b.column("nc").appendLong(rnd.nextInt(2));
                                }
                            }
                            for (String t : INT_TYPES) {
                                fillInt(b.column(col(t)), t, rnd, ROWS);
                            }
                            fillFloat(b.column("f32"), rnd, ROWS, true);
                            fillFloat(b.column("f64"), rnd, ROWS, false);
                            fillString(b.column("s"), rnd, ROWS);
                            fillString(b.column("s2"), rnd, ROWS);
                            fillString(b.column("ns"), rnd, ROWS);
                            nullEvery(b.column("ns"), 3);
                            fillInt(b.column("ni"), "Int32", rnd, ROWS);
                            nullEvery(b.column("ni"), 4);
                            fillInt(b.column("ni8"), "Int8", rnd, ROWS);
                            nullEvery(b.column("ni8"), 5);
                            fillFloat(b.column("nf"), rnd, ROWS, false);
                            nullEveryFloat(b.column("nf"), 3);
                            fillDate(b.column("d"), rnd, ROWS);
                            fillTime(b.column("dt"), rnd, ROWS);
                            for (int r = 0; r < ROWS; r++) {
                                if (r % 4 == 0) {
                                    b.column("nd").appendNull();
                                } else {
                                    b.column("nd").appendLong(rnd.nextInt(40000));
                                }
                            }
                        });
        List<String> values = new ArrayList<>();
        for (String t : INT_TYPES) {
            values.add(col(t));
        }
        values.add("f32");
        values.add("f64");
        for (String a : values) {
            for (String b : values) {
                if (widest(a, b)) {
                    s.check("if(c, " + a + ", " + b + ")");
                }
            }
            s.check("if(nc, " + a + ", 0)");
            s.check("multiIf(c, " + a + ", c2, 1, 0)");
        }
        s.check("if(c, s, s2)");
        s.check("if(c, s, 'x')");
        s.check("if(nc, s, ns)");
        s.check("if(c, ni, 7)");
        s.check("if(c, NULL, cint64)");
        s.check("if(c, nd, d)");
        s.checkUnsupported("if(c, d, dt)");
        s.check("c2 ? f64 : ni");
        s.check("if(cuint8 > 100, 'big', 'small')");
        s.check("multiIf(c, 'one', c2, s, ns)");
        s.check("multiIf(nc, 1, c2, 2, 3)");
        s.check("multiIf(nc, s, nc = 0, 'zero', 'null')");
        s.check("multiIf(c, ni8, c2, cint16, f32)");
        s.check("coalesce(ni, 0)");
        s.check("coalesce(ni, cint64)");
        s.check("coalesce(ni, ni8, -1)");
        s.check("coalesce(ni8, ni)");
        s.check("coalesce(ns, s)");
        s.check("coalesce(ns, 'none')");
        s.check("coalesce(NULL, ni, 5)");
        s.check("coalesce(nf, ni, 0.5)");
        s.check("coalesce(cint8, 'never reached')");
        s.check("coalesce(nd, d)");
        s.check("ifNull(ni, 0)");
        s.check("ifNull(ns, s)");
        s.check("ifNull(nf, nf)");
        s.check("ifNull(ni8, cuint8)");
        s.checkUnsupported("if(cint32, 1, 2)");
        s.checkUnsupported("if(c, cuint64, cint64)");
        s.checkUnsupported("if(c, s, 1)");
        record(s);
    }

    /** Pairs whose common type exists (the server refuses UInt64 with signed, Int64 with float). */
    private static boolean widest(String a, String b) {
        boolean ua = a.equals("cuint64");
        boolean ub = b.equals("cuint64");
        boolean sa = a.startsWith("cint");
        boolean sb = b.startsWith("cint");
        boolean fa = a.startsWith("f");
        boolean fb = b.startsWith("f");
        boolean big = a.equals("cint64") || b.equals("cint64") || ua || ub;
        return !((ua && sb) || (ub && sa) || (big && (fa || fb)));
    }

    // ---- Text to numbers ----

    @Test
    void textToNumbers() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("t", "String");
        cols.put("n", "Nullable(String)");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "to_num",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(51);
                            for (int r = 0; r < ROWS; r++) {
                                String v = floatText(rnd, r);
                                b.column("t").appendString(v);
                                if (r % 6 == 0) {
                                    b.column("n").appendNull();
                                } else {
                                    b.column("n").appendString(v);
                                }
                            }
                        });
        // Texts with an exponent or more than 18 digits on a side are refused (FloatText).
        s.check("toFloat64(t)", ROWS / 2);
        // A NULL's placeholder '' is parsed too: the server fails, the evaluator refuses.
        assertThatThrownBy(
                        () ->
                                connection.query(
                                        "SELECT toFloat64(n) FROM " + s.table(), Map.of(), b -> {}))
                .hasMessageContaining("Cannot read floating point value");
        assertThatThrownBy(
                        () ->
                                CompiledExpression.compile("toFloat64(n)", s.bindings())
                                        .evaluate(s.block(), 0))
                .isInstanceOf(UnsupportedValueException.class)
                .hasMessageContaining("a NULL text cannot be converted to Float64");
        s.check("CAST(t, 'Float64')", ROWS / 2);
        s.check("toFloat64(t) > 1", ROWS / 2);
        s.check("toString(toFloat64(t))", ROWS / 2);
        record(s);
    }

    private static final String[] FLOAT_TEXTS = {
        "0",
        "-0",
        "1",
        "-1",
        "1.5",
        "-1.5",
        ".5",
        "5.",
        "0.1",
        "0.3",
        "1.1",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "2.5e-3",
        "123456789012345678901234567890",
        "0.1000000000000000055511151231257827",
        "1.7976931348623157e308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "1e309",
        "1e-400",
        "inf",
        "-inf",
        "nan",
        "18446744073709551615",
        "18446744073709551616",
        "9007199254740993",
        "0.000000000000000000001234567890123456789012",
        "00000123.4500000",
        "1234567890123456789.123456789012345678901",
        "3.14159265358979323846264338327950288",
    };

    /** Texts the server reads as a Float64 whole: edge forms first, then random ones. */
    private static String floatText(Random rnd, int r) {
        if (r < FLOAT_TEXTS.length) {
            return FLOAT_TEXTS[r];
        }
        StringBuilder sb = new StringBuilder();
        if (rnd.nextInt(4) == 0) {
            sb.append('-');
        }
        int intDigits = rnd.nextInt(4) == 0 ? rnd.nextInt(25) : 1 + rnd.nextInt(6);
        for (int i = 0; i < intDigits; i++) {
            sb.append((char) ('0' + rnd.nextInt(10)));
        }
        if (intDigits == 0 || rnd.nextBoolean()) {
            sb.append('.');
            int frac = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(30) : rnd.nextInt(8));
            for (int i = 0; i < frac; i++) {
                sb.append((char) ('0' + rnd.nextInt(10)));
            }
        }
        if (rnd.nextInt(3) == 0) {
            sb.append(rnd.nextBoolean() ? 'e' : 'E');
            int kind = rnd.nextInt(3);
            if (kind == 1) {
                sb.append('-');
            } else if (kind == 2) {
                sb.append('+');
            }
            sb.append(rnd.nextInt(rnd.nextInt(5) == 0 ? 330 : 30));
        }
        return sb.toString();
    }

    // ---- JSON: visitParam* ----

    @Test
    void visitParamFunctions() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("j", "String");
        cols.put("nj", "Nullable(String)");
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "json",
                        cols,
                        ROWS,
                        b -> {
                            Random rnd = new Random(61);
                            for (int r = 0; r < ROWS; r++) {
                                String v = json(rnd, r);
                                while (!definedForTheServer(v)) {
                                    v = json(rnd, ROWS);
                                }
                                b.column("j").appendString(v);
                                if (r % 7 == 0) {
                                    b.column("nj").appendNull();
                                } else {
                                    b.column("nj").appendString(v);
                                }
                            }
                        });
        for (String name : List.of("a", "b", "missing", "x y")) {
            for (String f :
                    List.of(
                            "visitParamHas",
                            "visitParamExtractUInt",
                            "visitParamExtractInt",
                            "visitParamExtractFloat",
                            "visitParamExtractBool",
                            "visitParamExtractRaw",
                            "visitParamExtractString")) {
                // Floats with an exponent are refused (FloatText).
                int refused = f.equals("visitParamExtractFloat") ? ROWS / 4 : 0;
                s.check(f + "(j, '" + name + "')", refused);
                s.check(f + "(nj, '" + name + "')", refused);
            }
        }
        s.check("visitParamExtractString(j, 'a') = 'x'");
        s.check("toUInt32(visitParamExtractUInt(j, 'a')) + 1");
        s.check("concat(visitParamExtractRaw(j, 'b'), '|', visitParamExtractString(j, 'a'))");
        s.check("visitParamExtractInt('{\"a\":-12}', 'a')");
        s.check("visitParamExtractString('{\"a\":\"\\\\u00e9\"}', 'a')");
        s.checkUnsupported("visitParamExtractInt(j, materialize('a'))");
        s.checkUnsupported("visitParamHas(1, 'a')");
        record(s);
    }

    /**
     * A JSON-ish object whose values 18.16 reads without undefined behaviour (every raw value ends
     * in a {@code ,} or {@code }}): numbers in many forms, strings with escapes, nested objects and
     * arrays that hold the same names, the name inside a string, spaces after the colon.
     */
    private static String json(Random rnd, int r) {
        String[] fixed = {
            "{\"a\":1}",
            "{\"a\":-12,\"b\":2}",
            "{\"a\":\"x\"}",
            "{\"a\": 5}",
            "{\"a\":true,\"b\":false}",
            "{\"b\":{\"a\":[1,2]}}",
            "{\"a\":\"12abc\"}",
            "{\"a\":1.5e3}",
            "{\"a\":+-5}",
            "{\"a\":18446744073709551616}",
            "{\"a\":\"x\\n\\u00e9\\ud83d\\ude00\\\"y\\\\z\\/\\q\"}",
            "{\"a\":\"unterminated}",
            "{\"a\":[1,{\"b\":\"]\"},3],\"b\":{}}",
            "{\"a\":null}",
            "{}",
            "",
            "not json",
            "{\"a\":\"1-2\"}",
            "{\"a\":1-2}",
            "{\"a\":\"tru\"}",
            "{\"a\":truex}",
            "{\"a\":\"\\u0000\"}",
            "{\"a\":\"[\",\"b\":1}",
            "{\"x y\":7}",
            "{\"a\":\"a\":1}",
            "[{\"a\":2},{\"a\":3}]",
            "{\"msg\":\"say \\\"a\\\":9\",\"a\":4}",
        };
        if (r < fixed.length) {
            return fixed[r];
        }
        StringBuilder sb = new StringBuilder("{");
        int fields = 1 + rnd.nextInt(4);
        for (int f = 0; f < fields; f++) {
            if (f > 0) {
                sb.append(',');
            }
            String name = new String[] {"a", "b", "c", "aa", "x y"}[rnd.nextInt(5)];
            sb.append('"').append(name).append("\":");
            if (rnd.nextInt(5) == 0) {
                sb.append(' ');
            }
            sb.append(jsonValue(rnd, 0));
        }
        return sb.append('}').toString();
    }

    /**
     * False for a text on which 18.16's visitParamExtractRaw is undefined (a raw value meeting the
     * end of the text outside brackets): the server would crash on it.
     */
    private static boolean definedForTheServer(String text) {
        Block one = new Block(List.of(ColumnFactory.create("j", "String")), List.of("String"));
        one.column(0).appendString(text);
        Bindings b = new Bindings(java.time.ZoneId.of("UTC")).column("j", TypeParserHolder.STRING);
        for (String name : List.of("a", "b", "missing", "x y")) {
            try {
                CompiledExpression.compile("visitParamExtractRaw(j, '" + name + "')", b)
                        .evaluate(one, 0);
            } catch (UnsupportedValueException e) {
                return false;
            } catch (UnsupportedExpressionException e) {
                throw new AssertionError(e);
            }
        }
        return true;
    }

    private static final class TypeParserHolder {
        static final dev.sluice.clickhouse.types.ClickHouseType STRING =
                dev.sluice.clickhouse.types.TypeParser.parse("String");
    }

    private static String jsonValue(Random rnd, int depth) {
        switch (rnd.nextInt(depth > 2 ? 6 : 9)) {
            case 0 -> {
                return Long.toString(rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(1000));
            }
            case 1 -> {
                return floatText(rnd, 1000);
            }
            case 2 -> {
                return "\"" + Long.toString(rnd.nextInt(100_000) - 50_000) + "\"";
            }
            case 3 -> {
                return rnd.nextBoolean() ? "true" : "false";
            }
            case 4 -> {
                return "null";
            }
            case 5 -> {
                return jsonString(rnd);
            }
            case 6 -> {
                StringBuilder sb = new StringBuilder("[");
                int n = rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(jsonValue(rnd, depth + 1));
                }
                return sb.append(']').toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder("{");
                int n = rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "")
                            .append("\"")
                            .append(new String[] {"a", "b", "z"}[rnd.nextInt(3)])
                            .append("\":")
                            .append(jsonValue(rnd, depth + 1));
                }
                return sb.append('}').toString();
            }
        }
    }

    private static String jsonString(Random rnd) {
        StringBuilder sb = new StringBuilder("\"");
        int n = rnd.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(14)) {
                case 0 -> sb.append("\\n");
                case 1 -> sb.append("\\\"");
                case 2 -> sb.append("\\\\");
                case 3 -> sb.append(String.format("\\u%04x", rnd.nextInt(0xD800)));
                case 4 -> sb.append("\\ud83d\\ude00");
                case 5 -> sb.append("é");
                case 6 -> sb.append("\\t");
                case 7 -> sb.append("\\/");
                case 8 -> sb.append(new String[] {"[", "]", "{", "}", ",", ":"}[rnd.nextInt(6)]);
                default -> sb.append((char) ('a' + rnd.nextInt(26)));
            }
        }
        return sb.append('"').toString();
    }

    // ---- Data ----

    private static void numbers(Block b, long seed) {
        Random rnd = new Random(seed);
        for (String t : INT_TYPES) {
            fillInt(b.column(col(t)), t, rnd, ROWS);
        }
        fillFloat(b.column("f32"), rnd, ROWS, true);
        fillFloat(b.column("f64"), rnd, ROWS, false);
        fillInt(b.column("ni"), "Int32", rnd, ROWS);
        nullEvery(b.column("ni"), 5);
        fillFloat(b.column("nf"), rnd, ROWS, false);
        nullEveryFloat(b.column("nf"), 4);
    }

    /** Rebuilds a Nullable float column with every k-th row NULL. */
    private static void nullEveryFloat(Column c, int k) {
        List<Double> values = new ArrayList<>();
        for (int r = 0; r < c.rows(); r++) {
            values.add(c.getDouble(r));
        }
        c.reset();
        for (int r = 0; r < values.size(); r++) {
            if (r % k == 3) {
                c.appendNull();
            } else {
                c.appendDouble(values.get(r));
            }
        }
    }

    /** Small values, so that IN lists and equalities hit. */
    private static void smallInts(Column c, String type, Random rnd) {
        long[] limits = FunctionsServerIT.limits(type);
        for (int r = 0; r < ROWS; r++) {
            long v =
                    switch (rnd.nextInt(6)) {
                        case 0 -> limits[0];
                        case 1 -> limits[1];
                        default -> rnd.nextInt(5) - (type.startsWith("U") ? 0 : 2);
                    };
            if (type.equals("UInt64")) {
                c.appendUnsignedLong(v);
            } else {
                c.appendLong(v);
            }
        }
    }

    private static double smallFloat(Random rnd) {
        double[] values = {0, -0.0, 0.5, 1, -0.5, 16777217, 0.1, Double.NaN, 2, 1.5};
        return values[rnd.nextInt(values.length)];
    }

    /** Swaps about half of a string column's values with others, so that some rows are equal. */
    private static void shuffleHalf(Column c, Random rnd) {
        List<byte[]> values = new ArrayList<>();
        for (int r = 0; r < c.rows(); r++) {
            values.add(((StringColumn) c).getBytes(r));
        }
        for (int r = 0; r < values.size(); r += 2) {
            int k = rnd.nextInt(values.size());
            byte[] t = values.get(r);
            values.set(r, values.get(k));
            values.set(k, t);
        }
        c.reset();
        for (byte[] v : values) {
            c.appendBytes(v, 0, v.length);
        }
    }
}
