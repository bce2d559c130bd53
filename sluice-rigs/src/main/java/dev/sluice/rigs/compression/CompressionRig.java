package dev.sluice.rigs.compression;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compression over the native protocol: off, LZ4 and ZSTD levels on low-entropy rows (the events
 * with a 2,048-text payload arena, which flatters compression), high-entropy rows (a random payload
 * per row) and the seed LZ4 benchmark's shape (500k ~700-byte JSON events). Per repetition: wall
 * time, rows/s, bytes on the wire (the compressed Data packets, counted by the client: 18.16's
 * query log has no network counters), the inserting thread's CPU and the server's.
 */
public final class CompressionRig implements Rig {
    public static final String NAME = "compression";

    private static final List<Axis> AXES =
            List.of(
                    new Axis(
                            "data",
                            List.of("low", "high", "json700"),
                            List.of("low", "high", "json700"),
                            "low (2,048-text arena), high (random payload per row), json700 (~700-byte JSON events)"),
                    new Axis(
                            "codec",
                            List.of("none", "lz4", "zstd:1", "zstd:3", "zstd:9"),
                            List.of("none", "lz4", "zstd:1"),
                            "none, lz4, zstd:LEVEL"),
                    new Axis(
                            "rows",
                            List.of("1000000"),
                            List.of("100000"),
                            "rows of low and high (json700: half as many)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "off / LZ4 / ZSTD levels on low- and high-entropy rows and ~700-byte JSON events: wire bytes,"
                + " client and server CPU, rows/s";
    }

    @Override
    public List<Axis> axes() {
        return AXES;
    }

    @Override
    public void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception {
        Target target = ctx.target();
        List<String> datas =
                axes.get("data").stream()
                        .map(v -> Units.oneOf(v, "data", List.of("low", "high", "json700")))
                        .toList();
        List<String> codecs = new ArrayList<>();
        for (String c : axes.get("codec")) {
            String codec = Codecs.parse(c, "codec");
            if (Codecs.contentEncoding(codec)) {
                throw new IllegalArgumentException(
                        "--codec: "
                                + c
                                + " is an HTTP Content-Encoding; this rig uses the native protocol");
            }
            codecs.add(codec);
        }
        List<Integer> rowsList =
                axes.get("rows").stream().map(v -> Units.positiveInt(v, "rows")).toList();
        List<Map<String, Object>> arms = new ArrayList<>();
        for (int n : rowsList) {
            for (String d : datas) {
                for (String c : codecs) {
                    Map<String, Object> arm = new LinkedHashMap<>();
                    arm.put("data", d);
                    arm.put("codec", c);
                    arm.put("rows", d.equals("json700") ? n / 2 : n);
                    arms.add(arm);
                }
            }
        }
        Map<String, Object> base = arms.get(0);
        ctx.progress().rig(NAME, arms.size(), ctx.reps());
        Map<String, Dataset> cache = new HashMap<>();
        for (int rep = 1; rep <= ctx.reps(); rep++) {
            for (Map<String, Object> arm : Arms.order(arms, rep)) {
                ctx.progress().arm(arms.indexOf(arm) + 1, rep, Arms.label(arm));
                String dataName = (String) arm.get("data");
                int rows = (Integer) arm.get("rows");
                Dataset data =
                        cache.computeIfAbsent(
                                dataName + "/" + rows,
                                k ->
                                        switch (dataName) {
                                            case "low" -> Dataset.low(rows, ctx.seed());
                                            case "high" -> Dataset.high(rows, ctx.seed());
                                            default -> Dataset.json700(rows, ctx.seed());
                                        });
                String table = ctx.newTable(Target.DATABASE, "compression");
                target.execute("DROP TABLE IF EXISTS " + table);
                target.execute(
                        "CREATE TABLE "
                                + table
                                + " ("
                                + data.columnsDdl()
                                + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
                Map<String, Object> settings = new LinkedHashMap<>();
                settings.put("base_arm", base);
                settings.put(
                        "fixture",
                        "native protocol into MergeTree ORDER BY (tenant, ts), one INSERT, 1,048,576-row blocks");
                settings.put(
                        "wire_bytes_source",
                        "client: compressed Data packet bytes (InsertResult.wireBytes)");
                BenchRecord r = ctx.record(NAME, arm, rep, settings);
                try {
                    measure(ctx, data, (String) arm.get("codec"), table, r);
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
                                                "%,.0f rows/s, %,d wire bytes",
                                                ((Number) r.get("rows_per_s")).doubleValue(),
                                                ((Number) r.get("wire_bytes")).longValue())
                                        : r.get("status") + ": " + r.get("reason"));
            }
        }
    }

    private static void measure(
            BenchContext ctx, Dataset data, String codec, String table, BenchRecord r) {
        Target target = ctx.target();
        ConnectionConfig config = Codecs.apply(ConnectionConfig.parse(target.nativeUrl()), codec);
        InsertResult result;
        long server0;
        long cpu0;
        long t0;
        double seconds;
        double cpu;
        try (NativeConnection c = NativeConnection.open(config)) {
            server0 = ctx.serverCpu().mark();
            cpu0 = ThreadCpu.nanos();
            t0 = System.nanoTime();
            try (Insert insert = c.insert(table, List.of(), Map.of(), InsertOptions.DEFAULTS)) {
                data.append(insert);
                result = insert.finish();
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            cpu = (ThreadCpu.nanos() - cpu0) / 1e9;
            ctx.serverCpu().measure(server0, table, r);
        }
        r.throughput(result.rows(), seconds);
        r.set("wire_bytes", result.wireBytes());
        r.set("uncompressed_bytes", result.uncompressedBytes());
        r.set("client_cpu_s", cpu);
        r.extra("ratio", result.compressionRatio());
        r.absent("verdict", "no limiter verdict: one direct INSERT, not a pipeline");
        r.absent("inflight_budget_bytes", "not a pipeline");
        Parts.record(target, table, r);
        String got =
                String.join(
                        "\t",
                        target.query(data.sumsSql() + table).get(0).stream()
                                .map(String::valueOf)
                                .toList());
        r.extra("content_matches", got.equals(data.expectedSums()));
        if (!got.equals(data.expectedSums())) {
            r.failed("the table holds " + got + "; the rows sent sum to " + data.expectedSums());
        }
        r.cpuBound(Runtime.getRuntime().availableProcessors(), target.colocated());
    }
}
