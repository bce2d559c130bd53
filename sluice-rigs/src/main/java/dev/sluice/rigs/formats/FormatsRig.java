package dev.sluice.rigs.formats;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.clickhouse.http.HttpConnection;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.rigs.Arms;
import dev.sluice.rigs.Axis;
import dev.sluice.rigs.BenchContext;
import dev.sluice.rigs.BenchRecord;
import dev.sluice.rigs.Codecs;
import dev.sluice.rigs.Parts;
import dev.sluice.rigs.Rig;
import dev.sluice.rigs.Target;
import dev.sluice.rigs.ThreadCpu;
import dev.sluice.rigs.Units;
import dev.sluice.rigs.data.EventsData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The FastFormats method: one dataset (the events rows) sent over HTTP in every input format the
 * server reads, × compression × rows per INSERT, each block encoded from the same column buffers.
 * Per repetition: the client's encode CPU alone (a separate pass into a counting sink), the
 * inserting thread's CPU (encode, compress, send), the server's CPU (whole process from {@code
 * /proc}, and the INSERTs' own from {@code system.query_log}), bytes on the wire and rows/s.
 * Formats the server reads but Sluice cannot write (TSKV, CapnProto) are recorded as unsupported.
 */
public final class FormatsRig implements Rig {
    public static final String NAME = "formats";

    static final List<String> FORMATS =
            List.of(
                    "Native",
                    "RowBinary",
                    "TabSeparated",
                    "CSV",
                    "JSONEachRow",
                    "Values",
                    "TSKV",
                    "CapnProto");

    private static final List<Axis> AXES =
            List.of(
                    new Axis(
                            "format",
                            FORMATS,
                            List.of(
                                    "Native",
                                    "RowBinary",
                                    "TabSeparated",
                                    "CSV",
                                    "JSONEachRow",
                                    "Values",
                                    "TSKV"),
                            "input formats (those the server reads that Sluice cannot write are recorded as unsupported)"),
                    new Axis(
                            "compression",
                            List.of("lz4", "none", "zstd", "gzip"),
                            List.of("lz4"),
                            "none, lz4, zstd, zstd:LEVEL (ClickHouse frames), gzip, deflate (Content-Encoding)"),
                    new Axis(
                            "batch",
                            List.of("100000", "10000", "1000000"),
                            List.of("50000"),
                            "rows per INSERT"),
                    new Axis(
                            "engine",
                            List.of("MergeTree"),
                            List.of("Null"),
                            "table engine: Null, MergeTree"),
                    new Axis("rows", List.of("1000000"), List.of("200000"), "rows per repetition"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "every input format the server takes × compression × batch size, over HTTP: encode CPU,"
                + " server CPU, wire bytes, rows/s";
    }

    @Override
    public List<Axis> axes() {
        return AXES;
    }

    @Override
    public void check(Map<String, List<String>> axes) {
        arms(axes);
    }

    record Arm(String format, String compression, int batch, String engine, int rows) {
        Map<String, Object> values() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("format", format);
            m.put("compression", compression);
            m.put("batch", batch);
            m.put("engine", engine);
            m.put("rows", rows);
            return m;
        }
    }

    /**
     * The grid format × compression at the base batch, then batch × format at the base compression.
     */
    static List<Arm> arms(Map<String, List<String>> axes) {
        List<String> formats =
                axes.get("format").stream().map(v -> Units.oneOf(v, "format", FORMATS)).toList();
        List<String> codecs =
                axes.get("compression").stream().map(v -> Codecs.parse(v, "compression")).toList();
        List<Integer> batches =
                axes.get("batch").stream().map(v -> Units.positiveInt(v, "batch")).toList();
        List<String> engines =
                axes.get("engine").stream()
                        .map(v -> Units.oneOf(v, "engine", List.of("Null", "MergeTree")))
                        .toList();
        List<Integer> rows =
                axes.get("rows").stream().map(v -> Units.positiveInt(v, "rows")).toList();
        List<Arm> out = new ArrayList<>();
        for (String e : engines) {
            for (int n : rows) {
                for (String f : formats) {
                    for (String c : codecs) {
                        add(out, new Arm(f, c, batches.get(0), e, n));
                    }
                }
                for (int b : batches) {
                    for (String f : formats) {
                        add(out, new Arm(f, codecs.get(0), b, e, n));
                    }
                }
            }
        }
        return out;
    }

    private static void add(List<Arm> arms, Arm a) {
        if (!arms.contains(a)) {
            arms.add(a);
        }
    }

    @Override
    public void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception {
        Target target = ctx.target();
        List<Arm> arms = arms(axes);
        Map<String, Object> base = arms.get(0).values();
        ctx.progress().rig(NAME, arms.size(), ctx.reps());
        List<Arm> runnable = new ArrayList<>();
        for (Arm a : arms) {
            String why = unsupported(a, target);
            if (why != null) {
                ctx.progress().note("unsupported: " + Arms.label(a.values()) + ": " + why);
                ctx.write(ctx.record(NAME, a.values(), 1, settings(base)).unsupported(why));
            } else {
                runnable.add(a);
            }
        }
        ctx.progress().arms(runnable.size());
        Map<String, List<Block>> blocks = new HashMap<>();
        Map<Integer, EventsData> data = new HashMap<>();
        for (int rep = 1; rep <= ctx.reps(); rep++) {
            for (Arm a : Arms.order(runnable, rep)) {
                ctx.progress().arm(runnable.indexOf(a) + 1, rep, Arms.label(a.values()));
                EventsData d =
                        data.computeIfAbsent(a.rows, n -> EventsData.generate(n, ctx.seed()));
                List<Block> bs =
                        blocks.computeIfAbsent(a.rows + "/" + a.batch, k -> blocks(d, a.batch));
                BenchRecord r = ctx.record(NAME, a.values(), rep, settings(base));
                String table = ctx.newTable(Target.DATABASE, "formats");
                target.execute("DROP TABLE IF EXISTS " + table);
                target.execute(
                        "CREATE TABLE "
                                + table
                                + " ("
                                + EventsData.COLUMNS_DDL
                                + ") ENGINE = "
                                + (a.engine.equals("Null")
                                        ? "Null"
                                        : "MergeTree ORDER BY (tenant, ts)"));
                try {
                    measure(ctx, a, d, bs, table, r);
                } catch (RuntimeException e) {
                    r.failed("error: " + e.getMessage());
                } finally {
                    target.execute("DROP TABLE IF EXISTS " + table);
                }
                ctx.write(r);
                ctx.progress()
                        .repDone(
                                r.ok()
                                        ? String.format(
                                                Locale.ROOT,
                                                "%,.0f rows/s, %.0f wire B/row",
                                                ((Number) r.get("rows_per_s")).doubleValue(),
                                                ((Number) r.get("wire_bytes")).doubleValue()
                                                        / a.rows)
                                        : r.get("status") + ": " + r.get("reason"));
            }
        }
    }

    static String unsupported(Arm a, Target target) {
        if (target.httpUrl() == null) {
            return "no HTTP URL of the server (--http-url or CLICKHOUSE_HTTP_URL)";
        }
        if (Formats.find(a.format).isEmpty()) {
            return "the server reads "
                    + a.format
                    + " but Sluice has no encoder for it (it writes "
                    + String.join(", ", Formats.names())
                    + ")";
        }
        return null;
    }

    private static Map<String, Object> settings(Map<String, Object> base) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("base_arm", base);
        s.put("fixture", "events rows (payload arena 2048: low entropy), over HTTP");
        s.put("transport", "http (FORMAT Native is revision-0 Native)");
        s.put("wire_bytes_source", "client: the request body bytes (InsertResult.wireBytes)");
        return s;
    }

    static List<Block> blocks(EventsData d, int batch) {
        List<Block> out = new ArrayList<>();
        for (int from = 0; from < d.rows; from += batch) {
            Block b = EventsData.newBlock();
            d.appendTo(b, from, Math.min(d.rows, from + batch));
            out.add(b);
        }
        return out;
    }

    private static void measure(
            BenchContext ctx,
            Arm a,
            EventsData d,
            List<Block> blocks,
            String table,
            BenchRecord r) {
        Target target = ctx.target();
        InputFormat format = Formats.byName(a.format);
        // the encoder alone, into a sink that only counts: the client's cost of the format
        long[] encoded = new long[1];
        long e0 = ThreadCpu.nanos();
        for (Block b : blocks) {
            WireOutput counting = new WireOutput(1 << 20, (buf, off, len) -> encoded[0] += len);
            format.write(b, counting);
            counting.flush();
        }
        double encodeSeconds = (ThreadCpu.nanos() - e0) / 1e9;
        ConnectionConfig config =
                Codecs.apply(ConnectionConfig.parse(target.httpUrl()), a.compression);
        String prefix = "sluice-bench-formats-" + UUID.randomUUID() + "-";
        long wire = 0;
        long sent = 0;
        long server0 = ctx.serverCpu().mark();
        long cpu0 = ThreadCpu.nanos();
        long t0 = System.nanoTime();
        try (HttpConnection c = HttpConnection.open(config)) {
            int i = 0;
            for (Block b : blocks) {
                InsertResult res = c.insert(table, b, Map.of(), prefix + (i++), format);
                wire += res.wireBytes();
                sent += res.rows();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double clientCpu = (ThreadCpu.nanos() - cpu0) / 1e9;
        ctx.serverCpu().measure(server0, table, r);
        r.throughput(sent, seconds);
        r.set("wire_bytes", wire);
        r.set("uncompressed_bytes", encoded[0]);
        r.set("client_cpu_s", clientCpu);
        r.extra("encode_cpu_s", encodeSeconds);
        r.extra("encode_us_per_row", encodeSeconds / d.rows * 1e6);
        Double query = queryCpu(target, prefix);
        if (query != null) {
            r.extra("server_query_cpu_s", query);
            r.extra("server_query_us_per_row", query / d.rows * 1e6);
        }
        r.absent("verdict", "no limiter verdict: direct INSERTs, not a pipeline");
        r.absent("inflight_budget_bytes", "not a pipeline");
        if (a.engine.equals("MergeTree")) {
            Parts.record(target, table, r);
            String got =
                    String.join(
                            "\t",
                            target.query(EventsData.Checksums.SQL + table).get(0).stream()
                                    .map(String::valueOf)
                                    .toList());
            String want = d.checksums().render();
            r.extra("content_matches", got.equals(want));
            if (!got.equals(want)) {
                r.failed("the table holds " + got + "; the rows sent sum to " + want);
            }
        } else {
            r.absent("parts", "a Null table writes no parts");
            r.absent("rows_per_part", "a Null table writes no parts");
        }
        r.cpuBound(Runtime.getRuntime().availableProcessors(), target.colocated());
    }

    /** The INSERTs' own CPU in the query log (the server's parse and write), or null. */
    static Double queryCpu(Target target, String queryIdPrefix) {
        if (!target.hasQueryLog()) {
            return null;
        }
        target.execute("SYSTEM FLUSH LOGS");
        List<Object> row =
                target.query(
                                "SELECT count(), sum(ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')]"
                                        + " + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')]) FROM system.query_log"
                                        + " WHERE type = 2 AND query_id LIKE '"
                                        + queryIdPrefix
                                        + "%'")
                        .get(0);
        return ((Number) row.get(0)).longValue() == 0
                ? null
                : ((Number) row.get(1)).doubleValue() / 1e6;
    }
}
