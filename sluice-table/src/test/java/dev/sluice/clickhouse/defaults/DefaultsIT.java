package dev.sluice.clickhouse.defaults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DEFAULT values filled client-side equal the server's: the same NDJSON rows, with each field with
 * a DEFAULT present or absent at random, go into two identical tables, once through {@code
 * clickhouse-client ... FORMAT JSONEachRow} with the server's defaults for omitted fields, once as
 * a {@link Block} filled by {@link DefaultFiller} (and, for the expressions it leaves to the
 * server, split by {@link DefaultGroups}). Every value must match; {@code now()} and {@code
 * today()} within the seconds between the two inserts.
 */
class DefaultsIT {
    private static final int ROWS = 3000;

    /** name, type, DEFAULT (null for none); in table order. */
    private static final String[][] COLUMNS = {
        {"id", "UInt32", null},
        {"n", "Int32", null},
        {"s", "String", null},
        {"ts", "DateTime", null},
        {"d_u8", "UInt8", "7"},
        {"d_i64", "Int64", "-5"},
        {"d_f32", "Float32", "-0.5"},
        {"d_f64", "Float64", "0.1"},
        {"d_str", "String", "'it\\'s'"},
        {"d_date", "Date", "'2020-01-02'"},
        {"d_dt", "DateTime", "toDateTime('2020-01-01 00:00:00')"},
        {"d_dtz", "DateTime('Asia/Kolkata')", "'2020-01-01 10:00:00'"},
        {"d_null", "Nullable(String)", "NULL"},
        {"d_nint", "Nullable(Int32)", "3"},
        {"d_enum", "Enum8('a' = 1, 'b' = 2)", "'b'"},
        {"d_fs", "FixedString(4)", "'ab'"},
        {"d_lc", "LowCardinality(String)", "'lc'"},
        {"d_now", "DateTime", "now()"},
        {"d_today", "Date", "today()"},
        {"d_hour", "DateTime", "toStartOfHour(now())"},
        {"d_sum", "Int64", "n * 2 + 1"},
        {"d_div", "Float64", "n / 3"},
        {"d_mod", "Int8", "n % 7"},
        {"d_lower", "String", "lower(s)"},
        {"d_upper", "String", "upper(s)"},
        {"d_len", "UInt64", "length(s)"},
        {"d_sub", "String", "substring(s, 2, 3)"},
        {"d_cat", "String", "concat(s, '-', toString(n))"},
        {"d_tostr", "String", "toString(ts)"},
        {"d_day", "Date", "toDate(ts)"},
        {"d_month", "UInt32", "toYYYYMM(ts)"},
        {"d_hash", "UInt64", "cityHash64(s, n)"},
        {"d_ih", "UInt32", "intHash32(id)"},
        {"d_u16", "UInt16", "toUInt16(n)"},
        {"d_casted", "UInt8", "n + 1000"},
        {"d_chain", "String", "upper(d_str)"},
        {"d_rev", "String", "reverse(s)"},
        {"d_if", "String", "if(n > 0, 'pos', 'neg')"},
        {"d_multi", "String", "multiIf(n < 0, 'neg', n = 0, 'zero', 'pos')"},
        {"d_in", "UInt8", "n IN (1, 2, 3) OR s = 'x'"},
        {"d_json", "Int64", "visitParamExtractInt(s, 'a')"},
        {"d_lower_utf8", "String", "lowerUTF8(s)"}
    };

    private static final List<String> CLOCK = List.of("d_now", "d_today", "d_hour");
    private static final List<String> LEFT_TO_SERVER = List.of("d_rev", "d_lower_utf8");

    @Test
    void clientSideDefaultsEqualTheServers() throws Exception {
        String theirs = create("defaults_server");
        String ours = create("defaults_client");
        Random rnd = new Random(42);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            rows.add(row(rnd, r));
        }
        StringBuilder ndjson = new StringBuilder();
        for (Map<String, Object> row : rows) {
            ndjson.append(json(row)).append('\n');
        }
        try (NativeConnection c = TestServer.connect()) {
            TableSchema schema = SchemaDiscovery.describe(c, ours);
            List<String> names = new ArrayList<>();
            for (TableSchema.Column col : schema.insertableColumns()) {
                names.add(col.name());
            }
            DefaultsPlan plan =
                    DefaultsPlan.of(
                            schema,
                            names,
                            Bindings.zone(c.server().timezone()),
                            DefaultsOptions.forServer(c.server()));
            for (DefaultsPlan.Decision d : plan.decisions()) {
                DefaultsPlan.Action expected =
                        d.expression().isEmpty()
                                ? DefaultsPlan.Action.NONE
                                : LEFT_TO_SERVER.contains(d.column())
                                        ? DefaultsPlan.Action.SERVER
                                        : DefaultsPlan.Action.CLIENT;
                assertThat(d.action()).as("%s: %s", d.column(), d.reason()).isEqualTo(expected);
            }

            long before = System.currentTimeMillis() / 1000;
            clickhouseClient("INSERT INTO " + theirs + " FORMAT JSONEachRow", ndjson.toString());

            Block block = emptyBlock(schema, names);
            AbsentRows absent = new AbsentRows(names.size());
            for (Map<String, Object> row : rows) {
                for (int i = 0; i < names.size(); i++) {
                    Column col = block.column(i);
                    if (!row.containsKey(names.get(i))) {
                        col.appendDefault(); // what a decoder appends for a missing field
                        absent.markAbsent(i, col.rows() - 1);
                    } else {
                        append(col, row.get(names.get(i)));
                    }
                }
            }
            List<Integer> left =
                    plan.newFiller().fill(block, absent, System.currentTimeMillis() / 1000);
            List<String> leftNames = new ArrayList<>();
            for (int i : left) {
                leftNames.add(names.get(i));
            }
            assertThat(leftNames).containsExactlyInAnyOrderElementsOf(LEFT_TO_SERVER);
            List<DefaultGroups.Group> groups = DefaultGroups.split(block, absent, left);
            assertThat(groups).hasSize(4); // both, either or neither field missing
            int sent = 0;
            for (DefaultGroups.Group g : groups) {
                c.insert(ours, g.block(), Map.of(), null);
                sent += g.block().rows();
            }
            assertThat(sent).isEqualTo(ROWS);
            long after = System.currentTimeMillis() / 1000;

            compare(c, theirs, ours, names, after - before);
        }
    }

    private static void compare(
            NativeConnection c, String theirs, String ours, List<String> names, long seconds) {
        List<List<Object>> a = c.queryRows("SELECT * FROM " + theirs + " ORDER BY id");
        List<List<Object>> b = c.queryRows("SELECT * FROM " + ours + " ORDER BY id");
        assertThat(b).hasSize(ROWS);
        assertThat(a).hasSize(ROWS);
        List<String> mismatches = new ArrayList<>();
        int compared = 0;
        for (int r = 0; r < ROWS; r++) {
            for (int i = 0; i < names.size(); i++) {
                Object x = normalize(a.get(r).get(i));
                Object y = normalize(b.get(r).get(i));
                compared++;
                if (CLOCK.contains(names.get(i))) {
                    long dx = ((Number) x).longValue();
                    long dy = ((Number) y).longValue();
                    long tolerance =
                            names.get(i).equals("d_today")
                                    ? 1
                                    : names.get(i).equals("d_hour") ? 3600 : seconds + 2;
                    if (Math.abs(dx - dy) > tolerance) {
                        mismatches.add(
                                "row " + r + " " + names.get(i) + ": server " + x + ", ours " + y);
                    }
                } else if (!x.equals(y)) {
                    mismatches.add(
                            "row " + r + " " + names.get(i) + ": server " + x + ", ours " + y);
                }
            }
        }
        assertThat(mismatches).isEmpty();
        System.out.println("defaults: " + compared + " values compared with clickhouse-client's");
    }

    private static Object normalize(Object v) {
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return v == null ? "NULL" : v;
    }

    /** One NDJSON row: id and the plain columns always, each column with a default at random. */
    private static Map<String, Object> row(Random rnd, int id) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", (long) id);
        if (rnd.nextInt(10) != 0) {
            row.put("n", (long) (rnd.nextInt(4) == 0 ? rnd.nextInt() : rnd.nextInt(2001) - 1000));
        }
        String[] pool = {
            "", "abc", "Hello World", "ÄÖÜ straße", "日本語", "x-y_z", "MiXeD 123", "x", "{\"a\":-42,"
        };
        row.put(
                "s",
                pool[rnd.nextInt(pool.length)] + (rnd.nextBoolean() ? "" : Integer.toString(id)));
        row.put("ts", 1_500_000_000L + (rnd.nextLong() & 0xFFFFFFFL));
        for (String[] col : COLUMNS) {
            if (col[2] == null || rnd.nextBoolean()) {
                continue;
            }
            Object v =
                    switch (col[1]) {
                        case "UInt8" -> (long) rnd.nextInt(256);
                        case "UInt16", "UInt32" -> (long) rnd.nextInt(60000);
                        case "UInt64" -> (long) rnd.nextInt(Integer.MAX_VALUE);
                        case "Int8" -> (long) (rnd.nextInt(256) - 128);
                        case "Int64", "Nullable(Int32)" ->
                                rnd.nextInt(5) == 0 && col[1].startsWith("Nullable")
                                        ? null
                                        : (long) rnd.nextInt();
                        case "Float32" -> rnd.nextInt(100) / 8.0;
                        case "Float64" -> rnd.nextInt(100000) / 16.0;
                        case "Date" -> LocalDate.ofEpochDay(10000 + rnd.nextInt(10000));
                        case "Enum8('a' = 1, 'b' = 2)" -> rnd.nextBoolean() ? "a" : "b";
                        case "FixedString(4)" -> pool[1 + rnd.nextInt(2)].substring(0, 2);
                        case "Nullable(String)" ->
                                rnd.nextInt(3) == 0 ? null : pool[rnd.nextInt(pool.length)];
                        default ->
                                col[1].startsWith("DateTime")
                                        ? (Object) (1_400_000_000L + rnd.nextInt(1 << 28))
                                        : pool[rnd.nextInt(pool.length)] + "!";
                    };
            row.put(col[0], v);
        }
        return row;
    }

    private static String json(Map<String, Object> row) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : row.entrySet()) {
            sb.append(sb.length() > 1 ? "," : "").append('"').append(e.getKey()).append("\":");
            Object v = e.getValue();
            String type = typeOf(e.getKey());
            if (v == null) {
                sb.append("null");
            } else if (type.startsWith("DateTime")) {
                sb.append('"').append(v).append('"'); // epoch seconds: no time zone involved
            } else if (v instanceof String || v instanceof LocalDate) {
                sb.append('"')
                        .append(v.toString().replace("\\", "\\\\").replace("\"", "\\\""))
                        .append('"');
            } else {
                sb.append(v);
            }
        }
        return sb.append('}').toString();
    }

    private static String typeOf(String column) {
        for (String[] c : COLUMNS) {
            if (c[0].equals(column)) {
                return c[1];
            }
        }
        throw new IllegalArgumentException(column);
    }

    private static void append(Column c, Object v) {
        if (v == null) {
            c.appendNull();
        } else if (v instanceof LocalDate d) {
            c.appendLong(d.toEpochDay());
        } else if (v instanceof Long l) {
            c.appendLong(l);
        } else if (v instanceof Double d) {
            c.appendDouble(d);
        } else {
            c.appendString((String) v);
        }
    }

    private static Block emptyBlock(TableSchema schema, List<String> names) {
        List<String> types = new ArrayList<>();
        for (String n : names) {
            types.add(schema.column(n).typeName());
        }
        return Block.forHeader(names, types);
    }

    private static String create(String prefix) {
        String table = TestServer.newTable(prefix);
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (");
        for (int i = 0; i < COLUMNS.length; i++) {
            String[] c = COLUMNS[i];
            ddl.append(i > 0 ? ", " : "").append(c[0]).append(' ').append(c[1]);
            if (c[2] != null) {
                ddl.append(" DEFAULT ").append(c[2]);
            }
        }
        ddl.append(", m String MATERIALIZED lower(s)) ENGINE = MergeTree ORDER BY id");
        try (NativeConnection c = TestServer.connect()) {
            c.execute(ddl.toString(), Map.of("allow_experimental_low_cardinality_type", "1"));
        }
        return table;
    }

    /** clickhouse-client with the server's defaults for omitted JSONEachRow fields. */
    private static void clickhouseClient(String query, String stdin)
            throws IOException, InterruptedException {
        ConnectionConfig c = TestServer.config();
        String bin = TestServer.env("CLICKHOUSE_CLIENT_BIN");
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                bin == null ? "clickhouse-client" : bin,
                                "--host",
                                c.host(),
                                "--port",
                                Integer.toString(c.port()),
                                "--user",
                                c.user(),
                                "--insert_sample_with_metadata=1",
                                "--allow_experimental_low_cardinality_type=1",
                                "--query",
                                query));
        if (!c.password().isEmpty()) {
            cmd.add("--password");
            cmd.add(c.password().reveal());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
