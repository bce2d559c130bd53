package dev.sluice.rigs.saturation;

import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.SizingRule;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.rigs.Arms;
import dev.sluice.rigs.Axis;
import dev.sluice.rigs.BenchContext;
import dev.sluice.rigs.BenchRecord;
import dev.sluice.rigs.Parts;
import dev.sluice.rigs.Rig;
import dev.sluice.rigs.Target;
import dev.sluice.rigs.Units;
import dev.sluice.rigs.run.BenchFactories;
import dev.sluice.rigs.run.PipelineWindow;
import dev.sluice.rigs.run.ProcessCpu;
import dev.sluice.rigs.verdict.Sizing;
import dev.sluice.rigs.verdict.VerdictRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Sink saturation, the spate rig on Sluice's runtime: the generator source drives the real pipeline
 * (decode, batching, the in-flight budget, sharded writers) into ClickHouse at full speed, and
 * backpressure clamps it to what the sink absorbs. Throughput is the rate of {@code
 * etl_sink_records_total} over the window (so a Null table, which keeps no rows, can be measured);
 * every repetition gets a limiter verdict ({@link VerdictRule}); the budget is the sizing rule's
 * unless {@code --budget} says otherwise.
 *
 * <p>Arms: the grid threads × engine × format/transport, then every other axis swept one at a time
 * around the base arm (the first value of each axis); {@code --presort} is swept on MergeTree (a
 * Null table has no sorting key to presort by), the other arms' presort is off.
 */
public final class SaturationRig implements Rig {
    public static final String NAME = "saturation";

    static final String COLUMNS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    /** Bytes per row of a batch's cap when {@code --max-bytes} is auto: rows seal batches first. */
    static final long AUTO_BYTES_PER_ROW = 320;

    private static final List<Axis> AXES =
            List.of(
                    new Axis(
                            "threads",
                            List.of("1", "2", "3", "4"),
                            List.of("1", "2"),
                            "pipeline threads"),
                    new Axis(
                            "shards",
                            List.of("1", "2"),
                            List.of("1"),
                            "writer shards, all to the same server (inflight_per_shard 2 each)"),
                    new Axis(
                            "engine",
                            List.of("Null", "MergeTree"),
                            List.of("Null"),
                            "table engine: Null, MergeTree"),
                    new Axis(
                            "format",
                            List.of("Native", "RowBinary"),
                            List.of("Native", "RowBinary"),
                            "input format: Native, RowBinary (HTTP only)"),
                    new Axis(
                            "transport",
                            List.of("native", "http"),
                            List.of("native", "http"),
                            "native, http"),
                    new Axis(
                            "compression",
                            List.of("lz4", "none", "zstd"),
                            List.of("lz4"),
                            "lz4, zstd, zstd:LEVEL, none"),
                    new Axis(
                            "max-rows",
                            List.of("1048576", "262144", "2097152"),
                            List.of("65536"),
                            "batch.max_rows"),
                    new Axis(
                            "async-insert",
                            List.of("off", "on"),
                            List.of("off", "on"),
                            "the async_insert setting: off, on"),
                    new Axis(
                            "budget",
                            List.of("auto"),
                            List.of("auto"),
                            "in-flight budget: auto (the sizing rule) or a size, e.g. 64MiB"),
                    new Axis(
                            "presort",
                            List.of("off", "on", "auto"),
                            List.of("off"),
                            "presort: off, on, auto; swept on MergeTree at the base arm (other"
                                    + " arms off)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "generator → real pipeline → sink → ClickHouse at full speed; rows/s from"
                + " etl_sink_records_total over the window, a limiter verdict per rep";
    }

    @Override
    public List<Axis> axes() {
        return AXES;
    }

    @Override
    public void check(Map<String, List<String>> axes) {
        arms(axes);
    }

    /** One arm, parsed. */
    record Arm(
            int threads,
            int shards,
            String engine,
            String format,
            String transport,
            String compression,
            int maxRows,
            String asyncInsert,
            String budget,
            String presort) {

        Map<String, Object> values() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("threads", threads);
            m.put("shards", shards);
            m.put("engine", engine);
            m.put("format", format);
            m.put("transport", transport);
            m.put("compression", compression);
            m.put("max_rows", maxRows);
            m.put("async_insert", asyncInsert);
            m.put("budget", budget);
            m.put("presort", presort);
            return m;
        }
    }

    /** The arms in run order: the grid, then the one-at-a-time sweeps, each arm once. */
    static List<Arm> arms(Map<String, List<String>> axes) {
        return arms(axes, null);
    }

    /** The base arm: the first value of every axis. */
    static Arm base(Map<String, List<String>> axes) {
        List<Arm> holder = new ArrayList<>();
        arms(axes, holder);
        return holder.get(0);
    }

    private static List<Arm> arms(Map<String, List<String>> axes, List<Arm> baseOut) {
        List<Integer> threads =
                axes.get("threads").stream().map(v -> Units.positiveInt(v, "threads")).toList();
        List<Integer> shards =
                axes.get("shards").stream().map(v -> Units.positiveInt(v, "shards")).toList();
        List<String> engines =
                axes.get("engine").stream()
                        .map(v -> Units.oneOf(v, "engine", List.of("Null", "MergeTree")))
                        .toList();
        List<String> formats =
                axes.get("format").stream()
                        .map(v -> Units.oneOf(v, "format", List.of("Native", "RowBinary")))
                        .toList();
        List<String> transports =
                axes.get("transport").stream()
                        .map(v -> Units.oneOf(v, "transport", List.of("native", "http")))
                        .toList();
        List<String> compressions =
                axes.get("compression").stream().map(v -> compression(v)).toList();
        List<Integer> maxRows =
                axes.get("max-rows").stream().map(v -> Units.positiveInt(v, "max-rows")).toList();
        List<String> asyncs =
                axes.get("async-insert").stream()
                        .map(v -> Units.oneOf(v, "async-insert", List.of("off", "on")))
                        .toList();
        List<String> budgets =
                axes.get("budget").stream()
                        .map(
                                v -> {
                                    if (!v.equalsIgnoreCase("auto")) {
                                        Units.bytes(v, "budget");
                                    }
                                    return v.strip();
                                })
                        .toList();
        List<String> presorts =
                axes.getOrDefault("presort", List.of("off")).stream()
                        .map(v -> Units.oneOf(v, "presort", List.of("off", "on", "auto")))
                        .toList();
        Arm base =
                new Arm(
                        threads.get(0),
                        shards.get(0),
                        engines.get(0),
                        formats.get(0),
                        transports.get(0),
                        compressions.get(0),
                        maxRows.get(0),
                        asyncs.get(0),
                        budgets.get(0),
                        "off");
        if (baseOut != null) {
            baseOut.add(base);
        }
        List<Arm> out = new ArrayList<>();
        for (int t : threads) {
            for (String e : engines) {
                for (String f : formats) {
                    for (String tr : transports) {
                        Arm a =
                                new Arm(
                                        t,
                                        base.shards,
                                        e,
                                        f,
                                        tr,
                                        base.compression,
                                        base.maxRows,
                                        base.asyncInsert,
                                        base.budget,
                                        "off");
                        // An impossible pairing is recorded once (at the base), not per grid cell.
                        if (unsupportedPairing(a) != null
                                && (t != base.threads || !e.equals(base.engine))) {
                            continue;
                        }
                        add(out, a);
                    }
                }
            }
        }
        for (String c : compressions) {
            add(
                    out,
                    new Arm(
                            base.threads,
                            base.shards,
                            base.engine,
                            base.format,
                            base.transport,
                            c,
                            base.maxRows,
                            base.asyncInsert,
                            base.budget,
                            "off"));
        }
        for (int s : shards) {
            add(
                    out,
                    new Arm(
                            base.threads,
                            s,
                            base.engine,
                            base.format,
                            base.transport,
                            base.compression,
                            base.maxRows,
                            base.asyncInsert,
                            base.budget,
                            "off"));
        }
        // Rows per part needs parts: the batch-cap sweep runs on MergeTree when it is an arm.
        String partsEngine = engines.contains("MergeTree") ? "MergeTree" : base.engine;
        for (int m : maxRows) {
            add(
                    out,
                    new Arm(
                            base.threads,
                            base.shards,
                            partsEngine,
                            base.format,
                            base.transport,
                            base.compression,
                            m,
                            base.asyncInsert,
                            base.budget,
                            "off"));
        }
        for (String a : asyncs) {
            add(
                    out,
                    new Arm(
                            base.threads,
                            base.shards,
                            base.engine,
                            base.format,
                            base.transport,
                            base.compression,
                            base.maxRows,
                            a,
                            base.budget,
                            "off"));
        }
        for (String b : budgets) {
            add(
                    out,
                    new Arm(
                            base.threads,
                            base.shards,
                            base.engine,
                            base.format,
                            base.transport,
                            base.compression,
                            base.maxRows,
                            base.asyncInsert,
                            b,
                            "off"));
        }
        // Pre-sorting needs a sorting key: its sweep runs on MergeTree, and only when asked for
        // (off alone is the other arms' setting, and would add a MergeTree arm to a Null run).
        if (!presorts.equals(List.of("off"))) {
            for (String p : presorts) {
                add(
                        out,
                        new Arm(
                                base.threads,
                                base.shards,
                                "MergeTree",
                                base.format,
                                base.transport,
                                base.compression,
                                base.maxRows,
                                base.asyncInsert,
                                base.budget,
                                p));
            }
        }
        return out;
    }

    private static void add(List<Arm> arms, Arm a) {
        if (!arms.contains(a)) {
            arms.add(a);
        }
    }

    private static String compression(String v) {
        String c = v.strip().toLowerCase(Locale.ROOT);
        if (!c.matches("lz4|none|zstd(:\\d+)?")) {
            throw new IllegalArgumentException(
                    "--compression: '" + v + "' is not one of lz4, zstd, zstd:LEVEL, none");
        }
        return c;
    }

    /** Why the arm cannot run on any server, or null. */
    static String unsupportedPairing(Arm a) {
        if (a.format.equals("RowBinary") && a.transport.equals("native")) {
            return "the native protocol carries Native blocks only; RowBinary goes over HTTP";
        }
        return null;
    }

    /** Why the arm cannot run on this server, or null. */
    static String unsupported(Arm a, Target target) {
        String pairing = unsupportedPairing(a);
        if (pairing != null) {
            return pairing;
        }
        if (a.transport.equals("http") && target.httpUrl() == null) {
            return "no HTTP URL of the server (--http-url or CLICKHOUSE_HTTP_URL)";
        }
        if (a.asyncInsert.equals("on") && !target.hasAsyncInsert()) {
            return "ClickHouse "
                    + target.version()
                    + " has no async_insert setting (system.settings)";
        }
        return null;
    }

    @Override
    public void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception {
        List<Arm> arms = arms(axes);
        baseArm = base(axes).values();
        Target target = ctx.target();
        List<Arm> runnable = new ArrayList<>();
        ctx.progress().rig(NAME, arms.size(), ctx.reps());
        for (Arm a : arms) {
            String why = unsupported(a, target);
            if (why != null) {
                ctx.progress().note("unsupported: " + Arms.label(a.values()) + ": " + why);
                BenchRecord r = ctx.record(NAME, a.values(), 1, settings(a, null));
                ctx.write(r.unsupported(why));
            } else {
                runnable.add(a);
            }
        }
        ctx.progress().arms(runnable.size());
        for (int rep = 1; rep <= ctx.reps(); rep++) {
            for (Arm a : Arms.order(runnable, rep)) {
                ctx.progress().arm(runnable.indexOf(a) + 1, rep, Arms.label(a.values()));
                BenchRecord r = runRep(ctx, a, rep);
                ctx.write(r);
                ctx.progress().repDone(summary(r));
            }
        }
    }

    static String summary(BenchRecord r) {
        if (!r.ok()) {
            return r.get("status") + ": " + r.get("reason");
        }
        return String.format(
                Locale.ROOT,
                "%,.0f rows/s, verdict %s",
                ((Number) r.get("rows_per_s")).doubleValue(),
                r.get("verdict"));
    }

    private Map<String, Object> baseArm = Map.of();

    private Map<String, Object> settings(Arm a, PipelineSpec spec) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("base_arm", baseArm);
        s.put(
                "source",
                "generator (unbounded, payload arena "
                        + ConfigDefaults.GENERATOR_PAYLOAD_ARENA
                        + " texts: low entropy)");
        s.put("batch_max_bytes", maxBytes(a));
        s.put("batch_linger_s", 1.0);
        s.put("inflight_per_shard", ConfigDefaults.INFLIGHT_PER_SHARD);
        s.put("high_watermark", ConfigDefaults.HIGH_WATERMARK);
        s.put("low_watermark", ConfigDefaults.LOW_WATERMARK);
        s.put(
                "table",
                COLUMNS
                        + (a.engine.equals("Null")
                                ? " ENGINE = Null"
                                : " ENGINE = MergeTree ORDER BY (tenant, ts)"));
        if (a.format.equals("RowBinary")) {
            s.put(
                    "format_path",
                    "Factories.inserter: HttpConnection.insert(..., RowBinary) — the sink configuration sends Native only");
        }
        if (spec != null) {
            s.put("footprint_bytes", SizingRule.footprint(spec));
        }
        return s;
    }

    static long maxBytes(Arm a) {
        return (long) a.maxRows * AUTO_BYTES_PER_ROW;
    }

    static PipelineSpec spec(Arm a, String table, String url, long seed, Target target) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (target.hasAsyncInsert()) {
            settings.put("async_insert", a.asyncInsert.equals("on") ? "1" : "0");
        }
        List<ShardSpec> shards = new ArrayList<>();
        for (int s = 0; s < a.shards; s++) {
            shards.add(new ShardSpec(List.of(url), 1));
        }
        long budget = a.budget.equalsIgnoreCase("auto") ? 0 : Units.bytes(a.budget, "budget");
        return new PipelineSpec(
                "bench-saturation",
                a.threads,
                new GeneratorSource(0, 0, seed, ConfigDefaults.GENERATOR_PAYLOAD_ARENA),
                new DecodeSpec(Format.GENERATOR, List.of(), false, Map.of(), false, ','),
                List.of(),
                new SinkSpec(
                                shards,
                                table,
                                new BatchSpec(a.maxRows, maxBytes(a), Duration.ofSeconds(1)),
                                ConfigDefaults.INFLIGHT_PER_SHARD,
                                a.compression,
                                false,
                                settings,
                                ConfigDefaults.RETRY)
                        .toBuilder().presort(PresortMode.parse(a.presort)).build(),
                new ErrorsSpec(ErrorPolicy.FAIL, ConfigDefaults.deadLetterPath("bench"), -1),
                new BackpressureSpec(
                        budget, ConfigDefaults.HIGH_WATERMARK, ConfigDefaults.LOW_WATERMARK),
                new CheckpointSpec(ConfigDefaults.CHECKPOINT_INTERVAL, null),
                new PipelineSpec.AdminSpec(null));
    }

    private BenchRecord runRep(BenchContext ctx, Arm a, int rep) throws Exception {
        Target target = ctx.target();
        String table = ctx.newTable(Target.DATABASE, "saturation");
        String url = a.transport.equals("http") ? target.httpUrl() : target.nativeUrl();
        PipelineSpec spec = spec(a, table, url, ctx.seed(), target);
        BenchRecord r = ctx.record(NAME, a.values(), rep, settings(a, spec));
        target.execute("DROP TABLE IF EXISTS " + table);
        target.execute(
                "CREATE TABLE "
                        + table
                        + " ("
                        + COLUMNS
                        + ") ENGINE = "
                        + (a.engine.equals("Null") ? "Null" : "MergeTree ORDER BY (tenant, ts)"));
        try {
            InputFormat format =
                    a.format.equals("RowBinary") ? Formats.ROW_BINARY : InputFormat.NATIVE;
            PipelineWindow.Outcome o =
                    PipelineWindow.run(
                            spec,
                            new BenchFactories(spec, format, UnaryOperator.identity()),
                            ctx.options().warmup(),
                            ctx.options().window(),
                            ctx.progress(),
                            ctx.serverCpu()::mark,
                            PipelineWindow.Edges.NONE);
            r.set("inflight_budget_bytes", SizingRule.budget(spec));
            r.set("sizing_rule_bytes", SizingRule.minimumBudget(spec));
            if (!o.warnings().isEmpty()) {
                r.extra("pipeline_warnings", o.warnings());
            }
            if (o.failure() != null) {
                return r.failed(o.failure());
            }
            fill(ctx, r, a, spec, o, table);
            return r;
        } finally {
            target.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    static void fill(
            BenchContext ctx,
            BenchRecord r,
            Arm a,
            PipelineSpec spec,
            PipelineWindow.Outcome o,
            String table) {
        Target target = ctx.target();
        r.throughput(o.delta("etl_sink_records_total"), o.seconds());
        r.set("wire_bytes", o.delta("etl_sink_wire_bytes_total"));
        r.set("uncompressed_bytes", o.delta("etl_sink_bytes_total"));
        r.set("client_cpu_s", ProcessCpu.processSeconds(o.cpuFrom(), o.cpuTo()));
        r.extra(
                "client_cpu_pipeline_threads_s",
                ProcessCpu.threadSeconds(o.cpuFrom(), o.cpuTo(), "-pipeline-"));
        r.extra(
                "client_cpu_writer_threads_s",
                ProcessCpu.threadSeconds(o.cpuFrom(), o.cpuTo(), "-shard"));
        ctx.serverCpu().measure(o.serverFrom(), o.serverTo(), table, r);
        int slots = spec.threads() + spec.sink().shards().size() * spec.sink().inflightPerShard();
        VerdictRule.Judgement j =
                VerdictRule.judge(
                        o.samples(),
                        new Sizing(SizingRule.budget(spec), SizingRule.minimumBudget(spec), slots));
        r.set("verdict", j.verdict().label());
        r.set("verdict_detail", j.detail());
        r.extra("inserts", o.delta("etl_sink_inserts_total"));
        r.extra("batches", o.delta("etl_sink_batches_total"));
        r.extra("retries", o.delta("etl_sink_retries_total"));
        r.extra("pause_events", o.delta("etl_backpressure_pause_events_total"));
        r.extra("samples", o.samples().size());
        if (!a.presort.equals("off")) {
            // What auto decided, block by block (docs/presort.md): sorted when the server was
            // behind, skipped when decoding was.
            for (String outcome : List.of("sorted", "already_sorted", "skipped_no_backlog")) {
                r.extra(
                        "presort_blocks_" + outcome,
                        o.delta("etl_sink_presort_blocks{outcome=" + outcome + "}"));
            }
        }
        if (a.engine.equals("MergeTree")) {
            parts(target, table, r, o.result().stats().rowsWritten());
        } else {
            r.absent("parts", "a Null table writes no parts");
            r.absent("rows_per_part", "a Null table writes no parts");
        }
        r.cpuBound(Runtime.getRuntime().availableProcessors(), target.colocated());
    }

    /** Parts written, and the rows that landed against the rows acknowledged. */
    static void parts(Target target, String table, BenchRecord r, long acknowledged) {
        Parts.record(target, table, r);
        long landed = target.queryLong("SELECT count() FROM " + table);
        r.extra("rows_acknowledged_total", acknowledged);
        r.extra("rows_landed_total", landed);
        if (landed < acknowledged) {
            r.failed(
                    String.format(
                            Locale.ROOT,
                            "%,d rows acknowledged but %,d in the table: rows were lost",
                            acknowledged,
                            landed));
        }
    }

    static List<String> axisNames() {
        return Collections.unmodifiableList(AXES.stream().map(Axis::name).toList());
    }
}
