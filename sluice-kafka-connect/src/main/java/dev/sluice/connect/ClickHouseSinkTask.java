package dev.sluice.connect;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.WhenFull;
import dev.sluice.pipeline.writer.WriterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Writes its partitions' records into ClickHouse: each record's value (a map or a Struct) becomes
 * one row of its topic's table, by column name; columns a record lacks get their DEFAULT. Records
 * are gathered per partition into batches of consecutive offsets, sealed at {@code
 * batch.max.records} offsets or after {@code batch.linger.ms}, each sent as one INSERT with a
 * deduplication token from its topic, partition and offsets.
 *
 * <p><b>Where a record is on every path.</b> {@link #preCommit} hands the worker only offsets whose
 * rows ClickHouse acknowledged (with every earlier offset of their partition), so a crash, a
 * restart or a rebalance replays whatever was not acknowledged: at least once. A record that cannot
 * become a row (not a map or struct, a value a column cannot take, a field the table lacks under
 * {@code unknown.fields=reject}) goes to the worker's errant-record reporter, which honours {@code
 * errors.tolerance} and the dead-letter topic; without a reporter the task fails. Rows ClickHouse
 * refuses for their content (a DEFAULT or MATERIALIZED expression, a view): under {@code
 * errors.tolerance=all} the writer bisects their INSERT down to them, writes the rest, and their
 * records go to the reporter too, before their batch's offsets count as acknowledged; otherwise,
 * like any batch ClickHouse refuses (after the writer's retries), the batch fails the task on the
 * next {@code put}, and its offsets are never committed.
 */
public final class ClickHouseSinkTask extends SinkTask {
    /** Connect's {@code errors.tolerance}: {@code none} (default) or {@code all}. */
    static final String ERRORS_TOLERANCE = "errors.tolerance";

    /**
     * The records {@link #put(int, long)} takes at once: the look-ups of 256 records of the
     * benchmark's (docs/connect.md) fit the core's second-level cache with room to spare.
     */
    private static final int CHUNK = 256;

    private SinkConfig config;
    private final Map<String, TableSink> tables = new HashMap<>();
    private final Map<TopicPartition, PartitionBatches> partitions = new LinkedHashMap<>();
    // the same, by topic and partition number: found per record without a TopicPartition
    private final Map<String, PartitionBatches[]> byTopic = new HashMap<>();
    private String lastTopic; // the topic partition() found last, and its entry of byTopic
    private PartitionBatches[] lastTopicPartitions;
    private ErrantRecordReporter reporter;
    private boolean toleratesAll;
    private BatchLedger ledger;
    private RuntimeException failure; // from preCommit, thrown by the next put
    private long lingerNanos;
    private int batchRecords;
    private boolean ignoreUnknownFields;
    // put's records in chunks of one table each, with their values and partitions
    private final SinkRecord[] chunk = new SinkRecord[CHUNK];
    private final Object[] chunkValues = new Object[CHUNK];
    private final PartitionBatches[] chunkPartitions = new PartitionBatches[CHUNK];
    private Object[] staged = new Object[0]; // the chunk's look-ups; stale past them

    @Override
    public String version() {
        return Version.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        this.config = new SinkConfig(props);
        this.lingerNanos = config.linger().toNanos();
        this.batchRecords = config.batchRecords();
        this.ignoreUnknownFields = config.ignoreUnknownFields();
        try {
            this.reporter = context.errantRecordReporter();
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            this.reporter = null; // a worker older than Kafka 2.6
        }
        // Connect's own key (ConnectorConfig.ERRORS_TOLERANCE_CONFIG): the worker hands every
        // task the connector's configuration.
        this.toleratesAll = reporter != null && "all".equalsIgnoreCase(props.get(ERRORS_TOLERANCE));
        this.failure = null;
        if (config.ledgerTable() != null) {
            // Connect's own key: the connector's name, the same for all its tasks and restarts
            String connector = props.getOrDefault("name", "");
            this.ledger =
                    BatchLedger.open(
                            config.url(),
                            config.ledgerTable(),
                            connector,
                            config.ledgerRetentionDays());
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        checkFailures();
        long now = System.nanoTime();
        int n = 0;
        for (SinkRecord r : records) {
            PartitionBatches p = partition(r);
            if (n == CHUNK || (n > 0 && p.filler() != chunkPartitions[0].filler())) {
                put(n, now);
                n = 0;
            }
            chunk[n] = r;
            chunkValues[n] = r.value();
            chunkPartitions[n] = p;
            n++;
        }
        put(n, now);
        Arrays.fill(chunk, null); // holds no record past its put
        Arrays.fill(chunkValues, null);
        Arrays.fill(chunkPartitions, null);
        sealLingered(now);
        send();
    }

    /**
     * Adds the {@code n} records of {@link #chunk}, all of one table: their column values are
     * looked up first ({@link RowFiller#lookUp}), then their rows filled: runs of plain records
     * bound for one batch column by column, any other record on its own, the careful way that
     * reports it when it cannot be a row. A chunk is small enough for what the look-ups brought
     * into the cache to be still there.
     */
    private void put(int n, long now) {
        if (n == 0) {
            return;
        }
        RowFiller filler = chunkPartitions[0].filler();
        int width = filler.width();
        if (staged.length < n * width) {
            staged = new Object[CHUNK * width];
        }
        filler.lookUp(chunkValues, n, staged);
        int oneByOne = 0; // the records before it are added one by one
        int k = 0;
        while (k < n) {
            SinkRecord r = chunk[k];
            PartitionBatches p = chunkPartitions[k];
            Rows rows = p.rowsFor(r.kafkaOffset(), r.timestamp(), now);
            int run = k >= oneByOne ? plainRun(filler, p, k, n) : 0;
            int added = 1;
            if (run > 1 && filler.addPlain(rows, staged, k, run)) {
                added = run;
                for (int j = k; j < k + run; j++) {
                    p.added(chunk[j]);
                    p.consumed(chunk[j].kafkaOffset());
                }
            } else {
                if (run > 1) {
                    oneByOne = k + run; // a value refused: one by one, which says which and why
                }
                try {
                    filler.add(rows, chunkValues[k], staged, k * width);
                    p.added(r);
                } catch (RuntimeException e) {
                    errant(r, e);
                }
                p.consumed(r.kafkaOffset());
            }
            if (p.full(batchRecords)) {
                p.seal();
            }
            k += added;
        }
    }

    /**
     * How many plain records ({@link RowFiller#plain}) from {@code k} on join {@code p}'s open
     * batch one after another: a run {@link RowFiller#addPlain} can add column by column. A
     * worker's put mostly holds such runs, records of one partition in a row (a consumer's poll
     * gives them partition by partition).
     */
    private int plainRun(RowFiller filler, PartitionBatches p, int k, int n) {
        if (!filler.plain(chunkValues, staged, k)) {
            return 0;
        }
        int end = k + 1;
        while (end < n
                && p.takesNext(chunk, chunkPartitions, end, batchRecords)
                && filler.plain(chunkValues, staged, end)) {
            end++;
        }
        return end - k;
    }

    /**
     * Only offsets whose rows ClickHouse acknowledged (property 1 of docs/pipeline.md: a source
     * position is committed only after the rows before it are written). Never throws: the worker
     * would rewind the consumer under the task's batches; a failure is thrown by the next {@code
     * put}.
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(
            Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        if (failure == null) {
            try {
                sealLingered(System.nanoTime());
                send();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        Map<TopicPartition, OffsetAndMetadata> acknowledged = new HashMap<>();
        for (Map.Entry<TopicPartition, PartitionBatches> e : partitions.entrySet()) {
            long next;
            try {
                next = e.getValue().committable();
            } catch (IllegalStateException | ConnectException failed) {
                // commit nothing more of this partition; put() fails the task
                continue;
            }
            if (next >= 0) {
                acknowledged.put(e.getKey(), new OffsetAndMetadata(next));
            }
        }
        return acknowledged;
    }

    private void sealLingered(long now) {
        for (PartitionBatches p : partitions.values()) {
            if (p.lingeredSince(now, lingerNanos)) {
                p.seal();
            }
        }
    }

    /**
     * Sends the sealed batches: with a ledger, their boundaries are recorded first (one INSERT for
     * all), so that no batch can reach ClickHouse unless its boundaries can be found again.
     */
    private void send() {
        try {
            if (ledger != null) {
                List<BatchLedger.Entry> entries = new ArrayList<>();
                for (PartitionBatches p : partitions.values()) {
                    entries.addAll(p.unrecorded());
                }
                ledger.record(entries);
            }
            for (PartitionBatches p : partitions.values()) {
                p.submitSealed();
            }
        } catch (WriterException | IllegalStateException e) {
            throw new ConnectException(e.getMessage(), e);
        }
    }

    /**
     * Partitions taken away: their open batches are dropped (never committed, so their new owner
     * reads them again); batches already sent are left to finish.
     */
    @Override
    public void close(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            PartitionBatches p = partitions.remove(tp);
            if (p != null) {
                p.abandon();
                byTopic.get(tp.topic())[tp.partition()] = null;
            }
        }
    }

    @Override
    public void stop() {
        partitions.clear();
        byTopic.clear();
        lastTopic = null;
        lastTopicPartitions = null;
        for (TableSink t : tables.values()) {
            // nothing is committed after stop: waiting only spares a replay some duplicates
            t.writer().close(Duration.ofSeconds(5));
        }
        tables.clear();
        if (ledger != null) {
            ledger.close();
            ledger = null;
        }
    }

    private void errant(SinkRecord r, RuntimeException reason) {
        String where = r.topic() + "-" + r.kafkaPartition() + " offset " + r.kafkaOffset();
        RuntimeException e = new ConnectException(where + ": " + reason.getMessage(), reason);
        if (reporter == null) {
            throw e;
        }
        reporter.report(r, e); // throws once errors.tolerance is exceeded
    }

    /**
     * Fails the task when a batch failed; reports the refused rows of the acknowledged batches at
     * the head (so their dead-letter writes start at once).
     */
    private void checkFailures() {
        if (failure != null) {
            RuntimeException e = failure;
            throw e instanceof ConnectException c ? c : new ConnectException(e.getMessage(), e);
        }
        for (PartitionBatches p : partitions.values()) {
            try {
                p.committable();
                p.checkFailures();
            } catch (IllegalStateException e) {
                throw new ConnectException(e.getMessage(), e.getCause());
            }
        }
    }

    /**
     * The batches of {@code r}'s partition; on its first record since the partition was assigned,
     * with the ledger's recorded batches from that record's offset on.
     */
    private PartitionBatches partition(SinkRecord r) {
        // a put's records are mostly of one topic: its partitions without a look-up
        PartitionBatches[] known =
                r.topic() == lastTopic ? lastTopicPartitions : byTopic.get(r.topic());
        int n = r.kafkaPartition();
        if (known != null && n < known.length && known[n] != null) {
            lastTopic = r.topic();
            lastTopicPartitions = known;
            return known[n];
        }
        TopicPartition tp = new TopicPartition(r.topic(), n);
        TableSink table = table(config.tableFor(tp.topic()));
        List<BatchLedger.Entry> replay =
                ledger != null ? ledger.recorded(tp, r.kafkaOffset()) : List.of();
        PartitionBatches p =
                new PartitionBatches(tp, table, table.refused() != null ? reporter : null, replay);
        partitions.put(tp, p);
        if (known == null || n >= known.length) {
            known = Arrays.copyOf(known == null ? new PartitionBatches[0] : known, n + 1);
            byTopic.put(tp.topic(), known);
        }
        known[n] = p;
        lastTopic = r.topic();
        lastTopicPartitions = known;
        return p;
    }

    private TableSink table(String table) {
        TableSink t = tables.get(table);
        if (t == null) {
            ClickHouseWriter w;
            RefusedRows refused = toleratesAll ? new RefusedRows() : null;
            try {
                w =
                        ClickHouseWriter.builder(config.url(), table)
                                .name("connect")
                                .inflightPerShard(config.inflightPerShard())
                                .maxInflightBytes(config.maxInflightBytes())
                                .whenFull(WhenFull.WAIT)
                                .threadNamePrefix("sluice-connect-" + table)
                                .rejectedRows(refused != null ? refused : RefusedRows.failing())
                                .build();
            } catch (WriterException e) {
                throw new ConnectException("table " + table + ": " + e.getMessage(), e);
            }
            t =
                    new TableSink(
                            w,
                            new RowsPool(w, config.maxInflightBytes() / 2),
                            new RowFiller(w.newRows(), ignoreUnknownFields),
                            refused);
            tables.put(table, t);
        }
        return t;
    }
}
