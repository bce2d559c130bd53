package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.pipeline.metrics.ShardMetrics;
import dev.sluice.pipeline.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends a batch to its shard, retrying until it is written, abandoned or fails for good. One per
 * writer thread, with its own connection to each replica.
 *
 * <p>The batch's boundaries were committed with its source before it was sealed into the sink's
 * queue (property 2). Before the first attempt it is turned into its INSERTs ({@link BatchShaper}:
 * defaults, pre-sorting, partition split) — once, so every attempt sends the same blocks. Each
 * INSERT carries the batch's deduplication token, with the INSERT's suffix when there are several,
 * to servers that take one. The batch is written when every INSERT is acknowledged; a retry resumes
 * at the first INSERT not acknowledged, so the acknowledged ones are not written twice even without
 * deduplication. A retryable error ({@link ErrorClass}) is followed by the next replica at once;
 * when every replica of the shard has failed in a row, the writer pauses by {@link Backoff} before
 * the next round. A fatal error, or running out of attempts, stops the pipeline with the server's
 * message.
 */
public final class BatchSender implements AutoCloseable {
    private final int shard;
    private final String table;
    private final Map<String, String> settings;
    private final Replicas replicas;
    private final Backoff backoff;
    private final Clock clock;
    private final BatchShaper shaper;
    private final ShardMetrics metrics;
    private final SinkSupervisor supervisor;

    BatchSender(
            int shard,
            String table,
            Map<String, String> settings,
            Replicas replicas,
            Backoff backoff,
            Clock clock,
            BatchShaper shaper,
            ShardMetrics metrics,
            SinkSupervisor supervisor) {
        this.shard = shard;
        this.table = table;
        this.settings = Map.copyOf(settings);
        this.replicas = replicas;
        this.backoff = backoff;
        this.clock = clock;
        this.shaper = shaper;
        this.metrics = metrics;
        this.supervisor = supervisor;
    }

    /** Sends {@code batch}; never throws. A fatal failure is reported to the supervisor. */
    public Batch.Outcome send(Batch batch) {
        List<BatchShaper.Insert> inserts;
        try {
            inserts = shaper.shape(batch);
        } catch (RuntimeException e) {
            return fatal(batch, "cannot make the INSERTs of " + batch + ": " + e.getMessage(), e);
        }
        int next = 0; // the first INSERT not acknowledged yet
        int attempts = 0;
        int failuresInRow = 0;
        int round = 0;
        while (true) {
            if (attempts > 0 && supervisor.abandonQueued()) {
                return Batch.Outcome.ABANDONED;
            }
            String replica = replicas.describe();
            try {
                BlockInserter inserter = replicas.connection();
                for (; next < inserts.size(); next++) {
                    BatchShaper.Insert insert = inserts.get(next);
                    long start = clock.nanoTime();
                    InsertResult result =
                            inserter.insert(
                                    table,
                                    insert.block(),
                                    settingsFor(
                                            inserter.server(),
                                            batch.token() + insert.tokenSuffix()),
                                    null);
                    long end = clock.nanoTime();
                    metrics.insertSeconds.observe((end - start) / 1e9);
                    metrics.records.inc(insert.block().rows());
                    metrics.bytes.inc(result.uncompressedBytes());
                    metrics.wireBytes.inc(result.wireBytes());
                    metrics.inserts.inc();
                    failuresInRow = 0;
                }
                metrics.batches.inc();
                return Batch.Outcome.WRITTEN;
            } catch (RuntimeException e) {
                ErrorClass kind = ErrorClass.of(e);
                metrics.errors(kind).inc();
                attempts++;
                if (kind == ErrorClass.CONNECTION) {
                    replicas.discard();
                }
                if (!kind.retryable()) {
                    return fatal(batch, describe(replica, batch) + ": " + e.getMessage(), e);
                }
                if (backoff.exhausted(attempts)) {
                    return fatal(
                            batch,
                            describe(replica, batch)
                                    + ": gave up after "
                                    + attempts
                                    + " attempts; last error: "
                                    + e.getMessage(),
                            e);
                }
                metrics.retries.inc();
                replicas.next();
                if (++failuresInRow >= replicas.size()) {
                    failuresInRow = 0;
                    try {
                        clock.sleep(backoff.delayNanos(++round));
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt(); // the drain deadline passed
                        return Batch.Outcome.ABANDONED;
                    }
                }
            }
        }
    }

    private Map<String, String> settingsFor(ServerInfo server, String token) {
        Map<String, String> s = new HashMap<>(settings);
        if (server.supportsInsertDeduplicationToken()) {
            s.put("insert_deduplicate", "1");
            s.put("insert_deduplication_token", token);
        }
        if (server.supportsAsyncInsert()) {
            // An asynchronous insert is acknowledged when buffered unless the client waits; keep
            // the acknowledgement durable (property 1) unless the user chose otherwise.
            s.putIfAbsent("async_insert", "0");
        }
        return s;
    }

    private String describe(String replica, Batch batch) {
        return "shard "
                + shard
                + " ("
                + replica
                + ") failed on "
                + batch.partition()
                + " positions "
                + batch.firstPosition()
                + ".."
                + batch.lastPosition();
    }

    private Batch.Outcome fatal(Batch batch, String message, Throwable cause) {
        supervisor.fatal(batch, message, cause);
        return Batch.Outcome.ABANDONED;
    }

    @Override
    public void close() {
        replicas.close();
    }
}
