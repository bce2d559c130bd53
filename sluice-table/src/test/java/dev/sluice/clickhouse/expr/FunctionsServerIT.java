package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
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
 * Every function the evaluator supports, computed by the test server and by the evaluator over the
 * same rows: edge values first (0, -1, the type's limits, empty and UTF-8 strings, dates at 1970
 * and around 2106, time zones with DST and half-hour offsets), then seeded random ones. Types and
 * values must match in every row. The number of values compared per function is printed.
 */
class FunctionsServerIT {
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

    // ---- Data ----

    static final String[] INT_TYPES = {
        "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64"
    };

    static long[] limits(String type) {
        return switch (type) {
            case "UInt8" -> new long[] {0, 255};
            case "UInt16" -> new long[] {0, 65535};
            case "UInt32" -> new long[] {0, 0xFFFF_FFFFL};
            case "UInt64" -> new long[] {0, -1};
            case "Int8" -> new long[] {-128, 127};
            case "Int16" -> new long[] {-32768, 32767};
            case "Int32" -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
            default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        };
    }

    private static int bits(String type) {
        return switch (type) {
            case "UInt8", "Int8" -> 8;
            case "UInt16", "Int16" -> 16;
            case "UInt32", "Int32" -> 32;
            default -> 64;
        };
    }

    /** {@code v} wrapped into {@code type}, as its bits. */
    private static long wrap(long v, String type) {
        int bits = bits(type);
        if (bits == 64) {
            return v;
        }
        return type.startsWith("U") ? v & ((1L << bits) - 1) : (v << (64 - bits)) >> (64 - bits);
    }

    private static long randomIn(Random rnd, String type) {
        long v = rnd.nextLong();
        if (rnd.nextInt(4) == 0) {
            v = rnd.nextInt(2001) - 1000; // small values, near zero, hit more branches
        }
        return wrap(v, type);
    }

    static void fillInt(Column c, String type, Random rnd, int rows) {
        long[] l = limits(type);
        long[] edges = {0, 1, 2, l[0], l[1], l[0] + 1, l[1] - 1, 7, 100, 1000, -1};
        for (int r = 0; r < rows; r++) {
            long v = wrap(r < edges.length ? edges[r] : randomIn(rnd, type), type);
            if (type.equals("UInt64")) {
                c.appendUnsignedLong(v);
            } else {
                c.appendLong(v);
            }
        }
    }

    static final double[] FLOAT_EDGES = {
        0.0,
        -0.0,
        1.5,
        -1.5,
        0.1,
        1e21,
        1e20,
        1e-6,
        1e-7,
        123456.789,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE,
        Double.MAX_VALUE,
        16777217,
        9007199254740993.0,
        1.0 / 3,
        2.5e-5,
        100
    };

    static void fillFloat(Column c, Random rnd, int rows, boolean single) {
        for (int r = 0; r < rows; r++) {
            double v;
            if (r < FLOAT_EDGES.length) {
                v = FLOAT_EDGES[r];
            } else {
                v =
                        switch (rnd.nextInt(4)) {
                            case 0 -> Double.longBitsToDouble(rnd.nextLong());
                            case 1 -> rnd.nextGaussian() * Math.pow(10, rnd.nextInt(40) - 20);
                            case 2 -> rnd.nextInt(100000) / 100.0;
                            default -> (double) rnd.nextLong();
                        };
            }
            if (single
                    && !Double.isNaN(v)
                    && !Double.isInfinite(v)
                    && Math.abs(v) > Float.MAX_VALUE) {
                v = Math.signum(v) * Float.MAX_VALUE;
            }
            c.appendDouble(v);
        }
    }

    static final String[] STRING_EDGES = {
        "",
        "a",
        "abc",
        "Moscow",
        "ÄÖÜ äöü",
        "日本語テキスト",
        "emoji 😀 here",
        "tab\there",
        "UPPER lower 123",
        "0123456789abcdef",
        "0123456789abcdefg",
        "x".repeat(31),
        "x".repeat(32),
        "y".repeat(33),
        "z".repeat(64),
        "w".repeat(65),
        "v".repeat(127),
        "u".repeat(128),
        "t".repeat(129),
        "long ".repeat(100),
        "\0nul",
        "Ωmega",
        "-12",
        "+7",
        "300",
        "2020-01-02",
        "2020-01-02 03:04:05"
    };

    static void fillString(Column c, Random rnd, int rows) {
        for (int r = 0; r < rows; r++) {
            if (r < STRING_EDGES.length) {
                c.appendString(STRING_EDGES[r]);
                continue;
            }
            int len = rnd.nextInt(4) == 0 ? rnd.nextInt(300) : rnd.nextInt(20);
            byte[] b = new byte[len];
            if (rnd.nextBoolean()) {
                for (int k = 0; k < len; k++) {
                    b[k] = (byte) (32 + rnd.nextInt(95));
                }
                c.appendBytes(b);
            } else {
                StringBuilder sb = new StringBuilder();
                for (int k = 0; k < len; k++) {
                    sb.appendCodePoint(
                            rnd.nextInt(3) == 0 ? 0x400 + rnd.nextInt(200) : 'A' + rnd.nextInt(58));
                }
                c.appendString(sb.toString());
            }
        }
    }

    static final long[] DATE_EDGES = {
        0, 1, 2, 3, 4, 5, 6, 7, 30, 31, 58, 59, 364, 365, 10957, 18262, 49708, 49709, 49710, 49711,
        65534, 65535
    };

    static void fillDate(Column c, Random rnd, int rows) {
        for (int r = 0; r < rows; r++) {
            c.appendLong(
                    r < DATE_EDGES.length
                            ? DATE_EDGES[r]
                            : rnd.nextInt(rnd.nextInt(8) == 0 ? 65536 : 50000));
        }
    }

    static final long[] TIME_EDGES = {
        0,
        1,
        3599,
        3600,
        3601,
        10799,
        10800,
        19799,
        19800,
        86399,
        86400,
        86401,
        1_000_000_000L,
        1_500_000_000L,
        0x7FFF_FFFFL,
        0x8000_0000L,
        4294857599L,
        4294857600L,
        4294880895L,
        4294880896L,
        4294943999L,
        4294944000L,
        4294967295L,
        // DST transitions: Moscow 2011-03-27, New York 2020-03-08 and 2020-11-01
        1301180399L,
        1301180400L,
        1583650799L,
        1583650800L,
        1604210399L,
        1604210400L,
        1604213999L
    };

    static void fillTime(Column c, Random rnd, int rows) {
        for (int r = 0; r < rows; r++) {
            long v;
            if (r < TIME_EDGES.length) {
                v = TIME_EDGES[r];
            } else if (rnd.nextInt(10) == 0) {
                v = rnd.nextLong() & 0xFFFF_FFFFL;
            } else {
                v = 1_300_000_000L + (rnd.nextLong() & 0x3FFF_FFFFL) % 500_000_000L;
            }
            c.appendLong(v);
        }
    }

    private static final String[] ZONES = {
        "Europe/Moscow", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"
    };

    // ---- Tests ----

    @Test
    void hashes() {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String t : INT_TYPES) {
            cols.put("c" + t.toLowerCase(), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        cols.put("s", "String");
        cols.put("fs", "FixedString(5)");
        cols.put("d", "Date");
        cols.put("dt", "DateTime");
        cols.put("ns", "Nullable(String)");
        cols.put("ni", "Nullable(Int32)");
        cols.put("lcs", "LowCardinality(String)");
        ServerComparison s =
                new ServerComparison(
                        connection, "fn_hash", cols, ROWS, b -> fill(b, new Random(1)));
        for (String t : INT_TYPES) {
            String c = "c" + t.toLowerCase();
            s.check("intHash32(" + c + ")");
            s.check("intHash64(" + c + ")");
            s.check("cityHash64(" + c + ")");
        }
        for (String c : List.of("f32", "f64", "s", "fs", "d", "dt", "ns", "ni", "lcs")) {
            s.check("cityHash64(" + c + ")");
        }
        s.check("intHash32(d)");
        s.check("intHash32(dt)");
        s.check("intHash64(dt)");
        s.check("cityHash64(s, cint32)");
        s.check("cityHash64(cuint64, s, f64, d)");
        s.check("cityHash64('a', 1)");
        s.check("cityHash64(s, 'x', fs, ni)");
        s.check("intHash32(cuint64 + 1)");
        s.checkUnsupported("intHash32(f64)");
        record(s);
    }

    private static final String[] DATE_FUNCTIONS = {
        "toDate",
        "toStartOfMinute",
        "toStartOfFiveMinute",
        "toStartOfFifteenMinutes",
        "toStartOfHour",
        "toStartOfDay",
        "toMonday",
        "toStartOfMonth",
        "toStartOfQuarter",
        "toStartOfYear",
        "toYYYYMM",
        "toYYYYMMDD",
        "toYear",
        "toMonth",
        "toDayOfMonth",
        "toDayOfWeek",
        "toHour",
        "toMinute",
        "toSecond"
    };

    private static final String[] DAY_FUNCTIONS = {
        "toDate",
        "toMonday",
        "toStartOfMonth",
        "toStartOfQuarter",
        "toStartOfYear",
        "toYYYYMM",
        "toYYYYMMDD",
        "toYear",
        "toMonth",
        "toDayOfMonth",
        "toDayOfWeek"
    };

    @Test
    void datesAndTimes() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("d", "Date");
        cols.put("dt", "DateTime");
        for (int z = 0; z < ZONES.length; z++) {
            cols.put("z" + z, "DateTime('" + ZONES[z] + "')");
        }
        cols.put("nd", "Nullable(Date)");
        ServerComparison s =
                new ServerComparison(
                        connection, "fn_date", cols, ROWS, b -> fillDates(b, new Random(2)));
        for (String f : DAY_FUNCTIONS) {
            s.check(f + "(d)");
            s.check(f + "(nd)");
        }
        for (String f : DATE_FUNCTIONS) {
            s.check(f + "(dt)");
            for (int z = 0; z < ZONES.length; z++) {
                s.check(f + "(z" + z + ")");
            }
            s.check(f + "(dt, 'Asia/Kolkata')");
        }
        for (String col : List.of("d", "dt", "z0", "z1", "z2", "z3", "nd")) {
            // 1970-01-01 before the first local midnight (Moscow, Kolkata, Lord Howe) has no text.
            s.check("toString(" + col + ")", 12);
            s.check("toDateTime(" + col + ")");
            s.check("toDate(" + col + ")");
            s.check("toUInt32(" + col + ")");
            s.check("toInt16(" + col + ")");
            s.check("toFloat64(" + col + ")");
        }
        s.check("toDateTime(d, 'Europe/Moscow')");
        s.check("CAST(d, 'DateTime(\\'America/New_York\\')')");
        s.check("CAST(dt, 'Date')");
        s.check("CAST(z0, 'Date')");
        s.check("CAST(z2, 'DateTime')");
        s.check("toDateTime(z1, 'Asia/Kolkata')");
        s.check("toString(toDateTime(dt, 'Asia/Kolkata'))", 12);
        s.check("dt + 3600");
        s.check("dt - 1");
        s.check("d + 1");
        s.check("d - 30");
        s.check("1 + d");
        s.check("toStartOfHour(dt + 1800)");
        s.checkUnsupported("toStartOfHour(d)");
        record(s);
    }

    private static void fillDates(Block b, Random rnd) {
        for (int i = 1; i < b.columnCount(); i++) {
            Column c = b.column(i);
            if (b.typeName(i).equals("Date")) {
                fillDate(c, rnd, ROWS);
            } else if (b.typeName(i).equals("Nullable(Date)")) {
                for (int r = 0; r < ROWS; r++) {
                    if (r % 6 == 2) {
                        c.appendNull();
                    } else {
                        c.appendLong(rnd.nextInt(65536));
                    }
                }
            } else {
                fillTime(c, rnd, ROWS);
            }
        }
    }

    @Test
    void arithmetic() {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String t : INT_TYPES) {
            cols.put("c" + t.toLowerCase(), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        cols.put("ni", "Nullable(Int32)");
        ServerComparison s =
                new ServerComparison(
                        connection, "fn_arith", cols, ROWS, b -> fill(b, new Random(3)));
        List<String> nums = new ArrayList<>();
        for (String t : INT_TYPES) {
            nums.add("c" + t.toLowerCase());
        }
        nums.add("f32");
        nums.add("f64");
        for (String a : nums) {
            s.check("-" + a);
            for (String b : nums) {
                s.check(a + " + " + b);
                s.check(a + " - " + b);
                s.check(a + " * " + b);
                s.check(a + " / " + b);
            }
            s.check(a + " + 1000");
            s.check(a + " * -3");
            s.check(a + " - 0.5");
        }
        for (String a : nums.subList(0, 8)) {
            for (String k : List.of("1", "3", "7", "100", "127")) {
                s.check("intDiv(" + a + ", " + k + ")");
                s.check(a + " % " + k);
            }
        }
        s.check("intDiv(cint64, 1000)");
        s.check("intDiv(cint32, 100000)");
        s.check("cint32 % 100000");
        s.check("intDiv(cint64, 4294967296)");
        s.check("cint16 % 1000");
        s.check("intDiv(cuint64, 1000)");
        s.check("cint64 % 16");
        s.check("ni + 1");
        s.check("ni * cint8");
        s.check("-ni");
        s.check("(cuint8 * 2) + 1");
        s.check("intDiv(cint8, 1000)");
        s.check("intDiv(cint64, 18446744073709551615)");
        s.checkUnsupported("cint64 % -1");
        record(s);
    }

    @Test
    void integerDivisionByColumns() {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String t : INT_TYPES) {
            cols.put("c" + t.toLowerCase(), t);
        }
        ServerComparison s =
                new ServerComparison(
                        connection,
                        "fn_div",
                        cols,
                        ROWS,
                        b -> {
                            fill(b, new Random(4));
                            noZerosOrMinusOne(b);
                        });
        for (String a : INT_TYPES) {
            for (String b : INT_TYPES) {
                s.check("intDiv(c" + a.toLowerCase() + ", c" + b.toLowerCase() + ")");
                s.check("c" + a.toLowerCase() + " % c" + b.toLowerCase());
            }
        }
        record(s);
    }

    /** Divisors must be non-zero and not -1 (the server refuses MIN / -1). */
    private static void noZerosOrMinusOne(Block b) {
        for (int i = 1; i < b.columnCount(); i++) {
            Column c = b.column(i);
            List<Long> values = new ArrayList<>();
            for (int r = 0; r < c.rows(); r++) {
                long v = c.getLong(r);
                values.add(v == 0 || v == -1 ? 3 : v);
            }
            c.reset();
            for (long v : values) {
                if (b.typeName(i).equals("UInt64")) {
                    c.appendUnsignedLong(v);
                } else {
                    c.appendLong(v);
                }
            }
        }
    }

    @Test
    void stringsAndConversions() {
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("s", "String");
        cols.put("ns", "Nullable(String)");
        cols.put("fs", "FixedString(5)");
        cols.put("lcs", "LowCardinality(String)");
        for (String t : INT_TYPES) {
            cols.put("c" + t.toLowerCase(), t);
        }
        cols.put("f32", "Float32");
        cols.put("f64", "Float64");
        ServerComparison s =
                new ServerComparison(connection, "fn_str", cols, ROWS, b -> fill(b, new Random(5)));
        for (String c : List.of("s", "ns", "lcs")) {
            s.check("lower(" + c + ")");
            s.check("upper(" + c + ")");
            s.check("length(" + c + ")");
            s.check("lengthUTF8(" + c + ")");
            s.check("empty(" + c + ")");
            s.check("notEmpty(" + c + ")");
            s.check("concat(" + c + ", '!')");
            s.check("concat('<', " + c + ", '|', " + c + ", '>')");
            s.check(c + " || 'x'");
            s.check("toString(" + c + ")");
            for (int o : new int[] {-300, -8, -7, -6, -3, -1, 1, 2, 6, 7, 8, 200}) {
                s.check("substring(" + c + ", " + o + ")");
                for (int l : new int[] {0, 1, 2, 5, 6, 7, 10, 100}) {
                    s.check("substring(" + c + ", " + o + ", " + l + ")");
                }
            }
        }
        s.check("length(fs)");
        s.check("concat(s, fs)");
        s.check("cityHash64(concat(s, 'salt'))");
        for (String t : INT_TYPES) {
            String c = "c" + t.toLowerCase();
            s.check("toString(" + c + ")");
            for (String to : INT_TYPES) {
                s.check("to" + to + "(" + c + ")");
            }
            s.check("toFloat32(" + c + ")");
            s.check("toFloat64(" + c + ")");
            s.check("CAST(" + c + ", 'String')");
        }
        s.check("toString(f64)");
        s.check("toString(f32)");
        s.check("toFloat32(f64)");
        s.check("toFloat64(f32)");
        s.check("toString(cuint8 * 2 + 1)");
        s.check("toString(ns)");
        s.check("CAST(s, 'Nullable(String)')");
        s.check("CAST(NULL, 'Nullable(String)')");
        s.check("toUInt8('5')");
        s.check("toInt64('-9223372036854775808')");
        s.check("toUInt64('18446744073709551615')");
        s.check("toDate('2020-01-02')");
        s.check("toDate('2105-12-31')");
        s.check("toDate('1970-01-01')");
        s.check("toDateTime('2020-01-02 03:04:05')");
        s.check("toDateTime('2011-03-27 02:30:00', 'Europe/Moscow')");
        s.check("CAST('2020-01-02 03:04:05', 'DateTime(\\'Asia/Kolkata\\')')");
        s.check("CAST(-5, 'Int64')");
        s.check("CAST(1, 'Float32')");
        s.check("CAST(-0.5, 'Float32')");
        s.check("CAST('it\\'s', 'String')");
        s.check("toString(1.5)");
        s.check("toString(-0.)");
        s.check("toString(1e300)");
        s.check("toString(nan)");
        s.check("toString(-inf)");
        s.check("toFixedString('ab', 5)");
        record(s);
    }

    private static void fill(Block b, Random rnd) {
        for (int i = 1; i < b.columnCount(); i++) {
            Column c = b.column(i);
            String type = b.typeName(i);
            switch (type) {
                case "Float32" -> fillFloat(c, rnd, ROWS, true);
                case "Float64" -> fillFloat(c, rnd, ROWS, false);
                case "String", "LowCardinality(String)" -> fillString(c, rnd, ROWS);
                case "FixedString(5)" -> {
                    for (int r = 0; r < ROWS; r++) {
                        String v = STRING_EDGES[r % STRING_EDGES.length];
                        byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                        c.appendBytes(bytes, 0, Math.min(5, bytes.length));
                    }
                }
                case "Date" -> fillDate(c, rnd, ROWS);
                case "Nullable(String)" -> {
                    fillString(c, rnd, ROWS);
                    nullEvery(c, 7);
                }
                case "Nullable(Int32)" -> {
                    fillInt(c, "Int32", rnd, ROWS);
                    nullEvery(c, 5);
                }
                default -> {
                    if (type.startsWith("DateTime")) {
                        fillTime(c, rnd, ROWS);
                    } else {
                        fillInt(c, type, rnd, ROWS);
                    }
                }
            }
        }
    }

    /** Rebuilds a Nullable column with every k-th row NULL. */
    static void nullEvery(Column c, int k) {
        List<Object> values = new ArrayList<>();
        for (int r = 0; r < c.rows(); r++) {
            values.add(c.getObject(r));
        }
        c.reset();
        for (int r = 0; r < values.size(); r++) {
            Object v = values.get(r);
            if (r % k == 3) {
                c.appendNull();
            } else if (v instanceof String str) {
                c.appendString(str);
            } else {
                c.appendLong((Long) v);
            }
        }
    }
}
