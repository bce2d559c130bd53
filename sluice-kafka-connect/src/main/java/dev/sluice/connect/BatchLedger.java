package dev.sluice.connect;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The boundaries of a connector's batches, recorded in a ClickHouse table before the batches are
 * sent, so that whoever replays a partition — this task after a restart, another after a rebalance
 * — re-creates exactly the batches that may already be in ClickHouse, those sealed by linger too,
 * with their tokens and {@code now()} (property 2 of docs/pipeline.md; ADR 0005's ledger, kept
 * where a Connect task can read it back: a sink task cannot read its committed offsets' metadata).
 *
 * <p>One row per batch: connector, topic, partition, first and last offset, the batch's {@code
 * now()}, and when it was recorded (later entries win where two overlap). Partitioned by day, and
 * days older than the retention are dropped when a task opens the ledger; a batch's entry is needed
 * only until its offsets are committed.
 *
 * <p>Used from the task's thread only.
 */
final class BatchLedger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchLedger.class);
    private static final List<String> COLUMNS =
            List.of(
                    "connector",
                    "topic",
                    "partition",
                    "first",
                    "last",
                    "now_seconds",
                    "recorded_ms");
    private static final List<String> TYPES =
            List.of("String", "String", "Int32", "Int64", "Int64", "Int64", "UInt64");

    /** How long a write is tried again before the task fails (its batches then wait unsent). */
    private static final Duration WRITE_PATIENCE = Duration.ofSeconds(60);

    private final ConnectionConfig server;
    private final String table;
    private final String connector;
    private ClickHouseClient client;
    private long lastRecordedMs;

    /** A batch's boundaries: its first and last offset and its {@code now()} (epoch seconds). */
    record Entry(TopicPartition partition, long first, long last, long nowSeconds) {}

    private BatchLedger(ConnectionConfig server, String table, String connector) {
        this.server = server;
        this.table = table;
        this.connector = connector;
    }

    /**
     * Opens the ledger {@code table} on the server at {@code url}, creating it if missing, and
     * drops the days older than {@code retentionDays} (0: keeps everything).
     *
     * @throws ConnectException when the server cannot be reached or refuses
     */
    static BatchLedger open(String url, String table, String connector, int retentionDays) {
        BatchLedger l = new BatchLedger(ConnectionConfig.parse(url), table, connector);
        try {
            l.client().execute(createStatement(table));
            if (retentionDays > 0) {
                l.dropDaysBefore(LocalDate.now(ZoneOffset.UTC).minusDays(retentionDays));
            }
        } catch (RuntimeException e) {
            l.close();
            throw new ConnectException(
                    "the batch ledger " + table + " (batch.ledger.table): " + e.getMessage(), e);
        }
        return l;
    }

    static String createStatement(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (connector String, topic String, partition Int32, first Int64, last Int64,"
                + " now_seconds Int64, recorded_ms UInt64)"
                + " ENGINE = MergeTree"
                + " PARTITION BY toYYYYMMDD(toDateTime(intDiv(recorded_ms, 1000)))"
                + " ORDER BY (connector, topic, partition, last)";
    }

    /**
     * The recorded batches of {@code partition} to re-create when reading it from offset {@code
     * from}: those wholly at or after {@code from}, the later entry where two overlap, in offset
     * order.
     */
    List<Entry> recorded(TopicPartition partition, long from) {
        String sql =
                "SELECT first, last, now_seconds, recorded_ms FROM "
                        + table
                        + " WHERE connector = "
                        + quote(connector)
                        + " AND topic = "
                        + quote(partition.topic())
                        + " AND partition = "
                        + partition.partition()
                        + " AND last >= "
                        + from
                        + " ORDER BY recorded_ms, first";
        List<List<Object>> rows;
        try {
            rows = client().queryRows(sql);
        } catch (RuntimeException e) {
            dropClient();
            throw new ConnectException(
                    "reading the batch ledger "
                            + table
                            + " for "
                            + partition
                            + ": "
                            + e.getMessage(),
                    e);
        }
        List<Entry> entries = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            entries.add(
                    new Entry(
                            partition,
                            ((Number) r.get(0)).longValue(),
                            ((Number) r.get(1)).longValue(),
                            ((Number) r.get(2)).longValue()));
        }
        return replayable(entries, from);
    }

    /**
     * From entries in the order they were recorded: a later entry replaces the earlier ones it
     * overlaps; those beginning before {@code from} (partly committed: not re-creatable) are left
     * out; the rest in offset order.
     */
    static List<Entry> replayable(List<Entry> inRecordOrder, long from) {
        List<Entry> live = new ArrayList<>();
        for (Entry e : inRecordOrder) {
            live.removeIf(o -> o.first() <= e.last() && e.first() <= o.last());
            live.add(e);
        }
        live.removeIf(e -> e.first() < from);
        live.sort(Comparator.comparingLong(Entry::first));
        return live;
    }

    /**
     * Records {@code entries} in one INSERT, acknowledged before this returns; tried again on
     * failure for up to a minute.
     *
     * @throws ConnectException when they cannot be recorded: their batches must not be sent
     */
    void record(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        // Strictly increasing, so that "the later entry wins" holds between this task's entries
        long now = Math.max(System.currentTimeMillis(), lastRecordedMs + 1);
        lastRecordedMs = now;
        Block block = Block.forHeader(COLUMNS, TYPES);
        for (Entry e : entries) {
            block.column(0).appendString(connector);
            block.column(1).appendString(e.partition().topic());
            block.column(2).appendLong(e.partition().partition());
            block.column(3).appendLong(e.first());
            block.column(4).appendLong(e.last());
            block.column(5).appendLong(e.nowSeconds());
            block.column(6).appendLong(now);
        }
        long deadline = System.nanoTime() + WRITE_PATIENCE.toNanos();
        long pause = 100;
        while (true) {
            try {
                client().insert(table, block, Map.of(), null);
                return;
            } catch (RuntimeException e) {
                dropClient();
                if (System.nanoTime() > deadline) {
                    throw new ConnectException(
                            "recording "
                                    + entries.size()
                                    + " batches in the batch ledger "
                                    + table
                                    + " failed for "
                                    + WRITE_PATIENCE.toSeconds()
                                    + " s; they were not sent: "
                                    + e.getMessage(),
                            e);
                }
                LOG.warn("recording batches in {} failed, trying again: {}", table, e.getMessage());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new ConnectException("interrupted while recording batches", ie);
                }
                pause = Math.min(pause * 2, 5_000);
            }
        }
    }

    private void dropDaysBefore(LocalDate cutoff) {
        int day = Integer.parseInt(cutoff.format(DateTimeFormatter.BASIC_ISO_DATE));
        String[] dbAndTable = qualified(table);
        List<List<Object>> parts =
                client().queryRows(
                                "SELECT DISTINCT partition FROM system.parts WHERE active AND"
                                        + " database = "
                                        + dbAndTable[0]
                                        + " AND table = "
                                        + quote(dbAndTable[1]));
        for (List<Object> p : parts) {
            String partition = String.valueOf(p.get(0)).replace("'", "");
            if (partition.matches("\\d{8}") && Integer.parseInt(partition) < day) {
                client().execute("ALTER TABLE " + table + " DROP PARTITION " + partition);
                LOG.info("dropped the batch ledger's day {} from {}", partition, table);
            }
        }
    }

    /** {@code [database expression, table name]} of {@code [db.]table}. */
    private static String[] qualified(String table) {
        int dot = table.indexOf('.');
        if (dot < 0) {
            return new String[] {"currentDatabase()", table};
        }
        return new String[] {quote(table.substring(0, dot)), table.substring(dot + 1)};
    }

    private ClickHouseClient client() {
        if (client == null) {
            client = ClickHouseClient.open(server);
        }
        return client;
    }

    private void dropClient() {
        if (client != null) {
            try {
                client.close();
            } catch (RuntimeException ignored) {
                // a broken connection: a new one is opened for the next attempt
            }
            client = null;
        }
    }

    /** A ClickHouse string literal. */
    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Override
    public void close() {
        dropClient();
    }
}
