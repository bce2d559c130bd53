package dev.sluice.clickhouse.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.it.TestServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The server reads what {@link RowBinaryWriter} writes: rows of every 18.16 type are posted over
 * HTTP as {@code FORMAT RowBinary} and read back with the native client, value for value.
 */
class RowBinaryHttpIT {
    private static final int ROWS = 2000;

    /** name, type: the table's columns; the block uses the same type names. */
    private static final String[][] COLUMNS = {
        {"id", "UInt32"},
        {"i8", "Int8"},
        {"i64", "Int64"},
        {"u64", "UInt64"},
        {"f32", "Float32"},
        {"f64", "Float64"},
        {"s", "String"},
        {"fs", "FixedString(4)"},
        {"d", "Date"},
        {"dt", "DateTime"},
        {"dec", "Decimal(18, 4)"},
        {"dec128", "Decimal(38, 10)"},
        {"uuid", "UUID"},
        {"e8", "Enum8('a' = -128, 'b' = 0, 'c' = 127)"},
        {"e16", "Enum16('x' = -1000, 'y' = 1000)"},
        {"ns", "Nullable(String)"},
        {"ni", "Nullable(Int32)"},
        {"arr", "Array(Nullable(Int32))"},
        {"nested", "Array(Array(String))"},
        {"t", "Tuple(String, Int64)"},
        {"lc", "LowCardinality(String)"},
        {"lcn", "LowCardinality(Nullable(String))"},
    };

    @Test
    void serverReadsEveryTypeBackUnchanged() throws Exception {
        String url = TestServer.url();
        String table = TestServer.newTable("rowbinary");
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(table).append(" (");
        List<Column> columns = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (int i = 0; i < COLUMNS.length; i++) {
            ddl.append(i == 0 ? "" : ", ").append(COLUMNS[i][0]).append(' ').append(COLUMNS[i][1]);
            columns.add(ColumnFactory.create(COLUMNS[i][0], COLUMNS[i][1]));
            types.add(COLUMNS[i][1]);
        }
        ddl.append(") ENGINE = MergeTree ORDER BY id");
        Block block = new Block(columns, types);
        fill(block);
        WireOutput body = new WireOutput(1 << 16);
        RowBinaryWriter.forBlock(block).writeAll(body);

        try (NativeConnection c = TestServer.connect()) {
            c.execute(ddl.toString(), Map.of("allow_experimental_low_cardinality_type", "1"));
            post(ConnectionConfig.parse(url), table, body.toByteArray());

            List<List<Object>> back = c.queryRows("SELECT * FROM " + table + " ORDER BY id");

            assertThat(back).hasSize(ROWS);
            for (int r = 0; r < ROWS; r++) {
                List<Object> expected = new ArrayList<>();
                for (Column col : block.columns()) {
                    expected.add(comparable(col.getObject(r)));
                }
                List<Object> actual =
                        back.get(r).stream().map(RowBinaryHttpIT::comparable).toList();
                assertThat(actual).as("row %d", r).isEqualTo(expected);
            }
            c.execute("DROP TABLE " + table);
        }
    }

    /** Edge values first, then seeded random rows. */
    private static void fill(Block b) {
        SplittableRandom rnd = new SplittableRandom(7);
        String[] words = {"", "a", "naïve café 日本語", "nul\0inside", "x".repeat(300), "tab\t"};
        for (int r = 0; r < ROWS; r++) {
            boolean edge = r < 4;
            add(b, "id", (long) r);
            add(
                    b,
                    "i8",
                    edge ? (long) new int[] {-128, 127, 0, -1}[r] : (long) rnd.nextInt(-128, 128));
            add(
                    b,
                    "i64",
                    edge ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}[r] : rnd.nextLong());
            add(b, "u64", r == 0 ? new BigInteger("18446744073709551615") : rnd.nextLong() >>> 1);
            add(
                    b,
                    "f32",
                    edge
                            ? new float[] {Float.NaN, -0.0f, Float.MAX_VALUE, 1.5f}[r]
                            : rnd.nextFloat());
            add(
                    b,
                    "f64",
                    edge
                            ? new double[] {Double.NEGATIVE_INFINITY, 1e-300, 0.1, -2.5}[r]
                            : rnd.nextDouble());
            add(b, "s", words[r % words.length] + (r % 3 == 0 ? "" : Integer.toString(r)));
            add(
                    b,
                    "fs",
                    Arrays.copyOf(Integer.toString(r).getBytes(StandardCharsets.UTF_8), r % 5));
            add(b, "d", (long) (r * 7 % 65536));
            add(
                    b,
                    "dt",
                    edge ? new long[] {0, 4294967295L, 1, 1_700_000_000L}[r] : 1_600_000_000L + r);
            add(
                    b,
                    "dec",
                    new BigDecimal(BigInteger.valueOf(rnd.nextLong() % 1_000_000_000_000L), 4));
            add(
                    b,
                    "dec128",
                    new BigDecimal(
                            new BigInteger(120, new java.util.Random(r))
                                    .subtract(BigInteger.ONE.shiftLeft(119)),
                            10));
            add(b, "uuid", new UUID(rnd.nextLong(), rnd.nextLong()));
            add(b, "e8", new String[] {"a", "b", "c"}[r % 3]);
            add(b, "e16", r % 2 == 0 ? "x" : "y");
            add(b, "ns", r % 4 == 0 ? null : "v" + r);
            add(b, "ni", r % 3 == 0 ? null : (long) (r - 1000));
            List<Object> arr = new ArrayList<>();
            for (int i = 0; i < r % 4; i++) {
                arr.add(i == 1 ? null : (long) i * r);
            }
            add(b, "arr", arr);
            add(b, "nested", r % 5 == 0 ? List.of() : List.of(List.of("p" + r, ""), List.of()));
            add(b, "t", List.of("t" + (r % 10), (long) -r));
            add(b, "lc", "k" + (r % 17));
            add(b, "lcn", r % 6 == 0 ? null : "k" + (r % 5));
        }
    }

    private static void add(Block b, String column, Object value) {
        ColumnValues.append(b.column(column), value);
    }

    /** byte[] (FixedString) compares by content; everything else by equals, nested lists too. */
    private static Object comparable(Object v) {
        if (v instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (v instanceof List<?> list) {
            return list.stream().map(RowBinaryHttpIT::comparable).toList();
        }
        return v;
    }

    private static void post(ConnectionConfig config, String table, byte[] body)
            throws IOException, InterruptedException {
        String p = TestServer.env("CLICKHOUSE_HTTP_PORT");
        int port = p == null || p.isBlank() ? 18123 : Integer.parseInt(p.trim());
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(config.host(), port), 2000);
        } catch (IOException e) {
            String problem = "no ClickHouse HTTP interface at " + config.host() + ":" + port;
            if ("1".equals(System.getenv("SLUICE_REQUIRE_CLICKHOUSE"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        String query = "INSERT INTO " + table + " FORMAT RowBinary";
        HttpRequest.Builder request =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://"
                                                + config.host()
                                                + ":"
                                                + port
                                                + "/?query="
                                                + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                        .header("X-ClickHouse-User", config.user())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (!config.password().isEmpty()) {
            request.header("X-ClickHouse-Key", config.password().reveal());
        }
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("HTTP response: %s", response.body()).isEqualTo(200);
    }
}
