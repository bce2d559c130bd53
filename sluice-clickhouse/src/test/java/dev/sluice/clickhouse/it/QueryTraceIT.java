package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.status.Fate;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What ClickHouse records about an INSERT whose acknowledgement was lost, as sluice reads it
 * ({@link QueryTrace}) — the facts the pipeline's look-ups rely on, pinned against the real server:
 * the answer held back and the connection cut after the last byte (written, {@code QueryFinish});
 * cut inside the block (not written); an INSERT whose end has not arrived yet (running); over both
 * transports. And the start-up probe of the query log ({@link QueryLogging}).
 */
class QueryTraceIT {
    private static final int ROWS = 50_000;

    private static String newId(String what) {
        // As sluice makes them: <token>#<nonce>.<attempt>, the token unique to this test run.
        return "sluice-it/" + what + "/" + UUID.randomUUID() + "#n0nce.1";
    }

    private static String table() {
        String t = TestServer.newTable("trace");
        TestServer.execute(
                "CREATE TABLE "
                        + t
                        + " (id UInt64, p UInt8) ENGINE = MergeTree PARTITION BY p ORDER BY id");
        return t;
    }

    /** A block shaped like the table, filled with ROWS rows over three partitions. */
    private static Block block() {
        Block b =
                new Block(
                        List.of(
                                ColumnFactory.create("id", "UInt64"),
                                ColumnFactory.create("p", "UInt8")),
                        List.of("UInt64", "UInt8"));
        for (int i = 0; i < ROWS; i++) {
            b.column(0).appendLong(i);
            b.column(1).appendLong(i % 3);
        }
        return b;
    }

    private static QueryLogging logging() {
        try (NativeConnection c = TestServer.connect()) {
            return QueryLogging.probe(c, Map.of());
        }
    }

    private static QueryTrace trace(String queryId) {
        try (NativeConnection c = TestServer.connect()) {
            return QueryTrace.lookup(
                    c,
                    queryId.substring(0, queryId.indexOf('#') + 1),
                    LocalDate.now().minusDays(2),
                    logging());
        }
    }

    @Test
    void theTestServerLogsQueriesAndTheProbeSaysSo() {
        QueryLogging l = logging();
        assertThat(l.status()).isEqualTo(QueryLogging.Status.LOGGED);
        assertThat(l.canFlush()).isTrue();
        assertThat(l.profileEvents()).isEqualTo(QueryLogging.ProfileEvents.ARRAYS);
        // The private server's profile logs queries already: nothing to add to the INSERTs.
        assertThat(l.sendLogQueries()).isFalse();
        assertThat(l.insertSettings()).isEmpty();
        try (NativeConnection c = TestServer.connect()) {
            QueryLogging off = QueryLogging.probe(c, Map.of("log_queries", "0"));
            assertThat(off.status()).isEqualTo(QueryLogging.Status.NOT_LOGGED);
            assertThat(off.detail()).contains("log_queries=0 is among the sink's settings");
        }
        try (NativeConnection c =
                NativeConnection.open(
                        TestServer.config().toBuilder().setting("log_queries", "0").build())) {
            // The session says 0 (a profile or the URL): sluice sends log_queries=1 itself.
            QueryLogging asked = QueryLogging.probe(c, Map.of());
            assertThat(asked.status()).isEqualTo(QueryLogging.Status.LOGGED);
            assertThat(asked.sendLogQueries()).isTrue();
        }
    }

    @Test
    void theProbeAndTheLookUpWorkOverHttpToo() {
        String t = table();
        String id = newId("viahttp");
        try (ClickHouseClient http = ClickHouseClient.open(TestServer.env("CLICKHOUSE_HTTP_URL"))) {
            QueryLogging l = QueryLogging.probe(http, Map.of());
            assertThat(l.status()).isEqualTo(QueryLogging.Status.LOGGED);
            assertThat(l.canFlush()).as("SYSTEM FLUSH LOGS over HTTP").isTrue();
            http.insert(t, block(), Map.of(), id);
            QueryTrace trace =
                    QueryTrace.lookup(
                            http,
                            id.substring(0, id.indexOf('#') + 1),
                            LocalDate.now().minusDays(2),
                            l);
            assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.WRITTEN);
        }
    }

    @Test
    void anAcknowledgedInsertIsWrittenWithItsRows() {
        String t = table();
        String id = newId("acked");
        try (NativeConnection c = TestServer.connect()) {
            c.insert(t, block(), Map.of(), id);
        }
        QueryTrace trace = trace(id);
        assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.WRITTEN);
        assertThat(trace.log())
                .filteredOn(e -> e.kind() == QueryTrace.Kind.FINISH)
                .singleElement()
                .satisfies(e -> assertThat(e.writtenRows()).isEqualTo(ROWS));
        assertThat(trace.fate(id.replace(".1", ".2"), ROWS)).isEqualTo(Fate.NOT_FOUND);
    }

    @Test
    void anInsertWhoseAnswerIsLostAfterTheLastByteIsWritten() throws Exception {
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> {
                    String t = table();
                    Block block = block();
                    ConnectionConfig direct = TestServer.config();
                    String id = newId("lastbyte");
                    try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port());
                            NativeConnection c =
                                    NativeConnection.open(
                                            direct.toBuilder()
                                                    .port(proxy.port())
                                                    .readTimeout(Duration.ofSeconds(2))
                                                    .build())) {
                        // Hold the answers once the block is on its way: the header has come
                        // back by then, and the acknowledgement never will. The proxy sets the
                        // hold before forwarding those bytes (a thread watching the count lost
                        // the race to the acknowledgement under load in CI).
                        proxy.holdRepliesAfter(proxy.bytesToServer() + 20_000);
                        assertThatThrownBy(() -> c.insert(t, block, Map.of(), id))
                                .isInstanceOf(InsertOutcomeUnknownException.class)
                                .hasMessageContaining(id)
                                .satisfies(
                                        e ->
                                                assertThat(
                                                                ((InsertOutcomeUnknownException) e)
                                                                        .queryId())
                                                        .isEqualTo(id));
                        proxy.cutAll();
                    }
                    QueryTrace trace = trace(id);
                    // The server may still be writing when the client gives up waiting.
                    for (int i = 0; i < 50 && trace.fate(id, ROWS) == Fate.RUNNING; i++) {
                        Thread.sleep(100);
                        trace = trace(id);
                    }
                    assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.WRITTEN);
                    assertThat(TestServer.single("SELECT count() FROM " + t)).isEqualTo(ROWS);
                });
    }

    @Test
    void anInsertCutInsideItsBlockIsNotWritten() throws Exception {
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> {
                    String t = table();
                    Block block = block();
                    ConnectionConfig direct = TestServer.config();
                    String id = newId("midcut");
                    try (FaultyProxy proxy = new FaultyProxy(direct.host(), direct.port());
                            NativeConnection c =
                                    NativeConnection.open(
                                            direct.toBuilder()
                                                    .port(proxy.port())
                                                    .readTimeout(Duration.ofSeconds(5))
                                                    .build())) {
                        // A few kB into the block (compressed it is ~100 kB).
                        proxy.cutAfter(proxy.bytesToServer() + 400 + 8192);
                        assertThatThrownBy(() -> c.insert(t, block, Map.of(), id))
                                .isInstanceOf(ConnectionException.class);
                    }
                    // The server notices the cut at once; a look-up may catch it still ending.
                    QueryTrace trace = trace(id);
                    for (int i = 0; i < 50 && trace.fate(id, ROWS) == Fate.RUNNING; i++) {
                        Thread.sleep(100);
                        trace = trace(id);
                    }
                    assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.NOT_WRITTEN);
                    assertThat(trace.exception(id)).contains("210"); // NETWORK_ERROR
                    assertThat(TestServer.single("SELECT count() FROM " + t)).isZero();
                });
    }

    @Test
    void anInsertWaitingForTheRestOfItsDataIsRunningThenWritten() {
        String t = table();
        String id = newId("running");
        try (NativeConnection c = TestServer.connect();
                Insert insert =
                        c.insert(t, List.of(), Map.of(), InsertOptions.DEFAULTS.withQueryId(id))) {
            for (int i = 0; i < 10; i++) {
                insert.column("id").appendLong(i);
                insert.column("p").appendLong(0);
                insert.endRow();
            }
            insert.flush(); // the block is there; the end marker is not
            assertThat(trace(id).fate(id, 10)).isEqualTo(Fate.RUNNING);
            insert.finish();
        }
        assertThat(trace(id).fate(id, 10)).isEqualTo(Fate.WRITTEN);
    }

    @Test
    void anInsertWhoseClientLeftBeforeSendingItsBlockFinishesWithNoRowsNotWritten()
            throws Exception {
        String t = table();
        String id = newId("noblock");
        try (NativeConnection c = TestServer.connect()) {
            Insert insert =
                    c.insert(t, List.of(), Map.of(), InsertOptions.DEFAULTS.withQueryId(id));
            insert.close(); // drops the connection: 18.16 takes the end of stream as end of data
        }
        QueryTrace trace = trace(id);
        for (int i = 0; i < 50 && trace.fate(id, ROWS) == Fate.RUNNING; i++) {
            Thread.sleep(100);
            trace = trace(id);
        }
        assertThat(trace.log())
                .filteredOn(e -> e.kind() == QueryTrace.Kind.FINISH)
                .singleElement()
                .satisfies(e -> assertThat(e.writtenRows()).isZero());
        assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.NOT_WRITTEN);
    }

    @Test
    void overHttpALostAnswerIsUnknownToTheClientAndWrittenOnTheServer() throws Exception {
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> {
                    String t = table();
                    Block block = block();
                    ConnectionConfig http =
                            ConnectionConfig.parse(TestServer.env("CLICKHOUSE_HTTP_URL"));
                    String id = newId("http");
                    try (FaultyProxy proxy = new FaultyProxy(http.host(), http.port());
                            ClickHouseClient c =
                                    ClickHouseClient.open(
                                            http.toBuilder()
                                                    .port(proxy.port())
                                                    .readTimeout(Duration.ofSeconds(2))
                                                    .build())) {
                        proxy.holdReplies();
                        assertThatThrownBy(() -> c.insert(t, block, Map.of(), id))
                                .isInstanceOf(InsertOutcomeUnknownException.class);
                        proxy.cutAll();
                    }
                    QueryTrace trace = trace(id);
                    for (int i = 0; i < 50 && trace.fate(id, ROWS) == Fate.RUNNING; i++) {
                        Thread.sleep(100);
                        trace = trace(id);
                    }
                    assertThat(trace.fate(id, ROWS)).isEqualTo(Fate.WRITTEN);
                    assertThat(TestServer.single("SELECT count() FROM " + t)).isEqualTo(ROWS);
                });
    }

    @Test
    void aRefusedConnectionIsAPlainConnectionErrorNothingWasSent() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ConnectionConfig nowhere = TestServer.config().toBuilder().port(port).build();
        assertThatThrownBy(() -> NativeConnection.open(nowhere))
                .isInstanceOf(ConnectionException.class)
                .isNotInstanceOf(InsertOutcomeUnknownException.class);
    }
}
