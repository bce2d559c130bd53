package dev.sluice.clickhouse.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.http.HttpConnection;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.it.FaultyProxy;
import dev.sluice.clickhouse.it.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Failures of inserts in the text formats: each is an exception that says what happened and where,
 * carries no secret, and leaves the table as it was (one block per INSERT: all or nothing).
 */
class FormatErrorsIT {

    /** A format whose body is the given bytes, whatever the block: a hand-made broken body. */
    private static InputFormat raw(String name, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new InputFormat() {
            @Override
            public String clickHouseName() {
                return name;
            }

            @Override
            public void write(Block block, WireOutput out) {
                out.writeBytes(bytes);
            }
        };
    }

    private static long count(HttpConnection c, String table) {
        return (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
    }

    /** The server's report of the broken row (18.16 counts rows from 1) reaches the caller. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "TabSeparated|1\\ta\\n2\\tb\\nx\\tc\\n4\\td\\n|at row 3",
                "CSV|1,\"a\"\\n2,\"b\"\\nz,\"c\"\\n|at row 3",
                "JSONEachRow|{\"k\":1,\"s\":\"a\"}\\n{\"k\":2,\"s\":}\\n|at row 2",
                "Values|(1,'a'),(2,'b'),(3,'c|at row 3",
            })
    void aMalformedRowIsReportedWithItsPositionAndNothingIsWritten(
            String format, String escapedBody, String where) {
        String body = escapedBody.replace("\\t", "\t").replace("\\n", "\n");
        String table = TestServer.newTable("fmt_bad");
        try (HttpConnection http = FormatServer.http()) {
            http.execute(
                    "CREATE TABLE "
                            + table
                            + " (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
            Block header = FormatServer.header(http, table);
            assertThatThrownBy(() -> http.insert(table, header, Map.of(), null, raw(format, body)))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining(table)
                    .hasMessageContaining(where)
                    .satisfies(e -> assertThat(((ServerException) e).code()).isPositive())
                    .hasMessageNotContaining("e.displayText()");
            assertThat(count(http, table)).isZero();
            // The connection stays usable, and a good body goes in.
            Block good = FormatServer.header(http, table);
            FormatServer.fill(good, List.of(List.of(1L), List.of("ok")), 1);
            http.insert(table, good, Map.of(), null, Formats.byName(format));
            assertThat(count(http, table)).isOne();
            http.execute("DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"RowBinary", "TabSeparated", "CSV", "Values", "JSONEachRow"})
    void anUnknownTableIsTheServersError(String format) {
        String known = TestServer.newTable("fmt_known");
        try (HttpConnection http = FormatServer.http()) {
            http.execute("CREATE TABLE " + known + " (k UInt32) ENGINE = Memory");
            Block b = FormatServer.header(http, known);
            FormatServer.fill(b, List.of(List.of(1L)), 1);
            String missing = TestServer.DATABASE + ".no_such_table_" + format.toLowerCase();
            assertThatThrownBy(
                            () -> http.insert(missing, b, Map.of(), null, Formats.byName(format)))
                    .isInstanceOf(ServerException.class)
                    .hasMessageContaining("no_such_table_" + format.toLowerCase())
                    .satisfies(
                            e ->
                                    assertThat(((ServerException) e).code())
                                            .isEqualTo(ServerException.UNKNOWN_TABLE));
            http.execute("DROP TABLE " + known);
        }
    }

    @Test
    void badCredentialsAreClearAndSecretFree() throws Exception {
        String secret = "not-the-Passw0rd-42";
        ConnectionConfig wrong =
                ConnectionConfig.parse(FormatServer.httpUrl()).toBuilder().password(secret).build();
        // 18.16 answers 401; the JDK client drops the body of a 401 to a streamed request, so the
        // status is the message.
        assertThatThrownBy(() -> FormatServer.http(wrong))
                .isInstanceOf(ServerException.class)
                .hasMessageContaining("authentication failed")
                .hasMessageNotContaining(secret);

        // A user with a password: the right one inserts in a text format, a wrong one is refused.
        String user = TestServer.env("CLICKHOUSE_PASSWORD_USER");
        String file = TestServer.env("CLICKHOUSE_PASSWORD_USER_FILE");
        assumeTrue(
                user != null && file != null && Files.isReadable(Path.of(file)),
                "no password user");
        String password = Files.readString(Path.of(file)).strip();
        ConnectionConfig base = ConnectionConfig.parse(FormatServer.httpUrl());
        ConnectionConfig right = base.toBuilder().user(user).password(password).build();
        String table = TestServer.newTable("fmt_auth");
        try (HttpConnection http = FormatServer.http(right)) {
            http.execute("CREATE TABLE " + table + " (k UInt32) ENGINE = Memory");
            Block b = FormatServer.header(http, table);
            FormatServer.fill(b, List.of(List.of(7L)), 1);
            http.insert(table, b, Map.of(), null, Formats.CSV);
            assertThat(count(http, table)).isOne();
            http.execute("DROP TABLE " + table);
        }
        ConnectionConfig bad = base.toBuilder().user(user).password(secret).build();
        assertThatThrownBy(() -> FormatServer.http(bad))
                .isInstanceOf(ServerException.class)
                .hasMessageContaining("authentication failed")
                .hasMessageNotContaining(secret)
                .hasMessageNotContaining(password);
    }

    /**
     * Refused before a byte is sent: into a table that does not exist, no UNKNOWN_TABLE comes back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"RowBinaryWithNamesAndTypes", "JSONCompactEachRow"})
    void aFormatTheServerLacksIsRefusedBeforeSending(String format) {
        try (HttpConnection http = FormatServer.http()) {
            assumeTrue(
                    !http.inputFormats().contains(format),
                    "the server has " + format + " (" + http.server().version() + ")");
            Block b = Block.forHeader(List.of("k"), List.of("UInt32"));
            b.column(0).appendLong(1);
            assertThatThrownBy(
                            () ->
                                    http.insert(
                                            TestServer.DATABASE + ".never_created",
                                            b,
                                            Map.of(),
                                            null,
                                            Formats.byName(format)))
                    .isInstanceOf(ClickHouseException.class)
                    .isNotInstanceOf(ServerException.class)
                    .hasMessageContaining("has no input format " + format)
                    .hasMessageContaining("ClickHouse " + http.server().version())
                    .hasMessageContaining("TabSeparated");
        }
    }

    @Test
    void theServersFormatListIsKnownAtConnect() {
        try (HttpConnection http = FormatServer.http()) {
            assertThat(http.inputFormats())
                    .contains(
                            "Native", "RowBinary", "TabSeparated", "CSV", "Values", "JSONEachRow");
            if (!http.server().atLeast(19, 3)) {
                assertThat(http.inputFormats()).doesNotContain("RowBinaryWithNamesAndTypes");
            }
            // The fixed list for servers that cannot be asked agrees with what this one says.
            assertThat(
                            Formats.inputFormatsOf(
                                    http.server().versionMajor(), http.server().versionMinor()))
                    .allSatisfy(f -> assertThat(http.inputFormats()).contains(f));
        }
    }

    /** The connection dies in the middle of a body: an error naming the server, no partial rows. */
    @ParameterizedTest
    @ValueSource(strings = {"TabSeparated", "CSV", "JSONEachRow", "Values"})
    void aBodyCutMidwayFailsClearlyAndWritesNothing(String format) throws Exception {
        ConnectionConfig direct = ConnectionConfig.parse(FormatServer.httpUrl());
        String table = TestServer.newTable("fmt_cut");
        List<List<Object>> values = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            keys.add((long) i);
            strings.add("row " + i + " " + "x".repeat(i % 40));
        }
        values.add(keys);
        values.add(strings);
        try (HttpConnection c = FormatServer.http()) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
        }
        try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port());
                HttpConnection c =
                        FormatServer.http(
                                direct.toBuilder().host("127.0.0.1").port(proxy.port()).build())) {
            Block b = FormatServer.header(c, table);
            FormatServer.fill(b, values, keys.size());
            proxy.cutAfter(proxy.bytesToServer() + 200_000);
            // Whoever notices first explains it: the client (the connection to the address
            // broke) or the server (the body it read ends early: CANNOT_READ_ALL_DATA).
            assertThatThrownBy(() -> c.insert(table, b, Map.of(), null, Formats.byName(format)))
                    .isInstanceOf(ClickHouseException.class)
                    .satisfies(
                            e ->
                                    assertThat(
                                                    e.getMessage().contains("127.0.0.1")
                                                            || e instanceof ServerException s
                                                                    && s.code() == 33
                                                                    && e.getMessage()
                                                                            .contains(
                                                                                    "Cannot read all data"))
                                            .as(e.getMessage())
                                            .isTrue());
        }
        try (HttpConnection c = FormatServer.http()) {
            assertThat(count(c, table)).isZero();
            c.execute("DROP TABLE " + table);
        }
    }
}
