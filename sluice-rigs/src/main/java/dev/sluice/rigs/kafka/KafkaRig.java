package dev.sluice.rigs.kafka;

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
import dev.sluice.pipeline.spec.PipelineSpec.FileSource;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.KafkaSource;
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
import dev.sluice.rigs.data.EventsData;
import dev.sluice.rigs.run.BenchFactories;
import dev.sluice.rigs.run.PipelineWindow;
import dev.sluice.rigs.run.ProcessCpu;
import dev.sluice.rigs.verdict.Sizing;
import dev.sluice.rigs.verdict.VerdictRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Kafka → Sluice → ClickHouse: the real Kafka source (a consumer group, one member per pipeline
 * thread) decoding JSON records into the events table.
 *
 * <ul>
 *   <li>{@code backlog}: the topic is filled first; a fresh group drains it from the earliest
 *       offset, and the window's rate of {@code etl_sink_records_total} is the figure, with a
 *       limiter verdict;
 *   <li>{@code file}: the yardstick — the same records, one per line, read from a file by the same
 *       pipeline (threads, decoder, batches, sink; checkpoints and ledger in a directory, as {@code
 *       sluice load} keeps them) into the same table; the Kafka path is judged by its ratio to
 *       this;
 *   <li>{@code paced}: a producer sends at {@code --rate} while the pipeline runs — {@code half}:
 *       half the backlog arm's median rate at the same thread count in this run, so paced arms run
 *       after the others in each repetition — and every row's latency from its Kafka timestamp to
 *       ClickHouse's acknowledgement of its INSERT gives p50 and p99.
 * </ul>
 *
 * <p>Arms that are not paced carry {@code rate=-}, so the report can tell the throughput arms from
 * the latency arms.
 */
public final class KafkaRig implements Rig {
    public static final String NAME = "kafka";

    static final String COLUMNS = EventsData.COLUMNS_DDL + ", _timestamp UInt64";

    /** The paced rate that is half the backlog arm's measured rate. */
    static final String HALF = "half";

    /** The rate of arms that are not paced. */
    static final String NOT_PACED = "-";

    private static final List<String> MODES = List.of("backlog", "file", "paced");

    /**
     * The file arm reads its file up to this many times (through hard links, one partition each),
     * so that it outlasts warm-up and window like the backlog does: the file path is faster.
     */
    static final int FILE_PASSES = 8;

    private static final List<Axis> AXES =
            List.of(
                    new Axis(
                            "mode",
                            List.of("backlog", "file", "paced"),
                            List.of("backlog", "file", "paced"),
                            "backlog (Kafka throughput), file (the same records from a file: the"
                                    + " yardstick) or paced (latency)"),
                    new Axis(
                            "threads",
                            List.of("1", "2"),
                            List.of("1"),
                            "pipeline threads (consumers)"),
                    new Axis("partitions", List.of("4"), List.of("2"), "topic partitions"),
                    new Axis(
                            "records",
                            List.of("10000000"),
                            // the pipeline drains ~600k records/s here on an idle machine: a quick
                            // run's 2 s warm-up and 3 s window need about 3M
                            List.of("3000000"),
                            "backlog records produced before the run"),
                    new Axis(
                            "rate",
                            List.of(HALF),
                            List.of(HALF),
                            "paced: records per second produced, or half: half the backlog"
                                    + " arm's rate at the same threads in this run"),
                    new Axis("linger", List.of("1s"), List.of("1s"), "batch.linger (ms or s)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Kafka → Sluice → ClickHouse: rows/s draining a backlog (with a verdict), end-to-end latency"
                + " p50/p99 at a paced rate";
    }

    @Override
    public List<Axis> axes() {
        return AXES;
    }

    @Override
    public void check(Map<String, List<String>> axes) {
        for (String single : List.of("partitions", "records", "rate", "linger")) {
            if (axes.get(single).size() != 1) {
                throw new IllegalArgumentException("--" + single + " takes one value, not a list");
            }
        }
        axes.get("mode").forEach(v -> Units.oneOf(v, "mode", MODES));
        axes.get("threads").forEach(v -> Units.positiveInt(v, "threads"));
        Units.positiveInt(axes.get("partitions").get(0), "partitions");
        Units.positiveInt(axes.get("records").get(0), "records");
        String rate = axes.get("rate").get(0);
        if (!rate.equals(HALF)) {
            Units.positiveInt(rate, "rate");
        }
        if (rate.equals(HALF)
                && axes.get("mode").contains("paced")
                && !axes.get("mode").contains("backlog")) {
            throw new IllegalArgumentException(
                    "--rate half paces at half the backlog arm's rate: add --mode backlog, or give"
                            + " a rate in records per second");
        }
        linger(axes.get("linger").get(0));
    }

    @Override
    public void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception {
        check(axes);
        List<String> modes = axes.get("mode");
        List<Integer> threads =
                axes.get("threads").stream().map(v -> Units.positiveInt(v, "threads")).toList();
        int partitions = Units.positiveInt(axes.get("partitions").get(0), "partitions");
        int records = Units.positiveInt(axes.get("records").get(0), "records");
        String rate = axes.get("rate").get(0);
        Duration linger = linger(axes.get("linger").get(0));
        List<Map<String, Object>> arms = new ArrayList<>();
        for (String m : modes) {
            for (int t : threads) {
                Map<String, Object> arm = new LinkedHashMap<>();
                arm.put("mode", m);
                arm.put("threads", t);
                arm.put("partitions", partitions);
                arm.put("records", records);
                arm.put("rate", m.equals("paced") ? rate : NOT_PACED);
                arm.put("linger", axes.get("linger").get(0));
                arms.add(arm);
            }
        }
        Map<String, Object> base = arms.get(0);
        ctx.progress().rig(NAME, arms.size(), ctx.reps());
        String bootstrap = ctx.kafkaBootstrap();
        EventsData data = EventsData.generate(100_000, ctx.seed());
        String run = UUID.randomUUID().toString().substring(0, 8);
        String backlogTopic = "sluice-bench-backlog-" + run;
        List<String> topics = new ArrayList<>();
        try (Admin admin =
                        Admin.create(
                                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
                EventProducer producer = new EventProducer(bootstrap, data)) {
            double produced = 0;
            List<Path> files = new ArrayList<>();
            if (modes.contains("file")) {
                Path file = ctx.workDir().resolve("kafka-rig-" + run + ".ndjson");
                ctx.progress()
                        .note(
                                String.format(
                                        Locale.ROOT,
                                        "writing the same %,d records to %s...",
                                        records,
                                        file));
                producer.writeFile(file, records);
                files.add(file);
                for (int pass = 2; pass <= FILE_PASSES; pass++) {
                    files.add(
                            Files.createLink(
                                    ctx.workDir()
                                            .resolve("kafka-rig-" + run + "-" + pass + ".ndjson"),
                                    file));
                }
            }
            if (modes.contains("backlog")) {
                create(admin, backlogTopic, partitions);
                topics.add(backlogTopic);
                ctx.progress()
                        .note(
                                String.format(
                                        Locale.ROOT,
                                        "producing a backlog of %,d records into %s...",
                                        records,
                                        backlogTopic));
                produced = producer.backlog(backlogTopic, records);
                ctx.progress()
                        .note(
                                String.format(
                                        Locale.ROOT,
                                        "backlog produced at %,.0f records/s",
                                        produced));
            }
            Map<Integer, List<Double>> backlogRates = new LinkedHashMap<>();
            try {
                warmUp(ctx, arms, base, bootstrap, backlogTopic, files, linger, records, produced);
                int seq = 0;
                for (int rep = 1; rep <= ctx.reps(); rep++) {
                    for (Map<String, Object> arm : inRunOrder(arms, rep)) {
                        ctx.progress().arm(arms.indexOf(arm) + 1, rep, Arms.label(arm));
                        boolean paced = arm.get("mode").equals("paced");
                        boolean fromFile = arm.get("mode").equals("file");
                        int t = (Integer) arm.get("threads");
                        double pacedRate = 0;
                        if (paced) {
                            pacedRate =
                                    rate.equals(HALF)
                                            ? half(backlogRates.get(t))
                                            : Integer.parseInt(rate);
                        }
                        String topic = backlogTopic;
                        if (paced) {
                            topic = "sluice-bench-paced-" + run + "-" + (++seq);
                            create(admin, topic, partitions);
                            topics.add(topic);
                        }
                        String table = ctx.newTable(Target.DATABASE, "kafka");
                        BenchRecord r;
                        if (paced && pacedRate <= 0) {
                            r =
                                    ctx.record(NAME, arm, rep, Map.of("base_arm", base))
                                            .failed(
                                                    "rate=half paces at half the backlog arm's"
                                                            + " rate with threads="
                                                            + t
                                                            + ", and no such arm succeeded before"
                                                            + " it in this run");
                        } else {
                            r =
                                    runRep(
                                            ctx,
                                            arm,
                                            rep,
                                            base,
                                            bootstrap,
                                            fromFile ? null : topic,
                                            fromFile ? files : null,
                                            table,
                                            t,
                                            linger,
                                            paced,
                                            (long) Math.ceil(pacedRate),
                                            records,
                                            produced);
                        }
                        // a backlog cut short is too short a look to report, but its rate while it
                        // had records is still the pipeline's: enough to pace at half of it
                        if (arm.get("mode").equals("backlog")
                                && (r.ok()
                                        || Boolean.TRUE.equals(
                                                ((Map<?, ?>) r.get("extra"))
                                                        .get("backlog_exhausted")))) {
                            backlogRates
                                    .computeIfAbsent(t, k -> new ArrayList<>())
                                    .add(((Number) r.get("rows_per_s")).doubleValue());
                        }
                        ctx.write(r);
                        ctx.progress()
                                .repDone(
                                        r.ok()
                                                ? String.format(
                                                        Locale.ROOT,
                                                        "%,.0f rows/s, verdict %s%s",
                                                        ((Number) r.get("rows_per_s"))
                                                                .doubleValue(),
                                                        r.get("verdict"),
                                                        paced
                                                                ? ", p99 "
                                                                        + ((Map<?, ?>)
                                                                                        r.get(
                                                                                                "extra"))
                                                                                .get(
                                                                                        "latency_p99_s")
                                                                        + " s"
                                                                : "")
                                                : r.get("status") + ": " + r.get("reason"));
                    }
                }
            } finally {
                // the test broker keeps everything (no retention): leave no topic behind
                admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
                for (Path f : files) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /**
     * One untimed repetition of the first arm that is not paced, its record dropped: a fresh JVM
     * compiles the pipeline's hot code during its first arm, and on a busy machine the warm-up
     * before the window is not enough for it, so repetition 1's first arm (always the same one)
     * measured colder code than every other.
     */
    private void warmUp(
            BenchContext ctx,
            List<Map<String, Object>> arms,
            Map<String, Object> base,
            String bootstrap,
            String backlogTopic,
            List<Path> files,
            Duration linger,
            int records,
            double produced)
            throws Exception {
        for (Map<String, Object> arm : inRunOrder(arms, 1)) {
            if (arm.get("mode").equals("paced")) {
                continue;
            }
            boolean fromFile = arm.get("mode").equals("file");
            ctx.progress().note("warming the JVM up: one untimed repetition of " + Arms.label(arm));
            runRep(
                    ctx,
                    arm,
                    0,
                    base,
                    bootstrap,
                    fromFile ? null : backlogTopic,
                    fromFile ? files : null,
                    ctx.newTable(Target.DATABASE, "kafka"),
                    (Integer) arm.get("threads"),
                    linger,
                    false,
                    0,
                    records,
                    produced);
            return;
        }
    }

    /**
     * A repetition's arms in run order ({@link Arms#order}), the paced ones last: a paced arm at
     * {@code rate=half} needs this repetition's backlog figure.
     */
    static List<Map<String, Object>> inRunOrder(List<Map<String, Object>> arms, int rep) {
        List<Map<String, Object>> ordered = new ArrayList<>(Arms.order(arms, rep));
        List<Map<String, Object>> paced =
                ordered.stream().filter(a -> "paced".equals(a.get("mode"))).toList();
        ordered.removeAll(paced);
        ordered.addAll(paced);
        return ordered;
    }

    /** Half the median of the backlog rates measured so far; 0 when there are none. */
    static double half(List<Double> backlogRates) {
        if (backlogRates == null || backlogRates.isEmpty()) {
            return 0;
        }
        List<Double> sorted = backlogRates.stream().sorted().toList();
        int n = sorted.size();
        double median =
                n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return median / 2;
    }

    private static Duration linger(String v) {
        String s = v.strip();
        try {
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            if (s.endsWith("s")) {
                return Duration.ofMillis(
                        (long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException(
                "--linger: '" + v + "' is not a duration like 1s or 200ms");
    }

    private static void create(Admin admin, String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                .all()
                .get(60, TimeUnit.SECONDS);
    }

    private BenchRecord runRep(
            BenchContext ctx,
            Map<String, Object> arm,
            int rep,
            Map<String, Object> base,
            String bootstrap,
            String topic,
            List<Path> files,
            String table,
            int threads,
            Duration linger,
            boolean paced,
            long rate,
            int records,
            double producedRate)
            throws Exception {
        Target target = ctx.target();
        target.execute("DROP TABLE IF EXISTS " + table);
        target.execute(
                "CREATE TABLE "
                        + table
                        + " ("
                        + COLUMNS
                        + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
        PipelineSpec.SourceSpec source =
                files != null
                        ? new FileSource(
                                files.stream().map(Path::toString).toList(),
                                false,
                                ConfigDefaults.MAX_RECORD_BYTES)
                        : new KafkaSource(
                                bootstrap,
                                List.of(topic),
                                null,
                                "sluice-bench-" + UUID.randomUUID(),
                                "earliest",
                                Duration.ofMinutes(1),
                                "consumer",
                                Map.of(),
                                ConfigDefaults.MAX_RECORD_BYTES);
        // The file arm keeps its checkpoints and ledger on disk, as `sluice load` does; the Kafka
        // arms commit offsets (and the ledger in their metadata) to the broker.
        Path checkpoints =
                files != null ? Files.createTempDirectory(ctx.workDir(), "kafka-rig-ckpt") : null;
        PipelineSpec spec =
                new PipelineSpec(
                        "bench-kafka",
                        threads,
                        source,
                        new DecodeSpec(Format.JSON, List.of(), false, Map.of(), false, ','),
                        List.of(),
                        new SinkSpec(
                                List.of(new ShardSpec(List.of(target.nativeUrl()), 1)),
                                table,
                                new BatchSpec(
                                        ConfigDefaults.BATCH_MAX_ROWS,
                                        ConfigDefaults.BATCH_MAX_BYTES,
                                        linger),
                                ConfigDefaults.INFLIGHT_PER_SHARD,
                                ConfigDefaults.COMPRESSION,
                                false,
                                Map.of(),
                                ConfigDefaults.RETRY),
                        new ErrorsSpec(
                                ErrorPolicy.FAIL, ConfigDefaults.deadLetterPath("bench"), -1),
                        new BackpressureSpec(
                                0, ConfigDefaults.HIGH_WATERMARK, ConfigDefaults.LOW_WATERMARK),
                        new CheckpointSpec(ConfigDefaults.CHECKPOINT_INTERVAL, checkpoints),
                        new PipelineSpec.AdminSpec(null));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("base_arm", base);
        settings.put(
                "fixture",
                "Kafka JSON events (payload arena 2048) → MergeTree ORDER BY (tenant, ts)");
        if (files != null) {
            settings.put(
                    "source",
                    "file "
                            + files.get(0).getFileName()
                            + " (NDJSON, the same records), read up to "
                            + FILE_PASSES
                            + " times through hard links so that it outlasts the window");
            settings.put(
                    "file_arm_note",
                    "_timestamp is not in the file: the column takes its DEFAULT, filled by the"
                            + " client");
        } else {
            settings.put("source", "kafka");
            settings.put("topic", topic);
        }
        if (paced) {
            settings.put("paced_rate", rate);
            settings.put(
                    "producer",
                    "a child JVM of its own (its CPU is not the client's), records stamped at"
                            + " send");
        }
        settings.put("batch_max_rows", ConfigDefaults.BATCH_MAX_ROWS);
        settings.put("batch_max_bytes", ConfigDefaults.BATCH_MAX_BYTES);
        if (files == null) {
            settings.put("group_protocol", "consumer");
        }
        if (!paced) {
            settings.put("backlog_produce_rate", producedRate);
        }
        settings.put(
                "latency",
                "Kafka record timestamp (CreateTime, at send) → the INSERT's acknowledgement, per row");
        BenchRecord r = ctx.record(NAME, arm, rep, settings);
        long available = files != null ? (long) records * FILE_PASSES : records;
        LatencyProbe probe = new LatencyProbe();
        PacedProducer producer =
                paced
                        ? PacedProducer.start(
                                bootstrap,
                                topic,
                                rate,
                                ctx.seed(),
                                ctx.workDir().resolve("kafka-rig-producer.log"))
                        : null;
        try {
            PipelineWindow.Outcome o =
                    PipelineWindow.run(
                            spec,
                            new BenchFactories(
                                    spec,
                                    InputFormat.NATIVE,
                                    // latency is the paced arms' figure: the others pay nothing
                                    // for it (and the file has no _timestamp to measure it from)
                                    paced ? probe : UnaryOperator.identity()),
                            ctx.options().warmup(),
                            ctx.options().window(),
                            ctx.progress(),
                            ctx.serverCpu()::mark,
                            new PipelineWindow.Edges() {
                                @Override
                                public void windowStarts() {
                                    probe.recording(true);
                                }

                                @Override
                                public void windowEnds() {
                                    probe.recording(false);
                                }

                                @Override
                                public long sourceRecords() {
                                    return paced ? Long.MAX_VALUE : available;
                                }
                            });
            r.set("inflight_budget_bytes", SizingRule.budget(spec));
            r.set("sizing_rule_bytes", SizingRule.minimumBudget(spec));
            if (o.failure() != null) {
                return r.failed(o.failure());
            }
            r.throughput(o.delta("etl_sink_records_total"), o.seconds());
            r.set("wire_bytes", o.delta("etl_sink_wire_bytes_total"));
            r.set("uncompressed_bytes", o.delta("etl_sink_bytes_total"));
            r.set("client_cpu_s", ProcessCpu.processSeconds(o.cpuFrom(), o.cpuTo()));
            r.extra("client_cpu_includes", "the pipeline only");
            if (files != null) {
                r.extra("checkpoint_dir", "on disk (fsynced ledger), as sluice load");
            }
            ctx.serverCpu().measure(o.serverFrom(), o.serverTo(), table, r);
            int slots =
                    spec.threads() + spec.sink().shards().size() * spec.sink().inflightPerShard();
            VerdictRule.Judgement j =
                    VerdictRule.judge(
                            o.samples(),
                            new Sizing(
                                    SizingRule.budget(spec),
                                    SizingRule.minimumBudget(spec),
                                    slots));
            r.set("verdict", j.verdict().label());
            r.set("verdict_detail", j.detail());
            if (paced) {
                r.extra("latency_rows", probe.rows());
                r.extra("latency_p50_s", probe.quantile(0.5));
                r.extra("latency_p99_s", probe.quantile(0.99));
                // where the rows waited: before their INSERT began, and in it
                r.extra(
                        "latency_before_insert_p50_s",
                        probe.quantile(LatencyProbe.Part.BEFORE_INSERT, 0.5));
                r.extra(
                        "latency_before_insert_p99_s",
                        probe.quantile(LatencyProbe.Part.BEFORE_INSERT, 0.99));
                r.extra("latency_insert_p50_s", probe.quantile(LatencyProbe.Part.INSERT, 0.5));
                r.extra("latency_insert_p99_s", probe.quantile(LatencyProbe.Part.INSERT, 0.99));
                // A pipeline that keeps up writes what is produced: a window rate well below the
                // paced rate means queues grew, and the latency measured them, not the pipeline.
                r.extra("kept_up", o.delta("etl_sink_records_total") / o.seconds() >= 0.95 * rate);
            }
            r.extra("source_records_window", o.delta("etl_source_records_total"));
            long read = o.result().stats().recordsRead();
            // a faster machine drains the backlog early: the window then closes at its end (see
            // PipelineWindow.Edges#sourceRecords), and a window cut below half is too short a look
            boolean cut = !paced && read >= available;
            double windowS = ctx.options().window().toMillis() / 1000.0;
            boolean exhausted = cut && o.seconds() < windowS / 2;
            if (cut) {
                r.extra("window_cut_at_backlog_end_s", o.seconds());
            }
            Parts.record(target, table, r);
            long landed = target.queryLong("SELECT count() FROM " + table);
            long acked = o.result().stats().rowsWritten();
            r.extra("rows_acknowledged_total", acked);
            r.extra("rows_landed_total", landed);
            if (landed < acked) {
                r.failed(
                        String.format(
                                Locale.ROOT,
                                "%,d rows acknowledged but %,d in the table: rows were lost",
                                acked,
                                landed));
            }
            r.cpuBound(Runtime.getRuntime().availableProcessors(), target.colocated());
            if (exhausted && r.ok()) {
                // the source ran dry inside the window: its end measured an idle pipeline
                r.extra("backlog_exhausted", true);
                r.failed(
                        String.format(
                                Locale.ROOT,
                                "the backlog of %,d records ran out %.1f s into the %.0f s"
                                        + " window, too short a look at the pipeline's rate:"
                                        + " produce more (--records)",
                                available,
                                o.seconds(),
                                windowS));
            }
            return r;
        } finally {
            if (producer != null) {
                try (producer) {
                    PacedProducer.Outcome sent = producer.stop();
                    r.extra("paced_records_sent", sent.sent());
                    r.extra("paced_behind_max_ms", sent.behindMaxMillis());
                    r.extra("producer_cpu_s", sent.cpuSeconds());
                }
            }
            target.execute("DROP TABLE IF EXISTS " + table);
            if (checkpoints != null) {
                deleteTree(checkpoints);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static Set<String> modes() {
        return Set.copyOf(MODES);
    }
}
