package dev.sluice.connect.bench;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.client.api.metadata.TableSchema;
import com.clickhouse.data.ClickHouseColumn;
import com.clickhouse.data.ClickHouseFormat;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.it.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * One run of issue 11's Connect benchmark: the same schemaless records (as Connect's JSON converter
 * hands them to a task: maps of Long, Double and String) through two task loops into the same
 * MergeTree table — Sluice's {@code ClickHouseSinkTask} ({@code put} of 500 records as {@code
 * max.poll.records} gives them, {@code preCommit} every 100 puts, until every offset is
 * acknowledged) and an equivalent loop on {@code com.clickhouse:client-v2} 0.10 (RowBinary rows
 * written with its {@code RowBinaryFormatWriter}, one synchronous {@code insert} per partition
 * batch of the same size, as ClickHouse's own Connect sink does). Prints rows/s and the process's
 * CPU seconds for each, after a warm-up round of each; the landed rows are counted.
 *
 * <p>Not a test: run by hand (docs/connect.md, "Benchmark") with the server of {@code
 * scripts/clickhouse}.
 */
public final class ConnectSinkBench {
    private static final int PARTITIONS = 4;
    private static final int BATCH = 100_000;
    private static final int POLL = 500;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        String arm = args.length > 1 ? args[1] : "both";
        if (n % (PARTITIONS * BATCH) != 0) {
            // every batch of both loops is then sealed by size, none by time
            throw new IllegalArgumentException(
                    "the record count must be a multiple of " + PARTITIONS * BATCH + ": " + n);
        }
        List<SinkRecord> records = records("bench", n);
        List<SinkRecord> warmUp = records("bench", PARTITIONS * BATCH);
        for (String a : arm.equals("both") ? List.of("sluice", "client-v2") : List.of(arm)) {
            run(a, warmUp, false);
            run(a, records, true);
        }
    }

    private static void run(String arm, List<SinkRecord> records, boolean report) throws Exception {
        String table = TestServer.newTable("connect_bench");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, name String, amount Float64, ts DateTime, note String)"
                        + " ENGINE = MergeTree ORDER BY id");
        System.gc();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        if (arm.equals("sluice")) {
            sluice(table, records);
        } else {
            clientV2(table, records);
        }
        long wall = System.nanoTime() - t0;
        long cpu = processCpuNanos() - cpu0;
        long landed = TestServer.single("SELECT count() FROM " + table);
        if (landed != records.size()) {
            throw new IllegalStateException(arm + " landed " + landed + " of " + records.size());
        }
        if (report) {
            System.out.printf(
                    "%-10s rows=%d wall=%.2fs rows/s=%.0f client-cpu=%.2fs cpu-per-Mrow=%.2fs%n",
                    arm,
                    records.size(),
                    wall / 1e9,
                    records.size() / (wall / 1e9),
                    cpu / 1e9,
                    cpu / 1e9 / (records.size() / 1e6));
        }
        TestServer.execute("DROP TABLE " + table);
    }

    private static List<SinkRecord> records(String topic, int n) {
        List<SinkRecord> out = new ArrayList<>(n);
        long[] offsets = new long[PARTITIONS];
        for (int i = 0; i < n; i++) {
            int p = i % PARTITIONS;
            Map<String, Object> v = new HashMap<>();
            v.put("id", (long) i);
            v.put("name", "user-" + (i % 10_000));
            v.put("amount", i * 0.25);
            v.put("ts", 1_700_000_000L + i / 100);
            v.put("note", "note number " + (i % 977) + " of the benchmark's records");
            out.add(
                    new SinkRecord(
                            topic,
                            p,
                            null,
                            null,
                            null,
                            v,
                            offsets[p]++,
                            1_700_000_000_000L,
                            org.apache.kafka.common.record.TimestampType.CREATE_TIME));
        }
        return out;
    }

    // ---- Sluice: the connector's own task ----

    private static void sluice(String table, List<SinkRecord> records) throws Exception {
        SinkTask task =
                (SinkTask)
                        Class.forName("dev.sluice.connect.ClickHouseSinkTask")
                                .getDeclaredConstructor()
                                .newInstance();
        task.initialize(new Context());
        Map<String, String> props = new HashMap<>();
        props.put("clickhouse.url", TestServer.url());
        props.put("clickhouse.table", table);
        props.put("batch.max.records", Integer.toString(BATCH));
        props.put("batch.linger.ms", "600000"); // batches sealed by size, as in the other loop
        task.start(props);
        Map<TopicPartition, Long> end = new HashMap<>();
        int puts = 0;
        for (int i = 0; i < records.size(); i += POLL) {
            List<SinkRecord> poll = records.subList(i, Math.min(records.size(), i + POLL));
            task.put(poll);
            for (SinkRecord r : poll) {
                end.put(new TopicPartition(r.topic(), r.kafkaPartition()), r.kafkaOffset() + 1);
            }
            if (++puts % 100 == 0) {
                task.preCommit(Map.of());
            }
        }
        while (true) {
            task.put(List.of()); // Connect's idle poll: lingered batches are sealed
            Map<TopicPartition, OffsetAndMetadata> c = task.preCommit(Map.of());
            boolean done = true;
            for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                OffsetAndMetadata o = c.get(e.getKey());
                done &= o != null && o.offset() == e.getValue();
            }
            if (done) {
                break;
            }
            Thread.sleep(20);
        }
        task.stop();
    }

    /** What a worker gives a task; the benchmark needs none of it. */
    private static final class Context implements SinkTaskContext {
        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {}

        @Override
        public void offset(TopicPartition tp, long offset) {}

        @Override
        public void timeout(long timeoutMs) {}

        @Override
        public Set<TopicPartition> assignment() {
            return Set.of();
        }

        @Override
        public void pause(TopicPartition... partitions) {}

        @Override
        public void resume(TopicPartition... partitions) {}

        @Override
        public void requestCommit() {}

        @Override
        public ErrantRecordReporter errantRecordReporter() {
            return null;
        }

        @Override
        public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
            throw new UnsupportedOperationException("no plugin metrics in the benchmark");
        }
    }

    // ---- client-v2: the equivalent loop ----

    private static void clientV2(String table, List<SinkRecord> records) throws Exception {
        ConnectionConfig c = TestServer.config();
        String http = TestServer.env("CLICKHOUSE_HTTP_URL");
        ConnectionConfig h = ConnectionConfig.parse(http);
        try (Client client =
                new Client.Builder()
                        .addEndpoint("http://" + h.host() + ":" + h.port())
                        .setUsername(c.user())
                        .setPassword("")
                        .setDefaultDatabase(TestServer.DATABASE)
                        .compressServerResponse(false) // 18.16 answers compressed requests empty
                        .build()) {
            // 18.16 ignores the database header client-v2 sends: the schema of a qualified query
            TableSchema schema = client.getTableSchemaFromQuery("SELECT * FROM " + table);
            List<ClickHouseColumn> columns = schema.getColumns();
            Map<TopicPartition, PartitionBuffer> buffers = new LinkedHashMap<>();
            for (int i = 0; i < records.size(); i += POLL) {
                put(
                        client,
                        table,
                        schema,
                        columns,
                        buffers,
                        records.subList(i, Math.min(records.size(), i + POLL)));
            }
            for (PartitionBuffer b : buffers.values()) {
                b.insert(client, table);
            }
        }
    }

    private static void put(
            Client client,
            String table,
            TableSchema schema,
            List<ClickHouseColumn> columns,
            Map<TopicPartition, PartitionBuffer> buffers,
            Collection<SinkRecord> poll)
            throws Exception {
        for (SinkRecord r : poll) {
            PartitionBuffer b =
                    buffers.computeIfAbsent(
                            new TopicPartition(r.topic(), r.kafkaPartition()),
                            tp -> new PartitionBuffer(schema));
            @SuppressWarnings("unchecked")
            Map<String, Object> v = (Map<String, Object>) r.value();
            for (ClickHouseColumn col : columns) {
                Object value = v.get(col.getColumnName());
                if (col.getDataType() == com.clickhouse.data.ClickHouseDataType.DateTime
                        && value instanceof Long s) {
                    value = LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC);
                }
                b.writer.setValue(col.getColumnName(), value);
            }
            b.writer.commitRow();
            if (++b.rows >= BATCH) {
                b.insert(client, table);
            }
        }
    }

    private static final class PartitionBuffer {
        final TableSchema schema;
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
        RowBinaryFormatWriter writer;
        int rows;

        PartitionBuffer(TableSchema schema) {
            this.schema = schema;
            this.writer = new RowBinaryFormatWriter(out, schema, ClickHouseFormat.RowBinary);
        }

        void insert(Client client, String table) throws Exception {
            if (rows == 0) {
                return;
            }
            client.insert(
                            table,
                            new ByteArrayInputStream(out.toByteArray()),
                            ClickHouseFormat.RowBinary)
                    .get(5, TimeUnit.MINUTES)
                    .close();
            out = new ByteArrayOutputStream(1 << 20);
            writer = new RowBinaryFormatWriter(out, schema, ClickHouseFormat.RowBinary);
            rows = 0;
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private ConnectSinkBench() {}
}
