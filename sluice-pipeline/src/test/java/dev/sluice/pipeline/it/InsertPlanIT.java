package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writers' side of a pipeline against the real server, through the default factories: a
 * pre-sorted and partition-split load equals an unsorted one and the server finds its blocks
 * sorted; absent NDJSON fields get exactly the DEFAULTs clickhouse-client's own JSONEachRow insert
 * gives them; an {@code http://} sink writes every row once.
 */
@Timeout(300)
class InsertPlanIT {

    /** Runs a pipeline of one reader over {@code source}'s records to its end. */
    private static PipelineResult run(
            PipelineSpec spec,
            MemorySource source,
            Function<TargetColumns, Decoder> decoder,
            Function<TableSchema, TargetColumns> columns)
            throws Exception {
        Factories factories =
                new Factories() {
                    @Override
                    public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
                        return source;
                    }

                    @Override
                    public TargetColumns targetColumns(TableSchema table) {
                        return columns == null
                                ? Factories.super.targetColumns(table)
                                : columns.apply(table);
                    }

                    @Override
                    public Decoder decoder(TargetColumns target) {
                        return decoder.apply(target);
                    }

                    @Override
                    public List<Transform> transforms(TargetColumns target) {
                        return List.of();
                    }

                    @Override
                    public DeadLetters deadLetters() {
                        throw new UnsupportedOperationException();
                    }
                };
        Pipeline p = Pipeline.start(spec, factories, Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        return r;
    }

    private static PipelineSpec spec(
            String url, String table, Format format, int maxRows, boolean presort, boolean split) {
        return new PipelineSpec(
                "it",
                1,
                new PipelineSpec.StdinSource(1 << 20),
                new DecodeSpec(format, List.of(), false, Map.of(), false, ','),
                List.of(),
                new PipelineSpec.SinkSpec(
                        List.of(new ShardSpec(List.of(url), 1)),
                        table,
                        new PipelineSpec.BatchSpec(maxRows, 64 << 20, Duration.ofSeconds(5)),
                        2,
                        "lz4",
                        presort,
                        split,
                        Map.of(),
                        new PipelineSpec.RetrySpec(
                                Duration.ofMillis(20), Duration.ofMillis(500), 2.0, 0.2, 0)),
                new PipelineSpec.ErrorsSpec(ErrorPolicy.FAIL, null, -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), null),
                new PipelineSpec.AdminSpec(null));
    }

    private static List<List<Object>> rows(String sql) {
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> rows = c.queryRows(sql);
            for (List<Object> row : rows) {
                row.replaceAll(
                        v -> v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v);
            }
            return rows;
        }
    }

    // ---- (a) pre-sorting and partition split ----

    private static final String EVENTS =
            "(ts DateTime, tenant UInt32, kind String, id UInt64, payload String) ENGINE ="
                    + " MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (tenant, ts)";

    /** Events in random order over two months, with many equal keys. */
    private static MemorySource events(long count) {
        return new MemorySource("mem")
                .partition(
                        "events",
                        count,
                        k -> {
                            Random rnd = new Random(k * 0x9E3779B97F4A7C15L);
                            long ts = 1_548_000_000L + rnd.nextInt(2_000_000); // Jan-Feb 2019
                            return (ts - ts % 60)
                                    + ","
                                    + rnd.nextInt(50)
                                    + ","
                                    + "k"
                                    + rnd.nextInt(5)
                                    + ","
                                    + k
                                    + ",payload-"
                                    + k;
                        });
    }

    @Test
    void presortedAndSplitBatchesWriteWhatUnsortedOnesWriteAndTheServerFindsThemSorted()
            throws Exception {
        String url = TestServer.url();
        String sorted = TestServer.newTable("plan_sorted");
        String unsorted = TestServer.newTable("plan_unsorted");
        TestServer.execute("CREATE TABLE " + sorted + " " + EVENTS);
        TestServer.execute("CREATE TABLE " + unsorted + " " + EVENTS);
        DecodeSpec csv =
                new DecodeSpec(
                        Format.CSV,
                        List.of("ts", "tenant", "kind", "id", "payload"),
                        false,
                        Map.of(),
                        false,
                        ',');
        long count = 30_000;

        for (String table : List.of(sorted, unsorted)) {
            boolean on = table.equals(sorted);
            run(
                    spec(url, table, Format.CSV, 7_000, on, on),
                    events(count),
                    t -> DecoderFactory.create(csv, t),
                    t -> DecoderFactory.targetColumns(csv, List.of(), t));
        }

        String all = "SELECT ts, tenant, kind, id, payload FROM %s ORDER BY id";
        List<List<Object>> expected = rows(all.formatted(unsorted));
        assertThat(expected).hasSize((int) count);
        assertThat(rows(all.formatted(sorted))).isEqualTo(expected);

        // 5 batches; each, split by month, is two INSERTs of one sorted block each.
        List<long[]> presorted = insertEvents(sorted);
        assertThat(presorted).hasSize(10);
        assertThat(presorted).allSatisfy(e -> assertThat(e).containsExactly(1, 1, 1));
        List<long[]> plain = insertEvents(unsorted);
        assertThat(plain).hasSize(5);
        assertThat(plain).allSatisfy(e -> assertThat(e).containsExactly(2, 0, 1));
        TestServer.execute("DROP TABLE " + sorted);
        TestServer.execute("DROP TABLE " + unsorted);
    }

    /**
     * {blocks written, blocks found already sorted, interface (1 native, 2 HTTP)} of each INSERT
     * into {@code table} that wrote something (start-up's schema discovery sends one without rows),
     * from the query log (its rows are written just after the answer: poll).
     */
    private static List<long[]> insertEvents(String table) throws InterruptedException {
        String sql =
                "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                        + " 'MergeTreeDataWriterBlocks')],"
                        + " ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                        + " 'MergeTreeDataWriterBlocksAlreadySorted')], toUInt64(interface)"
                        + " FROM system.query_log WHERE type = 2 AND position(query, 'INSERT INTO "
                        + table
                        + " ') = 1";
        List<long[]> events = new ArrayList<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            TestServer.execute("SYSTEM FLUSH LOGS");
            events.clear();
            for (List<Object> r : rows(sql)) {
                if ((Long) r.get(0) > 0) {
                    events.add(new long[] {(Long) r.get(0), (Long) r.get(1), (Long) r.get(2)});
                }
            }
            if (!events.isEmpty()) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return events;
    }

    // ---- (b) DEFAULTs of absent fields ----

    /** name, type, DEFAULT (null for none). */
    private static final String[][] DEFAULTS = {
        {"id", "UInt32", null},
        {"n", "Int32", null},
        {"s", "String", null},
        {"d_lit", "String", "'none'"},
        {"d_num", "Int64", "-5"},
        {"d_now", "DateTime", "now()"},
        {"d_arith", "Int64", "n * 2 + 1"},
        {"d_upper", "String", "upper(s)"},
        {"d_if", "String", "reverse(toString(n))"}, // a function only the server computes
        {"d_never", "String", "concat(s, '?')"}
    };

    private static String createDefaults(String prefix) {
        String table = TestServer.newTable(prefix);
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (");
        for (int i = 0; i < DEFAULTS.length; i++) {
            ddl.append(i > 0 ? ", " : "").append(DEFAULTS[i][0]).append(' ').append(DEFAULTS[i][1]);
            if (DEFAULTS[i][2] != null) {
                ddl.append(" DEFAULT ").append(DEFAULTS[i][2]);
            }
        }
        TestServer.execute(ddl.append(") ENGINE = MergeTree ORDER BY id").toString());
        return table;
    }

    /** Record k: id and s always, n and each DEFAULT column but d_never present at random. */
    private static String record(long k) {
        Random rnd = new Random(k * 31 + 7);
        StringBuilder sb = new StringBuilder("{\"id\":").append(k);
        sb.append(",\"s\":\"").append(rnd.nextBoolean() ? "abc" : "Straße ").append(k).append('"');
        if (rnd.nextInt(5) != 0) {
            sb.append(",\"n\":").append(rnd.nextInt(2001) - 1000);
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_lit\":\"given\"");
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_num\":").append(rnd.nextInt(100));
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_now\":\"").append(981_000_000 + k).append('"'); // no zone involved
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_arith\":").append(rnd.nextInt(100));
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_upper\":\"up\"");
        }
        if (rnd.nextBoolean()) {
            sb.append(",\"d_if\":\"given\"");
        }
        return sb.append('}').toString();
    }

    @Test
    void absentFieldsGetTheDefaultsClickhouseClientsJsonInsertGivesThem() throws Exception {
        String url = TestServer.url();
        String ours = createDefaults("plan_defaults");
        String twin = createDefaults("plan_defaults_twin");
        int count = 3_000;
        StringBuilder ndjson = new StringBuilder();
        List<String> records = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            records.add(record(k));
            ndjson.append(record(k)).append('\n');
        }
        DecodeSpec json = new DecodeSpec(Format.JSON, List.of(), false, Map.of(), false, ',');

        long before = System.currentTimeMillis() / 1000;
        PipelineSpec spec = spec(url, ours, Format.JSON, 700, false, false);
        PipelineResult r =
                run(
                        spec,
                        new MemorySource("mem").partition("ndjson", records),
                        t -> DecoderFactory.create(json, t),
                        t -> DecoderFactory.targetColumns(json, List.of(), t));
        clickhouseClientJson(twin, ndjson.toString());
        long seconds = System.currentTimeMillis() / 1000 - before;

        // d_if is left to the server: 5 batches, each in two INSERTs (rows with and without it).
        assertThat(r.stats().batchesWritten()).isEqualTo(5);
        assertThat(insertEvents(ours)).hasSize(10);
        String all = "SELECT * FROM %s ORDER BY id";
        List<List<Object>> expected = rows(all.formatted(twin));
        List<List<Object>> actual = rows(all.formatted(ours));
        assertThat(actual).hasSize(count);
        assertThat(expected).hasSize(count);
        int now = 5; // d_now's index
        List<String> mismatches = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            for (int c = 0; c < DEFAULTS.length; c++) {
                Object x = expected.get(row).get(c);
                Object y = actual.get(row).get(c);
                boolean same =
                        c == now
                                ? Math.abs(((Number) x).longValue() - ((Number) y).longValue())
                                        <= seconds + 2
                                : x.equals(y);
                if (!same) {
                    mismatches.add("id " + row + " " + DEFAULTS[c][0] + ": " + x + " vs " + y);
                }
            }
        }
        assertThat(mismatches).isEmpty();
        TestServer.execute("DROP TABLE " + ours);
        TestServer.execute("DROP TABLE " + twin);
    }

    /** clickhouse-client with the server's defaults for omitted JSONEachRow fields. */
    private static void clickhouseClientJson(String table, String ndjson) throws Exception {
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
                                "--query",
                                "INSERT INTO " + table + " FORMAT JSONEachRow"));
        if (!c.password().isEmpty()) {
            cmd.add("--password");
            cmd.add(c.password().reveal());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().write(ndjson.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    // ---- (c) HTTP ----

    @Test
    void aPipelineSinkingOverHttpWritesEveryRowOnce() throws Exception {
        TestServer.url(); // skips (or fails) without a server
        String port = TestServer.env("CLICKHOUSE_HTTP_PORT");
        assumeTrue(port != null, "the server's HTTP port is not known (CLICKHOUSE_HTTP_PORT)");
        ConnectionConfig nativeConfig = TestServer.config();
        String http =
                "http://"
                        + nativeConfig.user()
                        + "@"
                        + nativeConfig.host()
                        + ":"
                        + port
                        + "/"
                        + nativeConfig.database();
        String table = TestServer.newTable("plan_http");
        TestServer.execute(
                "CREATE TABLE " + table + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n");
        long count = 100_000;

        PipelineResult r =
                run(
                        spec(http, table, Format.CSV, 20_000, true, false),
                        new MemorySource("mem").partition("p", count, k -> k + ",row-" + k),
                        t -> new TestDecoder(t, List.of("n", "s")),
                        null);

        assertThat(r.stats().rowsWritten()).isEqualTo(count);
        assertThat(TestServer.single("SELECT count() FROM " + table)).isEqualTo(count);
        assertThat(TestServer.single("SELECT uniqExact(n) FROM " + table)).isEqualTo(count);
        assertThat(TestServer.single("SELECT sum(n) FROM " + table))
                .isEqualTo(count * (count - 1) / 2);
        // Five INSERTs over HTTP, each of a block already in key order (sent as is).
        assertThat(insertEvents(table))
                .hasSize(5)
                .allSatisfy(e -> assertThat(e).containsExactly(1, 1, 2));
        TestServer.execute("DROP TABLE " + table);
    }
}
