package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.metrics.Probes;
import dev.sluice.pipeline.sink.Backoff;
import dev.sluice.pipeline.sink.BatchSink;
import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.RetryReason;
import dev.sluice.pipeline.sink.SealPolicy;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.sink.ShardRouter;
import dev.sluice.pipeline.sink.ShardWriters;
import dev.sluice.pipeline.sink.SinkSupervisor;
import dev.sluice.pipeline.sink.SplitInserts;
import dev.sluice.pipeline.sink.UnresolvedInserts;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.TableRoute;
import dev.sluice.pipeline.time.Clock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Writes rows into one ClickHouse table from any number of threads: Native blocks over the native
 * protocol (or HTTP), LZ4-compressed, with client-side DEFAULTs and optional pre-sorting, routed to
 * the table's shards and retried on their replicas. The same machinery runs {@code sluice run}'s
 * sink.
 *
 * <pre>{@code
 * try (ClickHouseWriter writer =
 *         ClickHouseWriter.builder("clickhouse://default@127.0.0.1:9000/default", "db.events")
 *                 .maxInflightBytes(256L << 20)
 *                 .build()) {
 *     Rows rows = writer.newRows();
 *     for (Event e : events) {
 *         rows.set("ts", e.time()).set("kind", e.kind()).endRow(); // others get their DEFAULT
 *     }
 *     // a batch of its own, deduplicated by its token; or submit(rows) to let the writer gather
 *     CompletableFuture<Written> done = writer.submit(rows, WriteOptions.token("events-2024-05-01-7"));
 *     Written w = done.join();           // acknowledged by the server: the rows are in the table
 * }                                      // close() waits for everything submitted
 * }</pre>
 *
 * <p><b>What a completion means.</b> {@link #submit} returns a {@link CompletableFuture} that
 * completes with {@link Written} only after the server acknowledged every row of the submission
 * ({@code async_insert=0} is sent where the server has asynchronous inserts, so an acknowledgement
 * means written). It fails with {@link WriterException} when the rows cannot be written — a server
 * error that would recur (unknown column, type mismatch, ...), running out of retries, or an INSERT
 * whose acknowledgement was lost and whose outcome the server could not tell (the message names its
 * query id) — or when the writer is closed or aborted before they are written. Callbacks attached
 * to the completion run on the writer's thread: use the {@code *Async} variants for slow work.
 *
 * <p><b>Batches.</b> A submission with a {@linkplain WriteOptions#token(String) token} is one
 * batch: sent as it is, its token sent as {@code insert_deduplication_token} (22.2+) and used in
 * its query ids, so a retry or a replay of the same rows is dropped by a table that deduplicates
 * and looked up in the server's query log where it does not (docs/pipeline.md, "Interrupted
 * INSERTs"; property 2). Submissions without a token are gathered into batches of the writer's own
 * (sealed at {@code batchRows}, {@code batchBytes} or {@code linger}), their completions settled
 * with their batch.
 *
 * <p><b>Bounded memory.</b> Rows submitted and not yet settled may hold at most {@code
 * maxInflightBytes} (their Native size); a submission that does not fit waits ({@link
 * WhenFull#WAIT}, up to {@code maxWait}) or is refused at once ({@link WhenFull#FAIL}) with {@link
 * WriterFullException} (property 3).
 *
 * <p><b>Tables.</b> A writer serves any number of tables of the same servers: {@link
 * #newRows(String)} opens one (described on every shard, once) and its rows go there, with batches
 * and tokens of their own; {@link #newRows()} is the table the writer was built for. A table
 * altered while data flows ({@code ALTER TABLE ... ADD, DROP, MODIFY COLUMN}) is noticed — when the
 * server refuses an INSERT made for its older layout, and by a look at its columns every {@code
 * schemaCheckInterval} — and described again: rows made from then on have its new columns, rows
 * staged before are re-encoded (dropped columns left out, added ones left to their DEFAULT, changed
 * types converted as the server's {@code CAST} converts them; a value that cannot be converted goes
 * to {@code rejectedRows} with the reason) and sent under their own tokens (docs/writer.md, "Tables
 * that change").
 *
 * <p><b>Threads.</b> Every method may be called from any thread. Each shard has {@code
 * inflightPerShard} writer threads, each with its own connection to each replica (one INSERT at a
 * time per connection: ADR 0006, 0008), shared by all tables.
 */
public final class ClickHouseWriter implements BatchSink, AutoCloseable {
    private final String name;
    private final SinkSpec sink;
    private final Connections connections;
    private final Function<TableSchema, TargetColumns> chooser;
    private final Map<String, WriterTable> tables = new ConcurrentHashMap<>();
    private final Object opening = new Object();

    /** The table the writer was built for; null when its tables follow a route by topic. */
    private final WriterTable fixed;

    private final Consumer<String> changes;
    private final SealPolicy seal;
    private final Thread checker;
    private final ShardWriters shardWriters;
    private final Metrics metrics;
    private final Supervision supervision;
    private final InflightLimit limit;
    private final ShardRouter router;
    private final Clock clock;
    private final String run;
    private final AtomicLong sequence = new AtomicLong();
    private final Set<Submission> pending = ConcurrentHashMap.newKeySet();
    // failures since the last flush(), which reports them (guarded by failuresLock)
    private final Object failuresLock = new Object();
    private WriterException firstFailure;
    private int failures;
    private volatile boolean closed;

    private ClickHouseWriter(Builder b, SinkSpec sink, List<TableLayout> layouts) {
        this.name = b.name;
        this.sink = sink;
        this.clock = b.clock;
        this.supervision = new Supervision(b.supervisor);
        this.limit = new InflightLimit(b.maxInflightBytes, b.whenFull, b.maxWait.toNanos());
        this.run = Long.toString(b.random.nextLong() >>> 16, 36);
        this.connections = b.connections(sink);
        this.chooser = b.chooser();
        this.changes = b.changes;
        this.seal = SealPolicy.of(sink.batch());
        List<Integer> weights = new ArrayList<>();
        for (ShardSpec s : sink.shards()) {
            weights.add(s.weight());
        }
        this.router = new ShardRouter(weights);
        this.metrics =
                b.metrics != null
                        ? b.metrics
                        : new Metrics(name, sink.shards().size(), new LiveProbes());
        UnresolvedInserts unresolved = b.unresolved;
        SplitInserts splits = b.splits;
        try {
            if (unresolved == null) {
                unresolved =
                        b.stateDir != null
                                ? UnresolvedInserts.open(b.stateDir)
                                : UnresolvedInserts.inMemory();
            }
            if (splits == null) {
                splits =
                        b.stateDir != null
                                ? SplitInserts.open(b.stateDir)
                                : SplitInserts.inMemory();
            }
        } catch (IOException e) {
            throw new WriterException(
                    "the writer's state directory " + b.stateDir + ": " + e.getMessage(), e);
        }
        for (TableLayout l : layouts) {
            open(l);
        }
        this.fixed = fixedTable(sink) != null ? tables.get(fixedTable(sink)) : null;
        TableLayout first = fixed != null ? fixed.current() : null;
        this.shardWriters =
                ShardWriters.create(
                        sink,
                        connections::inserter,
                        first == null ? null : first.plan(),
                        first == null ? null : first.outcomes(),
                        connections::trace,
                        unresolved,
                        splits,
                        b.rejected,
                        metrics,
                        supervision,
                        clock,
                        b.random);
        if (first != null && first.shardKey() != null) {
            LongConsumer acquire = b.splitAcquire != null ? b.splitAcquire : limit::force;
            LongConsumer release = b.splitRelease != null ? b.splitRelease : limit::release;
            shardWriters.keyed(first.shardKey(), acquire, release);
        }
        shardWriters.start(
                b.threadNamePrefix != null ? b.threadNamePrefix : "sluice-" + name + "-shard");
        long interval = sink.schemaCheckInterval().toNanos();
        if (interval > 0) {
            checker = new Thread(() -> checkTables(interval), "sluice-" + name + "-schema-check");
            checker.setDaemon(true);
            checker.start();
        } else {
            checker = null;
        }
    }

    /** The table of a sink whose every record goes to one table, or null. */
    private static String fixedTable(SinkSpec sink) {
        if (sink.table() == null || !sink.tables().isEmpty()) {
            return null;
        }
        return sink.table().contains(TableRoute.TOPIC) ? null : sink.table();
    }

    /** Adds a described table (under the name its layout's sink gives it). */
    private WriterTable open(TableLayout l) {
        WriterTable t =
                new WriterTable(
                        this,
                        l,
                        connections.forTable(l.table()),
                        chooser,
                        this::tableChanged,
                        table ->
                                new Coalescer(
                                        seal.maxRows(),
                                        seal.maxBytes(),
                                        seal.lingerNanos(),
                                        (block, absent, members, reason) ->
                                                gathered(table, block, absent, members, reason)));
        tables.put(l.table(), t);
        return t;
    }

    /**
     * The table {@code table}, described now on every shard when the writer has not yet opened it.
     *
     * @throws WriterException when it cannot be written (the message says why)
     */
    private WriterTable table(String table) {
        WriterTable t = tables.get(table);
        if (t != null) {
            return t;
        }
        synchronized (opening) {
            t = tables.get(table);
            if (t != null) {
                return t;
            }
            checkOpen();
            if (sink.shardBy() != null) {
                throw new WriterException(
                        "table "
                                + table
                                + ": a writer with a sharding key (shard_by) routes the rows of"
                                + " the one table it was opened for; open a writer per table");
            }
            SinkSpec s = sink.toBuilder().table(table).tables(Map.of()).build();
            return open(TableLayout.discover(s, connections.forTable(table), chooser));
        }
    }

    /** The writer's own table, for the methods that name none. */
    private WriterTable fixed() {
        if (fixed == null) {
            throw new IllegalStateException(
                    "this writer has no table of its own"
                            + (sink.table() != null || !sink.tables().isEmpty()
                                    ? " (its tables are " + sink.route().describe() + ")"
                                    : "")
                            + ": name the table (newRows(table), layout(table))");
        }
        return fixed;
    }

    /** A table found altered: counted, and told to the listener. */
    private void tableChanged(WriterTable t, List<String> what, boolean byCheck) {
        (byCheck ? metrics.tableChangesByCheck : metrics.tableChangesByRefusal).inc();
        changes.accept(
                "table "
                        + t.table()
                        + " changed while data flowed ("
                        + (what.isEmpty()
                                ? "its columns as the writer sends them"
                                : String.join(", ", what))
                        + "; noticed by "
                        + (byCheck
                                ? "the look at its columns every "
                                        + human(sink.schemaCheckInterval())
                                : "the server refusing an INSERT made for it as it was")
                        + "): rows from now on have its new columns; rows staged before are"
                        + " re-encoded for it");
    }

    private static String human(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** The periodic look at every open table's columns, until the writer is closed. */
    private void checkTables(long intervalNanos) {
        while (!closed) {
            try {
                TimeUnit.NANOSECONDS.sleep(intervalNanos);
            } catch (InterruptedException e) {
                return;
            }
            for (WriterTable t : tables.values()) {
                if (closed) {
                    return;
                }
                t.check();
            }
        }
    }

    /**
     * A writer into {@code table} on the server at {@code url} ({@code clickhouse://} native or
     * {@code http(s)://}; its parameters are listed in the README): one shard, one replica until
     * told otherwise.
     */
    public static Builder builder(String url, String table) {
        return new Builder(
                SinkSpec.builder(
                                List.of(new ShardSpec(List.of(url), ConfigDefaults.SHARD_WEIGHT)),
                                table)
                        .build());
    }

    /**
     * A writer of tables on the server at {@code url} without one of its own: rows go to the table
     * {@link #newRows(String)} names.
     */
    public static Builder builder(String url) {
        return builder(url, null);
    }

    /**
     * A writer as a pipeline's {@code sink.clickhouse} section configures it (shards, replicas,
     * batch, retry, presort, ...: docs/configuration.md).
     */
    public static Builder builder(SinkSpec sink) {
        return new Builder(sink);
    }

    /**
     * The writer's own table and the columns it sends, as last described, and what it decided about
     * them.
     *
     * @throws IllegalStateException when the writer has no table of its own
     */
    public TableLayout layout() {
        return fixed().current();
    }

    /**
     * Table {@code table} and the columns the writer sends to it, as last described (opening it
     * when the writer has not yet).
     *
     * @throws WriterException when it cannot be written
     */
    public TableLayout layout(String table) {
        return table(table).current();
    }

    /**
     * What the writer decided when it opened its tables, one line each: whether a batch sent again
     * is dropped by the table, which DEFAULTs it computes, pre-sorting, partition split, the
     * sharding key (prefixed with the table when it has several).
     */
    public List<String> notes() {
        return perTable(TableLayout::notes);
    }

    /**
     * Warnings when it opened its tables: a table cannot deduplicate (and what the writer does
     * instead), a presort or partition split the table's keys do not allow.
     */
    public List<String> warnings() {
        return perTable(TableLayout::warnings);
    }

    private List<String> perTable(Function<TableLayout, List<String>> lines) {
        if (fixed != null && tables.size() == 1) {
            return lines.apply(fixed.current());
        }
        List<String> out = new ArrayList<>();
        for (WriterTable t : tables.values()) {
            for (String line : lines.apply(t.current())) {
                out.add("table " + t.table() + ": " + line);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Empty rows in the layout of the writer's own table, for one thread to fill and submit.
     *
     * @throws IllegalStateException when the writer has no table of its own
     */
    public Rows newRows() {
        return fixed().newRows();
    }

    /**
     * Empty rows for table {@code table} ({@code [db.]table}), in its layout as last described: the
     * writer opens the table the first time (describing it on every shard) and sends these rows
     * there, in batches of that table.
     *
     * @throws WriterException when the table cannot be written (missing, no insertable column, a
     *     shard that does not answer, ...)
     */
    public Rows newRows(String table) {
        return table(table).newRows();
    }

    /**
     * For the pipeline runtime: table {@code table} as the writer knows it now (opened the first
     * time), for batches it stages itself.
     *
     * @throws WriterException when it cannot be written
     */
    public InsertTarget target(String table) {
        return table(table);
    }

    /** Submits {@code rows} to be gathered with other submissions into the writer's batches. */
    public CompletableFuture<Written> submit(Rows rows) {
        return submit(rows, WriteOptions.defaults());
    }

    /** Submits {@code rows} as one batch with deduplication token {@code token}. */
    public CompletableFuture<Written> submit(Rows rows, String token) {
        return submit(rows, WriteOptions.token(token));
    }

    /**
     * Submits {@code rows} as one batch with deduplication token {@code token}, to the shard {@code
     * shardKey} hashes to.
     */
    public CompletableFuture<Written> submit(Rows rows, String token, String shardKey) {
        return submit(rows, WriteOptions.token(token).shardKey(shardKey));
    }

    /**
     * Submits {@code rows}: the returned completion succeeds once the server acknowledged all of
     * them, or fails with {@link WriterException} saying why they were not written. Leave {@code
     * rows} alone until then.
     *
     * @throws WriterFullException when the in-flight limit does not let them in (nothing taken)
     * @throws IllegalStateException when the writer is closed, or a row of {@code rows} is begun
     *     but not ended
     * @throws IllegalArgumentException when {@code rows} belong to another writer
     */
    public CompletableFuture<Written> submit(Rows rows, WriteOptions options) {
        Objects.requireNonNull(options, "options");
        WriterTable table = rows.owner();
        if (table.writer() != this) {
            throw new IllegalArgumentException(
                    "these rows were made by another writer (" + rows.table() + ")");
        }
        if (rows.rowOpen()) {
            throw new IllegalStateException(
                    "row " + rows.size() + " was begun but not ended: call endRow() or abortRow()");
        }
        checkOpen();
        int n = rows.size();
        if (n == 0) {
            return CompletableFuture.completedFuture(new Written(0, options.token()));
        }
        long bytes = rows.dataBytes();
        acquire(bytes);
        Submission s = new Submission(n, bytes, this::settled);
        pending.add(s);
        try {
            checkOpen();
            if (options.token() == null) {
                table.coalescer().add(rows, s);
            } else {
                String token = options.token();
                String key = options.shardKey() != null ? options.shardKey() : token;
                long now =
                        options.nowSeconds() >= 0
                                ? options.nowSeconds()
                                : clock.currentTimeMillis() / 1000;
                String what =
                        options.description() != null
                                ? options.description()
                                : "rows submitted with token " + token;
                shardWriters.submit(
                        SealedBatch.submitted(
                                s,
                                rows.block(),
                                rows.absent(),
                                what,
                                router.shardFor(key, 0),
                                token,
                                options.replayed(),
                                SealReason.SUBMIT,
                                now,
                                bytes,
                                table));
            }
        } catch (RuntimeException e) {
            pending.remove(s);
            limit.release(bytes);
            throw e;
        }
        return s.completion;
    }

    /**
     * For the pipeline runtime: a batch it sealed, whose boundaries it recorded and whose owner it
     * is (property 2); never blocks (the runtime's own budget bounds it, property 3).
     */
    @Override
    public void submit(SealedBatch batch) {
        shardWriters.submit(batch);
    }

    /** Batches queued or being sent, over all shards. */
    @Override
    public int inFlight() {
        return shardWriters.inFlight();
    }

    /** Batches queued or being sent by shard {@code shard}. */
    public int inFlight(int shard) {
        return shardWriters.inFlight(shard);
    }

    /** Bytes of submitted rows not yet settled (what {@code maxInflightBytes} bounds). */
    public long inFlightBytes() {
        return limit.used();
    }

    /**
     * Sends what the writer is gathering and waits until every submission made before this call is
     * settled.
     *
     * @throws WriterException when any submission failed since the previous {@code flush()} — while
     *     this one waited or before it was called — with the first failure's message and how many;
     *     each failure is reported by one flush
     * @throws InterruptedException when interrupted while waiting
     */
    public void flush() throws InterruptedException {
        // taken before sealing: a batch sealed here may fail and settle before the copy
        List<Submission> awaited = new ArrayList<>(pending);
        for (WriterTable t : tables.values()) {
            t.coalescer().seal(SealReason.FLUSH);
        }
        for (Submission s : awaited) {
            try {
                s.completion.get();
            } catch (ExecutionException e) {
                // noted by settled() before the completion failed: reported below
            }
        }
        WriterException first;
        int failed;
        synchronized (failuresLock) {
            first = firstFailure;
            failed = failures;
            firstFailure = null;
            failures = 0;
        }
        if (failed > 0) {
            throw new WriterException(
                    (failed == 1 ? "a submission" : failed + " submissions")
                            + " failed since the last flush: "
                            + first.getMessage(),
                    first);
        }
    }

    /**
     * Sends what is gathered and waits for every submission to settle, then closes the connections.
     * Submitting afterwards throws. Equivalent to {@code close(Duration.ofDays(1))}: retries and
     * the look-up of interrupted INSERTs are bounded by their own settings.
     */
    @Override
    public void close() {
        close(Duration.ofDays(1));
    }

    /**
     * Like {@link #close()}, but stops waiting after {@code timeout}: what is not written by then
     * is abandoned (its completions fail; an INSERT under way ends after its current attempt).
     */
    public void close(Duration timeout) {
        closed = true;
        for (WriterTable t : tables.values()) {
            t.coalescer().close();
        }
        if (checker != null) {
            checker.interrupt();
        }
        shardWriters.finish();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!shardWriters.join(deadline)) {
                abort(); // a thread still inside an attempt settles its batch when that ends
            }
        } catch (InterruptedException e) {
            abort();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops sending: queued batches are abandoned (their completions fail), INSERTs under way end
     * after their current attempt. For a shutdown past its deadline; {@link #close} still follows.
     */
    public void abort() {
        supervision.abandon = true;
        shardWriters.interrupt();
    }

    /**
     * The INSERTs a user must know about — written twice, maybe written twice, outcome unknown —
     * one line each, naming their rows and query ids.
     */
    public List<String> deliveryNotes() {
        return shardWriters.deliveryNotes();
    }

    /** The registry of this writer's {@code etl_sink_*} series (docs/metrics.md). */
    public PrometheusRegistry registry() {
        return metrics.registry();
    }

    /** Counts so far, summed over the shards. */
    public WriterStats stats() {
        Map<String, Long> retries = new LinkedHashMap<>();
        for (RetryReason r : RetryReason.values()) {
            long n = metrics.retries(r);
            if (n > 0) {
                retries.put(r.label(), n);
            }
        }
        return new WriterStats(
                metrics.sumOverShards(s -> s.records),
                metrics.sumOverShards(s -> s.bytes),
                metrics.sumOverShards(s -> s.wireBytes),
                metrics.sumOverShards(s -> s.batches),
                metrics.sumOverShards(s -> s.inserts),
                retries,
                shardWriters.inFlight(),
                limit.used());
    }

    private void acquire(long bytes) {
        try {
            limit.acquire(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WriterFullException(
                    "interrupted while waiting for room under the in-flight limit");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(
                    "the writer into "
                            + (sink.table() != null
                                    ? sink.table()
                                    : String.join(", ", tables.keySet()))
                            + " is closed");
        }
    }

    private void settled(Submission s) {
        if (s.failure != null) {
            synchronized (failuresLock) {
                if (firstFailure == null) {
                    firstFailure = s.failure;
                }
                failures++;
            }
        }
        pending.remove(s);
        limit.release(s.bytes);
    }

    /** A batch a table's coalescer sealed: to the shard its token hashes to. */
    private void gathered(
            WriterTable table,
            Block block,
            AbsentRows absent,
            List<Submission> members,
            SealReason reason) {
        String token = name + "@" + run + "/c" + sequence.incrementAndGet();
        long bytes = 0;
        for (Submission m : members) {
            bytes += m.bytes;
        }
        metrics.seals(reason).inc();
        shardWriters.submit(
                SealedBatch.submitted(
                        new Submission.Gathered(members),
                        block,
                        absent,
                        "rows of "
                                + members.size()
                                + " submissions to "
                                + table.table()
                                + " (token "
                                + token
                                + ")",
                        router.shardFor(token, 0),
                        token,
                        false,
                        reason,
                        clock.currentTimeMillis() / 1000,
                        bytes,
                        table));
    }

    /** How writer threads learn that queued batches must be abandoned, and report failures. */
    private static final class Supervision implements SinkSupervisor {
        private final SinkSupervisor outer;
        volatile boolean abandon;

        Supervision(SinkSupervisor outer) {
            this.outer = outer;
        }

        @Override
        public boolean abandonQueued() {
            return abandon || (outer != null && outer.abandonQueued());
        }

        @Override
        public void fatal(SealedBatch batch, String message, Throwable cause) {
            batch.fail(message, cause);
            if (outer != null) {
                outer.fatal(batch, message, cause);
            }
        }
    }

    /** The gauges of a writer that is not part of a pipeline. */
    private final class LiveProbes implements Probes {
        @Override
        public long inflightBytes() {
            return limit.used();
        }

        @Override
        public long budgetBytes() {
            return limit.limit();
        }

        @Override
        public boolean paused() {
            return false;
        }

        @Override
        public long pendingBatches() {
            return shardWriters.inFlight();
        }

        @Override
        public double watermarkAgeSeconds() {
            return 0;
        }

        @Override
        public long queuedBatches(int shard) {
            return shardWriters.inFlight(shard);
        }
    }

    /**
     * Options of a {@link ClickHouseWriter}. The defaults are the pipeline's ({@code
     * docs/configuration.md}): 500,000 rows or 64 MiB per gathered batch, 1 s linger, 2 INSERTs in
     * flight per shard, LZ4, retries with backoff from 100 ms to 10 s until a batch has failed for
     * 10 minutes without progress; no in-flight limit; a row the server rejects fails its batch.
     */
    public static final class Builder {
        /**
         * Rows the server rejects fail their batch: nothing of an INSERT the server refused for its
         * content is written, and the completions fail with the server's reason.
         */
        private static final RejectedRows FAIL_THE_BATCH =
                new RejectedRows() {
                    @Override
                    public boolean bisects() {
                        return false;
                    }

                    @Override
                    public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
                        return reason;
                    }

                    @Override
                    public String howToBisect() {
                        return "nothing of it was written; the builder's rejectedRows(...) seeks"
                                + " out the rejected rows and writes the rest";
                    }
                };

        private SinkSpec sink;
        private String name = "writer";
        private List<String> columns;
        private long maxInflightBytes = Long.MAX_VALUE;
        private WhenFull whenFull = WhenFull.WAIT;
        private Duration maxWait = Duration.ofDays(1);
        private Path stateDir;
        private Connections connections;
        private Clock clock = Clock.SYSTEM;
        private Random random = new Random();
        private final List<TableLayout> layouts = new ArrayList<>();
        private Consumer<String> changes = line -> {};
        private Metrics metrics;
        private SinkSupervisor supervisor;
        private UnresolvedInserts unresolved;
        private SplitInserts splits;
        private RejectedRows rejected = FAIL_THE_BATCH;
        private String threadNamePrefix;
        private Function<TableSchema, TargetColumns> chooser;
        private LongConsumer splitAcquire;
        private LongConsumer splitRelease;

        private Builder(SinkSpec sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
        }

        /** The writer's name: in its metrics' {@code pipeline} label and its tokens. */
        public Builder name(String name) {
            if (!name.matches("[A-Za-z0-9._:-]{1,64}")) {
                throw new IllegalArgumentException(
                        "a writer's name needs 1 to 64 characters of [A-Za-z0-9._:-]: '"
                                + name
                                + "'");
            }
            this.name = name;
            return this;
        }

        /** The columns to send, in this order (default: every insertable column of the table). */
        public Builder columns(List<String> names) {
            this.columns = List.copyOf(names);
            return this;
        }

        /** The shards and their replicas, replacing the URL's single shard. */
        public Builder shards(List<ShardSpec> shards) {
            return spec(sink.withShards(shards));
        }

        /**
         * The shards of {@code cluster} as the URL's server lists them in {@code system.clusters}
         * (a {@code clickhouse://} URL).
         */
        public Builder cluster(String cluster) {
            return spec(sink.toBuilder().cluster(cluster).build());
        }

        /** Gathered batches are sealed at whichever comes first. */
        public Builder batch(int maxRows, long maxBytes, Duration linger) {
            return spec(sink.toBuilder().batch(new BatchSpec(maxRows, maxBytes, linger)).build());
        }

        /** INSERTs running at once per shard, each on its own connection. */
        public Builder inflightPerShard(int n) {
            return spec(sink.toBuilder().inflightPerShard(n).build());
        }

        /** {@code lz4} (default), {@code zstd}, {@code zstd:LEVEL} or {@code none}. */
        public Builder compression(String compression) {
            return spec(sink.toBuilder().compression(compression).build());
        }

        /** Sorts each batch by the table's sorting key before sending it (docs/presort.md). */
        public Builder presort(boolean on) {
            return spec(sink.toBuilder().presort(on).build());
        }

        /**
         * Sorts batches by the table's sorting key before sending them: off, on, or auto — a batch
         * when its writer has more batches waiting (docs/presort.md).
         */
        public Builder presort(PresortMode mode) {
            return spec(sink.toBuilder().presort(mode).build());
        }

        /** Splits each batch by the table's partition key, one INSERT per partition. */
        public Builder partitionSplit(boolean on) {
            return spec(sink.toBuilder().partitionSplit(on).build());
        }

        /** ClickHouse settings sent with every INSERT. */
        public Builder settings(Map<String, String> settings) {
            return spec(sink.toBuilder().settings(settings).build());
        }

        /** Backoff between retry rounds and the attempts a batch may have (0: unlimited). */
        public Builder retry(RetrySpec retry) {
            return spec(sink.toBuilder().retry(retry).build());
        }

        /** What to do when the server cannot tell whether it wrote an interrupted INSERT. */
        public Builder onUnknownOutcome(OnUnknownOutcome policy) {
            return spec(sink.toBuilder().onUnknownOutcome(policy).build());
        }

        /** How long an interrupted INSERT is looked up before its outcome counts as unknown. */
        public Builder outcomeTimeout(Duration timeout) {
            return spec(sink.toBuilder().outcomeTimeout(timeout).build());
        }

        /**
         * Routes each row to the shard a Distributed table with this sharding key would pick
         * ({@code intHash32(tenant)}, ...).
         */
        public Builder shardBy(String expression) {
            return spec(sink.toBuilder().shardBy(expression).build());
        }

        /**
         * How often each table's columns are looked at, to notice an {@code ALTER TABLE} while data
         * flows that no INSERT is refused for (an added column); {@link Duration#ZERO}: only a
         * refused INSERT notices a change. Default 30 s.
         */
        public Builder schemaCheckInterval(Duration interval) {
            return spec(sink.toBuilder().schemaCheckInterval(interval).build());
        }

        /**
         * Told, one line each, when a table was found altered and described again (what changed,
         * how it was noticed).
         */
        public Builder changes(Consumer<String> listener) {
            this.changes = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Bytes of submitted rows that may be unacknowledged at once (default: no limit). */
        public Builder maxInflightBytes(long bytes) {
            this.maxInflightBytes = bytes;
            return this;
        }

        /** Whether a submission beyond the in-flight limit waits (default) or fails at once. */
        public Builder whenFull(WhenFull whenFull) {
            this.whenFull = Objects.requireNonNull(whenFull);
            return this;
        }

        /** How long a submission waits for room under {@link WhenFull#WAIT}. */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = Objects.requireNonNull(maxWait);
            return this;
        }

        /**
         * A directory where INSERTs given up on with an unknown outcome are recorded, so that a
         * later writer with the same directory looks them up before sending them again.
         */
        public Builder stateDir(Path dir) {
            this.stateDir = dir;
            return this;
        }

        /** How the writer reaches its servers (default: each URL's own transport). */
        public Builder connections(Connections connections) {
            this.connections = connections;
            return this;
        }

        /** The clock of backoff and DEFAULT's {@code now()} (tests). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        /** The source of backoff jitter and of run ids (tests). */
        public Builder random(Random random) {
            this.random = Objects.requireNonNull(random);
            return this;
        }

        /**
         * For the pipeline runtime: a table it described itself (nothing is asked again at
         * opening); several for a sink with several tables.
         */
        public Builder layout(TableLayout layout) {
            this.layouts.add(Objects.requireNonNull(layout, "layout"));
            return this;
        }

        /** For the pipeline runtime: the columns, chosen from the table. */
        public Builder columns(Function<TableSchema, TargetColumns> chooser) {
            this.chooser = chooser;
            return this;
        }

        /** For the pipeline runtime: its metrics (the writer registers none of its own). */
        public Builder metrics(Metrics metrics) {
            this.metrics = metrics;
            return this;
        }

        /** For the pipeline runtime: told of every batch that fails, asked when to abandon. */
        public Builder supervisor(SinkSupervisor supervisor) {
            this.supervisor = supervisor;
            return this;
        }

        /** For the pipeline runtime: the INSERTs of unknown outcome, kept with its checkpoints. */
        public Builder unresolved(UnresolvedInserts unresolved) {
            this.unresolved = unresolved;
            return this;
        }

        /**
         * For the pipeline runtime: the INSERTs sent in halves for their size, by earlier runs and
         * this one, so a replay splits alike (default: kept in {@code stateDir}, else in memory).
         */
        public Builder splits(SplitInserts splits) {
            this.splits = Objects.requireNonNull(splits, "splits");
            return this;
        }

        /**
         * Where rows the server rejects for their content go (the pipeline passes its {@code
         * errors.policy}). By default the batch fails: its submissions' completions fail with the
         * server's reason, and no row of an INSERT the server refused is written. A handler whose
         * {@link RejectedRows#bisects()} is true has such an INSERT sent in halves down to the
         * rejected rows, gets each of them (its {@link SealedBatch.RowSource}: the submission's
         * description and the row's index in the writer's batch; the row as JSON; the server's
         * message) and the rest is written; returning a reason from {@link RejectedRows#reject}
         * fails the batch instead (docs/writer.md, "Rows the server rejects").
         */
        public Builder rejectedRows(RejectedRows rejected) {
            this.rejected = Objects.requireNonNull(rejected, "rejected");
            return this;
        }

        /** Names of the writer threads: this prefix, the shard and the lane. */
        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = prefix;
            return this;
        }

        /**
         * For the pipeline runtime: the budget the copies of rows split by {@code shardBy} count
         * against (default: the writer's in-flight limit).
         */
        public Builder splitBudget(LongConsumer acquire, LongConsumer release) {
            this.splitAcquire = acquire;
            this.splitRelease = release;
            return this;
        }

        /** The sink as configured so far. */
        public SinkSpec sink() {
            return sink;
        }

        /**
         * Describes the table on every shard, decides the layout and starts the writer threads.
         *
         * @throws WriterException when a shard cannot be reached or the table, the columns or the
         *     settings do not allow writing; the message says what to fix
         * @throws IllegalArgumentException for options that make no sense
         */
        public ClickHouseWriter build() {
            SinkSpec s = sink;
            SealPolicy.of(s.batch());
            new Backoff(s.retry(), random);
            if (layouts.isEmpty() && s.cluster() != null) {
                String url = s.shards().get(0).replicas().get(0);
                try {
                    s =
                            s.withShards(
                                    ClusterShards.from(
                                            url,
                                            s.cluster(),
                                            connections(s).clusterRows(url, s.cluster())));
                } catch (RuntimeException e) {
                    throw new WriterException("cluster " + s.cluster() + ": " + e.getMessage(), e);
                }
            }
            if (s.table() != null || !s.tables().isEmpty()) {
                TableRoute route;
                try {
                    route = s.route();
                } catch (IllegalArgumentException e) {
                    throw new WriterException("sink.clickhouse: " + e.getMessage(), e);
                }
                if (route.byTopic() && s.shardBy() != null) {
                    throw new WriterException(
                            "sink.clickhouse.shard_by routes the rows of one table; tables chosen"
                                    + " by topic ("
                                    + route.describe()
                                    + ") cannot have a sharding key yet");
                }
            }
            List<TableLayout> known = new ArrayList<>(layouts);
            if (!known.isEmpty()) {
                s = s.withShards(known.get(0).sink().shards());
            } else if (s.table() != null || !s.tables().isEmpty()) {
                for (String table : s.route().knownTables()) {
                    SinkSpec one = s.toBuilder().table(table).tables(Map.of()).build();
                    known.add(TableLayout.discover(one, connections(s).forTable(table), chooser()));
                }
            }
            return new ClickHouseWriter(this, s, known);
        }

        /** How the columns are chosen from a table: as given, or every insertable one. */
        Function<TableSchema, TargetColumns> chooser() {
            return chooser != null
                    ? chooser
                    : columns != null
                            ? t -> TableLayout.namedColumns(t, columns)
                            : TableLayout::allColumns;
        }

        private Connections connections(SinkSpec s) {
            return connections != null ? connections : Connections.of(s);
        }

        private Builder spec(SinkSpec s) {
            this.sink = s;
            return this;
        }
    }
}
