package dev.sluice.clickhouse.format;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.http.HttpConnection;
import dev.sluice.clickhouse.it.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The test server's HTTP side, for the format ITs. */
final class FormatServer {
    private FormatServer() {}

    /** The HTTP URL of the test server (skips or fails as {@link TestServer#url()} does). */
    static String httpUrl() {
        TestServer.url();
        String port = TestServer.env("CLICKHOUSE_HTTP_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no HTTP port in its env");
        return "http://default@127.0.0.1:" + port.trim() + "/default";
    }

    static HttpConnection http() {
        return (HttpConnection) ClickHouseClient.open(httpUrl());
    }

    static HttpConnection http(ConnectionConfig config) {
        return (HttpConnection) ClickHouseClient.open(config);
    }

    /** Empty columns of {@code table} as the server describes them (exact type spellings). */
    static Block header(ClickHouseClient c, String table) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (List<Object> row : c.queryRows("DESCRIBE TABLE " + table)) {
            names.add((String) row.get(0));
            types.add((String) row.get(1));
        }
        return Block.forHeader(names, types);
    }

    /** Appends row {@code r} of every column's values. */
    static void fill(Block b, List<List<Object>> columnValues, int rows) {
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < columnValues.size(); i++) {
                ColumnValues.append(b.column(i), columnValues.get(i).get(r));
            }
        }
    }

    /** The raw bytes of a SELECT's result, straight from the HTTP interface. */
    static byte[] select(String sql, Map<String, String> settings)
            throws IOException, InterruptedException {
        ConnectionConfig config = ConnectionConfig.parse(httpUrl());
        StringBuilder url =
                new StringBuilder("http://")
                        .append(config.host())
                        .append(':')
                        .append(config.port())
                        .append("/?query=")
                        .append(URLEncoder.encode(sql, StandardCharsets.UTF_8));
        settings.forEach(
                (k, v) ->
                        url.append('&')
                                .append(k)
                                .append('=')
                                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(url.toString()))
                        .header("X-ClickHouse-User", config.user())
                        .GET();
        if (!config.password().isEmpty()) {
            request.header("X-ClickHouse-Key", config.password().reveal());
        }
        HttpResponse<byte[]> response =
                HttpClient.newHttpClient()
                        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    sql
                            + ": HTTP "
                            + response.statusCode()
                            + " "
                            + new String(response.body(), StandardCharsets.UTF_8));
        }
        return response.body();
    }

    /** byte[] (FixedString) by content, nested lists element by element; the rest by equals. */
    static Object comparable(Object v) {
        if (v instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (v instanceof List<?> list) {
            return list.stream().map(FormatServer::comparable).toList();
        }
        return v;
    }
}
