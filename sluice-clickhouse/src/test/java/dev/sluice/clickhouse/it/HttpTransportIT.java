package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.column.ColumnValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP transport against the real server, compared with the native one. */
class HttpTransportIT {
    private static final String DDL =
            " (k UInt32, s String, n Nullable(Int64), a Array(String), d Decimal(18, 4), u UUID,"
                    + " e Enum8('x' = 1, 'y' = 2), lc LowCardinality(String)) ENGINE = MergeTree"
                    + " ORDER BY k";

    static String httpUrl() {
        TestServer.url();
        String port = TestServer.env("CLICKHOUSE_HTTP_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no HTTP port in its env");
        return "http://default@127.0.0.1:" + port + "/default";
    }

    private static List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(
                    Arrays.asList(
                            (long) i,
                            i % 3 == 0 ? "tab\there ñ " + i : "s" + i,
                            i % 5 == 0 ? null : (long) i * -7,
                            i % 4 == 0 ? List.of() : List.of("a" + i, "b"),
                            new BigDecimal(i).movePointLeft(4).setScale(4),
                            new UUID(i, -i),
                            i % 2 == 0 ? "x" : "y",
                            "k" + (i % 10)));
        }
        return rows;
    }

    /** A block of the table's columns, as the server describes them over {@code c}. */
    private static Block block(ClickHouseClient c, String table, List<List<Object>> rows) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (List<Object> column : c.queryRows("DESCRIBE TABLE " + table)) {
            names.add((String) column.get(0));
            types.add((String) column.get(1));
        }
        Block b = Block.forHeader(names, types);
        for (List<Object> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                ColumnValues.append(b.column(i), row.get(i));
            }
        }
        return b;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "compression=lz4",
                "compression=zstd",
                "compression=none",
                "http_compression=gzip",
                "http_compression=deflate"
            })
    void httpAndNativeInsertsReadBackIdentical(String option) {
        List<List<Object>> rows = rows();
        String viaHttp = TestServer.newTable("http");
        String viaNative = TestServer.newTable("native");
        try (ClickHouseClient http = ClickHouseClient.open(httpUrl() + "?" + option);
                NativeConnection nat = TestServer.connect()) {
            assertThat(http.server().version()).isEqualTo(nat.server().version());
            http.execute(
                    "CREATE TABLE " + viaHttp + DDL,
                    Map.of("allow_experimental_low_cardinality_type", "1"));
            nat.execute(
                    "CREATE TABLE " + viaNative + DDL,
                    Map.of("allow_experimental_low_cardinality_type", "1"));
            InsertResult r = http.insert(viaHttp, block(http, viaHttp, rows), Map.of(), null);
            assertThat(r.rows()).isEqualTo(rows.size());
            if (!option.equals("compression=none")) {
                assertThat(r.wireBytes()).isLessThan(r.uncompressedBytes());
            }
            nat.insert(viaNative, block(nat, viaNative, rows), Map.of(), null);

            List<List<Object>> a = http.queryRows("SELECT * FROM " + viaHttp + " ORDER BY k");
            List<List<Object>> b = nat.queryRows("SELECT * FROM " + viaNative + " ORDER BY k");
            assertThat(a).hasSize(rows.size()).isEqualTo(b);
            assertThat(a.get(3)).isEqualTo(rows.get(3));
        }
        assertThat(
                        TestServer.clickhouseClient(
                                "SELECT count() FROM (SELECT * FROM "
                                        + viaHttp
                                        + " UNION ALL SELECT * FROM "
                                        + viaNative
                                        + ") GROUP BY k, s, n, a, d, u, e, lc HAVING count() != 2"))
                .isEmpty();
    }

    /**
     * Encodings a server may lack: asked for, they either work end to end or fail at connect with
     * the server's refusal. 18.16 (the test server) takes none of them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"zstd", "lz4", "br"})
    void optionalContentEncodingsAreDetectedNotAssumed(String encoding) {
        String url = httpUrl() + "?http_compression=" + encoding;
        boolean legacy;
        try (NativeConnection nat = TestServer.connect()) {
            legacy = !nat.server().atLeast(19, 1);
        }
        ClickHouseClient http;
        try {
            http = ClickHouseClient.open(url);
        } catch (ClickHouseException refused) {
            assertThat(refused)
                    .hasMessageContaining("does not accept Content-Encoding " + encoding)
                    .hasMessageContaining("Unknown Content-Encoding");
            return;
        }
        assertThat(legacy).as("18.16 refuses Content-Encoding %s", encoding).isFalse();
        String table = TestServer.newTable("enc_" + encoding);
        try (http) {
            http.execute("CREATE TABLE " + table + DDL);
            List<List<Object>> rows = rows();
            http.insert(table, block(http, table, rows), Map.of(), null);
            assertThat(http.queryRows("SELECT * FROM " + table + " ORDER BY k"))
                    .hasSize(rows.size())
                    .element(3)
                    .isEqualTo(rows.get(3));
        }
    }

    /**
     * Without wait_end_of_query the server streams the result and can only append a later failure
     * to the body, here in the middle of a Native block after ~27 MB: a ServerException with the
     * server's code, not a decoding error.
     */
    @Test
    void anExceptionAppendedMidBodyIsTheServersError() {
        long[] delivered = new long[1];
        try (ClickHouseClient http = ClickHouseClient.open(httpUrl())) {
            assertThatThrownBy(
                            () ->
                                    http.query(
                                            "SELECT number, throwIf(number = 3000000) FROM"
                                                    + " numbers(5000000)",
                                            Map.of(
                                                    "wait_end_of_query", "0",
                                                    "max_block_size", "10000"),
                                            b -> delivered[0] += b.rows()))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("throwIf")
                    .hasMessageContaining("after the response had started")
                    .satisfies(e -> assertThat(((ServerException) e).code()).isEqualTo(395));
            assertThat(delivered[0]).as("blocks before the failure").isPositive();
            // the client is still usable afterwards
            assertThat(http.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    @Test
    void errorsAreServerExceptionsWithCodesAndWithoutCredentials() {
        String table = TestServer.newTable("httperr");
        try (ClickHouseClient http = ClickHouseClient.open(httpUrl())) {
            http.execute("CREATE TABLE " + table + " (k UInt32) ENGINE = Memory");
            Block b = block(http, table, List.of(List.of(1L)));
            assertThatThrownBy(() -> http.insert(TestServer.DATABASE + ".nope", b, Map.of(), null))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("nope")
                    .satisfies(
                            e ->
                                    assertThat(((ServerException) e).code())
                                            .isEqualTo(ServerException.UNKNOWN_TABLE));
            assertThatThrownBy(() -> http.queryRows("SELEC 1"))
                    .isInstanceOf(ServerException.class)
                    .satisfies(
                            e ->
                                    assertThat(((ServerException) e).code())
                                            .isEqualTo(ServerException.SYNTAX_ERROR));
            // Still usable after errors.
            assertThat(http.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
        String secret = "not-the-Passw0rd";
        ConnectionConfig wrong =
                ConnectionConfig.parse(httpUrl()).toBuilder().password(secret).build();
        assertThatThrownBy(() -> ClickHouseClient.open(wrong))
                .isInstanceOf(ServerException.class)
                .hasMessageNotContaining(secret);
    }

    @Test
    void httpsWithTheServerCertificate() {
        httpUrl();
        String port = TestServer.env("CLICKHOUSE_HTTPS_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no HTTPS port");
        String url =
                "https://default@127.0.0.1:"
                        + port
                        + "/default?ssl_root_cert="
                        + TestServer.env("CLICKHOUSE_TLS_CERT");
        String table = TestServer.newTable("https");
        try (ClickHouseClient c = ClickHouseClient.open(url)) {
            c.execute("CREATE TABLE " + table + " (k UInt32) ENGINE = Memory");
            Block b = block(c, table, List.of(List.of(7L), List.of(8L)));
            c.insert(table, b, Map.of(), null);
            assertThat(c.queryRows("SELECT sum(k) FROM " + table)).containsExactly(List.of(15L));
        }
        assertThatThrownBy(() -> ClickHouseClient.open("https://default@127.0.0.1:" + port + "/"))
                .isInstanceOf(ConnectionException.class);
    }

    @Test
    void aBodyCutMidwayFailsClearlyAndWritesNothing() throws Exception {
        String url = httpUrl();
        ConnectionConfig direct = ConnectionConfig.parse(url);
        String table = TestServer.newTable("httpcut");
        try (ClickHouseClient c = ClickHouseClient.open(url)) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
        }
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            rows.add(List.of((long) i, "row " + i + " " + "x".repeat(i % 40)));
        }
        try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port());
                ClickHouseClient c =
                        ClickHouseClient.open(
                                direct.toBuilder().host("127.0.0.1").port(proxy.port()).build())) {
            Block b = block(c, table, rows);
            proxy.cutAfter(proxy.bytesToServer() + 300_000);
            assertThatThrownBy(() -> c.insert(table, b, Map.of(), null))
                    .isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining(direct.host());
        }
        try (ClickHouseClient c = ClickHouseClient.open(url)) {
            // One block per INSERT: all of it or none of it.
            assertThat(c.queryRows("SELECT count() FROM " + table)).containsExactly(List.of(0L));
        }
    }

    @Test
    void aClosedPortIsAConnectionError() {
        ConnectionConfig closed = ConnectionConfig.parse("http://default@127.0.0.1:1/default");
        assertThatThrownBy(() -> ClickHouseClient.open(closed))
                .isInstanceOf(ConnectionException.class)
                .hasMessageContaining("127.0.0.1:1");
    }
}
