package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.admin.AdminServer;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.metrics.Probes;
import dev.sluice.pipeline.sink.Backoff;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.sink.OutcomeCheck;
import dev.sluice.pipeline.sink.RetryReason;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.sink.ShardRouter;
import dev.sluice.pipeline.sink.SinkSupervisor;
import dev.sluice.pipeline.sink.SplitInserts;
import dev.sluice.pipeline.sink.UnresolvedInserts;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.TableRoute;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.ClusterShards;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running pipeline: {@code threads} pipeline threads reading, decoding and batching, a pool of
 * shard writers inserting, and a supervisor thread that ends it all and reports how it ended.
 *
 * <pre>{@code
 * Pipeline p = Pipeline.start(spec, factories, Clock.SYSTEM);
 * p.warnings().forEach(w -> System.err.println("warning: " + w));
 * Runtime.getRuntime().addShutdownHook(new Thread(() -> p.drain(Duration.ofSeconds(30))));
 * PipelineResult r = p.awaitCompletion();
 * }</pre>
 */
public final class Pipeline implements AutoCloseable {
    /** The drain timeout of {@link #drain()}. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /** How long writers get to end once their queues are empty or the deadline passed. */
    private static final long WRITER_GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final long MIN_GRAIN = 4 << 10;
    private static final long MAX_GRAIN = 1 << 20;

    private final PipelineSpec spec;
    private final Clock clock;
    private final Lifecycle lifecycle = new Lifecycle();
    private final CompletableFuture<PipelineResult> result = new CompletableFuture<>();
    private final List<String> warnings;
    private final List<String> notes;
    private final ConcurrentLinkedQueue<String> runtimeWarnings = new ConcurrentLinkedQueue<>();
    private final InflightBudget budget;
    private final Metrics metrics;
    private final List<PipelineThread> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private ClickHouseWriter sink;
    private DeadLetterLog deadLetters;
    private LocalCheckpoints checkpoints;
    private AdminServer admin;
    private volatile long drainDeadline;
    private volatile boolean draining;
    private volatile boolean stopRequested;
    private volatile boolean running;

    private Pipeline(PipelineSpec spec, Clock clock, Startup.Result setup) {
        this.spec = spec;
        this.clock = clock;
        this.warnings = setup.warnings();
        this.notes = setup.notes();
        this.budget =
                new InflightBudget(
                        SizingRule.budget(spec),
                        spec.backpressure().high(),
                        spec.backpressure().low(),
                        this::countPause);
        this.metrics = new Metrics(spec.name(), spec.sink().shards().size(), new LiveProbes());
    }

    private void countPause() {
        metrics.pauseEvents.inc();
    }

    /**
     * Checks the target, builds every part and starts the threads. Returns once the pipeline runs;
     * {@link #awaitCompletion()} waits for its end.
     *
     * @throws PipelineException when the target, the configuration or a part cannot be set up; the
     *     message says what to fix
     */
    public static Pipeline start(PipelineSpec spec, Factories factories, Clock clock)
            throws PipelineException {
        checkSettings(spec);
        spec = withClusterShards(spec, factories);
        Startup.Result setup = Startup.run(spec, factories);
        Path dir = spec.checkpoint().dir();
        LocalCheckpoints checkpoints;
        UnresolvedInserts unresolved = UnresolvedInserts.inMemory();
        SplitInserts splits = SplitInserts.inMemory();
        try {
            checkpoints =
                    dir != null
                            ? LocalCheckpoints.open(dir, spec.name())
                            : LocalCheckpoints.inMemory();
            if (dir != null) {
                unresolved = UnresolvedInserts.open(dir);
                splits = SplitInserts.open(dir);
            }
        } catch (IOException e) {
            throw new PipelineException("checkpoint directory " + dir + ": " + e.getMessage(), e);
        }
        Pipeline p = new Pipeline(spec, clock, setup);
        p.checkpoints = checkpoints;
        try {
            p.assemble(factories, setup, unresolved, splits);
        } catch (IOException | RuntimeException e) {
            p.closeWriter();
            p.closeQuietly();
            p.closeSources();
            // An I/O error or a bad argument (an input that matches no file) says what to fix in
            // its message; anything else is unexpected and keeps its type.
            String why =
                    e instanceof IOException || e instanceof IllegalArgumentException
                            ? e.getMessage()
                            : e.toString();
            throw new PipelineException("cannot start pipeline " + spec.name() + ": " + why, e);
        }
        p.running = true;
        return p;
    }

    /** With {@code sink.clickhouse.cluster}: the cluster's shards, as the server lists them. */
    static PipelineSpec withClusterShards(PipelineSpec spec, Factories factories)
            throws PipelineException {
        String cluster = spec.sink().cluster();
        if (cluster == null) {
            return spec;
        }
        String url = spec.sink().shards().get(0).replicas().get(0);
        try {
            List<ShardSpec> shards =
                    ClusterShards.from(
                            url, cluster, factories.clusterRows(url, spec.sink(), cluster));
            return spec.withSink(spec.sink().withShards(shards));
        } catch (RuntimeException e) {
            throw new PipelineException(
                    "pipeline " + spec.name() + ": sink.clickhouse.cluster: " + e.getMessage(), e);
        }
    }

    /** Rejects batch, retry and backpressure settings that make no sense, before connecting. */
    private static void checkSettings(PipelineSpec spec) throws PipelineException {
        try {
            SealPolicy.of(spec.sink().batch());
            new Backoff(spec.sink().retry(), new Random());
            new InflightBudget(
                    SizingRule.budget(spec),
                    spec.backpressure().high(),
                    spec.backpressure().low(),
                    () -> {});
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new PipelineException("pipeline " + spec.name() + ": " + e.getMessage(), e);
        }
    }

    private void assemble(
            Factories factories,
            Startup.Result setup,
            UnresolvedInserts unresolved,
            SplitInserts splits)
            throws IOException {
        if (spec.errors().policy() == ErrorPolicy.DEAD_LETTER) {
            deadLetters = new DeadLetterLog(factories.deadLetters());
        }
        RecordErrors errors =
                new RecordErrors(
                        spec.errors().policy(), spec.errors().maxErrors(), deadLetters, metrics);
        String prefix = "sluice-" + spec.name() + "-";
        ClickHouseWriter.Builder writer = ClickHouseWriter.builder(spec.sink());
        setup.layouts().forEach(writer::layout);
        sink =
                writer.connections(factories.connections(spec.sink()))
                        .columns(factories::targetColumns)
                        .changes(runtimeWarnings::add)
                        .metrics(metrics)
                        .supervisor(new Supervision())
                        .unresolved(unresolved)
                        .splits(splits)
                        // Asked only about a batch's rows: batches come from the sources made
                        // below.
                        .rejectedRows(errors.forSink(() -> workers.get(0).source().name()))
                        .clock(clock)
                        .random(new Random())
                        .splitBudget(budget::acquire, budget::release)
                        .threadNamePrefix(prefix + "shard")
                        .build();
        // With a sharding key, rows pick their shard; batch boundaries and tokens then name one
        // logical shard, and the parts of a batch add /k<shard> to its token.
        List<Integer> weights =
                setup.shardKey() != null
                        ? List.of(1)
                        : spec.sink().shards().stream().map(ShardSpec::weight).toList();
        PipelineContext context =
                new PipelineContext(
                        spec.name(),
                        checkpoints.run(),
                        SealPolicy.of(spec.sink().batch()),
                        new ShardRouter(weights),
                        sink,
                        budget,
                        errors,
                        new Committer(deadLetters, metrics),
                        lifecycle,
                        metrics,
                        clock,
                        spec.checkpoint().interval().toNanos(),
                        spec.checkpoint().revokeTimeout().toNanos(),
                        Math.clamp(budget.budget() / (64L * spec.threads()), MIN_GRAIN, MAX_GRAIN),
                        runtimeWarnings::add);
        TableRoute route = spec.sink().route();
        Lanes lanes = new WriterLanes(route, sink, factories);
        for (int i = 0; i < spec.threads(); i++) {
            Source source = factories.source(i, spec.threads(), checkpoints);
            source.registerMetrics(metrics.registry());
            try {
                // The sink's one table gets its lane now, so that a decoder or transform that
                // cannot be made for it stops the start; tables chosen by topic get theirs from
                // their first record.
                Lane first = route.single() ? lanes.lane(sink.target(route.fixed())) : null;
                workers.add(
                        new PipelineThread(
                                context,
                                source,
                                lanes,
                                first,
                                new BlockPool(
                                        first == null ? null : first.columns,
                                        spec.sink().shards().size()
                                                * spec.sink().inflightPerShard(),
                                        budget::release)));
            } catch (RuntimeException e) {
                source.close();
                throw e;
            }
        }
        if (spec.admin().listen() != null) {
            admin = AdminServer.start(spec.admin().listen(), metrics.registry(), new Probe());
        }
        for (int i = 0; i < workers.size(); i++) {
            Thread t = new Thread(workers.get(i), prefix + "pipeline-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        Thread supervisor = new Thread(this::supervise, prefix + "supervisor");
        supervisor.setDaemon(true);
        supervisor.start();
    }

    /** Waits for the pipeline threads, then the writers, then closes everything and reports. */
    private void supervise() {
        String overrun = null;
        try {
            overrun = awaitThreads();
            sink.close(Duration.ofNanos(WRITER_GRACE_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            lifecycle.fail(new Failure("internal error: " + e, null, null), true);
        } finally {
            running = false;
            closeQuietly();
            result.complete(outcome(overrun));
        }
    }

    /**
     * Waits for the pipeline threads; past the drain deadline the rest is abandoned. Returns a note
     * when threads were left behind, else null.
     */
    private String awaitThreads() throws InterruptedException {
        boolean forced = false;
        long giveUpAt = Long.MAX_VALUE;
        for (Thread t : threads) {
            while (t.isAlive()) {
                if (draining && !forced && clock.nanoTime() - drainDeadline >= 0) {
                    forced = true;
                    lifecycle.stop();
                    sink.abort();
                    giveUpAt = System.nanoTime() + WRITER_GRACE_NANOS;
                }
                if (forced && System.nanoTime() - giveUpAt >= 0) {
                    return "batches were still being sent "
                            + TimeUnit.NANOSECONDS.toSeconds(WRITER_GRACE_NANOS)
                            + " s after the drain deadline; their records will be read again";
                }
                t.join(20);
            }
        }
        return forced
                ? "the drain deadline passed: batches not yet written were abandoned; their"
                        + " records will be read again"
                : null;
    }

    private PipelineResult outcome(String overrun) {
        Map<String, Long> committed = new HashMap<>();
        for (int i = 0; i < workers.size(); i++) {
            if (!threads.get(i).isAlive()) {
                // A file split into chunks is committed by several threads: the furthest is the
                // latest of its (contiguous, property 8) positions.
                workers.get(i)
                        .committedPositions()
                        .forEach((p, q) -> committed.merge(p, q, Math::max));
            }
        }
        PipelineStats stats = stats();
        Failure f = lifecycle.failure();
        PipelineResult.Status status;
        String message;
        if (f != null) {
            status = PipelineResult.Status.FAILED;
            message = failureMessage(f, committed);
        } else if (stopRequested) {
            status = PipelineResult.Status.STOPPED;
            message = "stopped; batches not yet written were abandoned and will be read again";
        } else {
            boolean allRead = true;
            for (PipelineThread w : workers) {
                allRead &= w.readToTheEnd();
            }
            // A drain that came after every source ended changed nothing: the job is complete.
            status =
                    draining && !allRead
                            ? PipelineResult.Status.DRAINED
                            : PipelineResult.Status.COMPLETED;
            message =
                    (status == PipelineResult.Status.DRAINED ? "drained: " : "done: ")
                            + stats.recordsRead()
                            + " records read, "
                            + stats.rowsWritten()
                            + " rows written, "
                            + stats.recordsSkipped()
                            + " skipped, "
                            + stats.recordsDeadLettered()
                            + " dead-lettered, "
                            + stats.recordsFiltered()
                            + " filtered"
                            + doubts(stats.delivery());
        }
        if (overrun != null) {
            message += "; " + overrun;
        }
        return new PipelineResult(status, message, committed, stats, f);
    }

    /** The rows the table may hold more or fewer of than written, for the end message. */
    private static String doubts(PipelineStats.Delivery d) {
        StringBuilder sb = new StringBuilder();
        if (d.rowsDuplicated() > 0) {
            sb.append(", ").append(d.rowsDuplicated()).append(" rows written twice");
        }
        if (d.rowsPossiblyDuplicated() > 0) {
            sb.append(", ")
                    .append(d.rowsPossiblyDuplicated())
                    .append(" rows possibly written twice");
        }
        if (d.rowsUnresolved() > 0) {
            sb.append(", ").append(d.rowsUnresolved()).append(" rows of unknown outcome");
        }
        return sb.toString();
    }

    private String failureMessage(Failure f, Map<String, Long> committed) {
        StringBuilder sb = new StringBuilder();
        if (f.location() != null) {
            sb.append("stopped at ").append(f.location()).append(": ");
        }
        sb.append(f.reason());
        String p = f.partition();
        if (p != null) {
            Long q = committed.get(p);
            if (q == null) {
                sb.append("; nothing of ").append(p).append(" is written — resume from its start");
            } else if (f.location() != null) {
                sb.append("; everything before position ")
                        .append(q)
                        .append(" is written — resume from there");
            } else {
                sb.append("; everything of ")
                        .append(p)
                        .append(" before position ")
                        .append(q)
                        .append(" is written — resume from there");
            }
        }
        return sb.toString();
    }

    /** After a failed start: the writer's threads may have started; nothing was submitted. */
    private void closeWriter() {
        if (sink != null) {
            sink.close(Duration.ZERO);
        }
    }

    /** After a failed start: the threads never ran, so their sources are still open. */
    private void closeSources() {
        for (PipelineThread w : workers) {
            try {
                w.source().close();
            } catch (IOException e) {
                // the start failed already; this is only cleanup
            }
        }
    }

    private void closeQuietly() {
        if (admin != null) {
            admin.close();
        }
        try {
            if (deadLetters != null) {
                deadLetters.close();
            }
        } catch (IOException e) {
            lifecycle.fail(
                    new Failure("cannot close the dead-letter file: " + e, null, null), false);
        }
        try {
            if (checkpoints != null) {
                checkpoints.close();
            }
        } catch (IOException e) {
            // Every entry was fsynced when written; closing adds nothing to durability.
        }
    }

    /**
     * Stops reading, seals what is open, waits up to {@code timeout} for every batch to be written
     * and commits; past the timeout what is not written is abandoned (and read again next time).
     * Returns at once; {@link #awaitCompletion()} waits. For the CLI's SIGTERM/SIGINT handler.
     */
    public void drain(Duration timeout) {
        drainDeadline = clock.nanoTime() + timeout.toNanos();
        draining = true;
        lifecycle.drain();
    }

    public void drain() {
        drain(DEFAULT_DRAIN_TIMEOUT);
    }

    /**
     * Ends as soon as the inserts under way finish; open and queued batches are abandoned (their
     * records are read again next time). Returns at once.
     */
    public void stop() {
        stopRequested = true;
        lifecycle.stop();
    }

    /** Waits for the end and says how it went. */
    public PipelineResult awaitCompletion() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Waits up to {@code timeout}; null when still running. */
    public PipelineResult awaitCompletion(Duration timeout) throws InterruptedException {
        try {
            return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    public boolean isDone() {
        return result.isDone();
    }

    /**
     * Start-up warnings: no deduplication on a shard, a budget below the sizing rule, a presort or
     * partition split the table's keys do not allow.
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Warnings that arose while running (a file replaced under a committed path, ...), each once:
     * the caller takes them as they come and shows them.
     */
    public List<String> takeWarnings() {
        List<String> taken = new ArrayList<>();
        for (String w; (w = runtimeWarnings.poll()) != null; ) {
            taken.add(w);
        }
        return taken;
    }

    /**
     * What start-up decided about the table, one line each: which DEFAULTs of absent fields sluice
     * computes and which it leaves to the server, pre-sorting and partition split (as {@code sluice
     * check} shows them).
     */
    public List<String> notes() {
        return notes;
    }

    /** The registry holding this pipeline's metrics, for an exporter of the caller's own. */
    public PrometheusRegistry registry() {
        return metrics.registry();
    }

    /** The admin server's address, or null when none was asked for. */
    public InetSocketAddress adminAddress() {
        return admin == null ? null : admin.address();
    }

    public PipelineStats stats() {
        long read = 0;
        long total = 0;
        boolean known = true;
        for (PipelineThread w : workers) {
            long r = w.source().bytesRead();
            long t = w.source().bytesTotal();
            known &= r >= 0;
            read += Math.max(0, r);
            total = total < 0 || t < 0 ? -1 : total + t;
        }
        return new PipelineStats(
                metrics.sourceRecords.getLongValue(),
                metrics.sumOverShards(s -> s.records),
                metrics.sumOverShards(s -> s.bytes),
                metrics.sumOverShards(s -> s.wireBytes),
                metrics.sumOverShards(s -> s.batches),
                metrics.skipped.getLongValue(),
                metrics.deadLettered.getLongValue(),
                metrics.filtered.getLongValue(),
                metrics.retriesTotal(),
                budget.paused(),
                budget.used(),
                budget.budget(),
                pendingBatches(),
                known ? read : -1,
                total,
                delivery());
    }

    private PipelineStats.Delivery delivery() {
        Map<String, Long> retries = new LinkedHashMap<>();
        for (RetryReason r : RetryReason.values()) {
            long n = metrics.retries(r);
            if (n > 0) {
                retries.put(r.label(), n);
            }
        }
        ClickHouseWriter s = sink;
        return new PipelineStats.Delivery(
                retries,
                metrics.checks(OutcomeCheck.WRITTEN),
                metrics.checks(OutcomeCheck.NOT_WRITTEN),
                metrics.checks(OutcomeCheck.UNKNOWN),
                metrics.sumOverShards(m -> m.rowsDuplicated),
                metrics.sumOverShards(m -> m.rowsPossiblyDuplicated),
                metrics.sumOverShards(m -> m.rowsUnresolved),
                metrics.sumOverShards(m -> m.rowsAlreadyWritten),
                s == null ? List.of() : s.deliveryNotes());
    }

    private long pendingBatches() {
        long n = 0;
        for (PipelineThread w : workers) {
            n += w.pendingBatches();
        }
        return n;
    }

    /** Stops and waits for the end. */
    @Override
    public void close() {
        stop();
        try {
            awaitCompletion();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The tables of the sink and the lanes the pipeline threads decode them in: a record's table
     * from its topic ({@link TableRoute}), the writer's knowledge of it, decoders and transforms
     * from the factories for its columns as they are now.
     */
    private static final class WriterLanes implements Lanes {
        private final TableRoute route;
        private final ClickHouseWriter writer;
        private final Factories factories;

        WriterLanes(TableRoute route, ClickHouseWriter writer, Factories factories) {
            this.route = route;
            this.writer = writer;
            this.factories = factories;
        }

        @Override
        public String table(PolledRecords records) {
            return route.table(records.meta == null ? null : records.meta.topic);
        }

        @Override
        public InsertTarget target(String table) {
            return writer.target(table);
        }

        @Override
        public synchronized Lane lane(InsertTarget target) {
            // The factories make parts for one thread at a time, as at start-up.
            InsertTarget.Layout layout = target.layout();
            TargetColumns columns = layout.columns();
            return new Lane(
                    target,
                    layout,
                    columns,
                    factories.decoder(columns),
                    factories.transforms(columns));
        }
    }

    /** The writers' view of the pipeline. */
    private final class Supervision implements SinkSupervisor {
        @Override
        public boolean abandonQueued() {
            return lifecycle.abandonQueued();
        }

        @Override
        public void fatal(SealedBatch batch, String message, Throwable cause) {
            lifecycle.fail(new Failure(message, batch.partition(), null), true);
        }
    }

    /** What the admin probes report. */
    private final class Probe implements AdminServer.Health {
        @Override
        public String unhealthy() {
            Failure f = lifecycle.failure();
            return f == null ? null : "failed: " + f.reason();
        }

        @Override
        public String notReady() {
            if (!running) {
                return "not running";
            }
            for (PipelineThread w : workers) {
                String why = w.source().notReady();
                if (why != null) {
                    return why;
                }
            }
            return switch (lifecycle.mode()) {
                case RUN -> null;
                case DRAIN -> "draining";
                case STOP -> "stopping";
            };
        }
    }

    /** Live values for the gauges. */
    private final class LiveProbes implements Probes {
        @Override
        public long inflightBytes() {
            return budget.used();
        }

        @Override
        public long budgetBytes() {
            return budget.budget();
        }

        @Override
        public boolean paused() {
            return budget.paused();
        }

        @Override
        public long pendingBatches() {
            return Pipeline.this.pendingBatches();
        }

        @Override
        public double watermarkAgeSeconds() {
            long oldest = Long.MAX_VALUE;
            for (PipelineThread w : workers) {
                oldest = Math.min(oldest, w.oldestPendingNanos());
            }
            return oldest == Long.MAX_VALUE ? 0 : Math.max(0, clock.nanoTime() - oldest) / 1e9;
        }

        @Override
        public long ownedPartitions() {
            long n = 0;
            for (PipelineThread w : workers) {
                n += w.ownedPartitions();
            }
            return n;
        }

        @Override
        public long queuedBatches(int shard) {
            ClickHouseWriter s = sink;
            return s == null ? 0 : s.inFlight(shard);
        }
    }
}
