package dev.sluice.connect.bench;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.client.api.metadata.TableSchema;
import com.clickhouse.data.ClickHouseColumn;
import com.clickhouse.data.ClickHouseFormat;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.connect.StandaloneTaskContext;
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
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * One run of issue 11's Connect benchmark: the same schemaless records (as Connect's JSON converter
 * hands them to a task: maps of Long, Double and String) through two task loops into the same
 * MergeTree table — Sluice's {@code ClickHouseSinkTask} ({@code put} of 500 records as {@code
 * max.poll.records} gives them, each put's of one partition as a consumer's poll hands them over —
 * or, option {@code interleaved}, from the partitions in turn —, {@code preCommit} every 100 puts,
 * until every offset is acknowledged) and an equivalent loop on {@code com.clickhouse:client-v2}
 * 0.10 (RowBinary rows written with its {@code RowBinaryFormatWriter}, one synchronous {@code
 * insert} per partition batch of the same size, as ClickHouse's own Connect sink does). After two
 * warm-up rounds of each, the arms take turns for a number of rounds (default 3); each run prints
 * rows/s, the process's CPU seconds, the loop thread's own CPU and the collector's time, and the
 * medians and their ratios close; the landed rows are counted.
 *
 * <p>Not a test: run by hand (docs/connect.md, "Benchmark") with the server of {@code
 * scripts/clickhouse}.
 */
public final class ConnectSinkBench {
    private static final int PARTITIONS = 4;
    private static final int BATCH = 100_000;
    private static final int POLL = 500;
    private static final int WARM_UP_ROUNDS = 2;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        String arm = args.length > 1 ? args[1] : "both";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (n % (PARTITIONS * BATCH) != 0) {
            // every batch of both loops is then sealed by size, none by time
            throw new IllegalArgumentException(
                    "the record count must be a multiple of " + PARTITIONS * BATCH + ": " + n);
        }
        // "shared": the records share 1,000 values, which then stay in the cache — what the loops
        // cost besides waiting for memory (docs/connect.md); "distinct" (default): as on a worker
        List<String> options = List.of(args).subList(Math.min(3, args.length), args.length);
        boolean shared = options.contains("shared");
        // "interleaved": consecutive records of a put in turn from each partition (the order of
        // earlier runs); default: a put's records in runs of one partition, as a worker hands them
        // over (a consumer's poll gives its records partition by partition, ConsumerRecords'
        // iteration order, and the worker puts them in that order)
        boolean interleaved = options.contains("interleaved");
        List<SinkRecord> records = records("bench", n, shared, interleaved);
        List<String> arms =
                switch (arm) {
                    case "both" -> List.of("sluice", "client-v2");
                    case "all" -> List.of("sluice", "client-v2", "read-only");
                    default -> List.of(arm);
                };
        // Warm-up: two rounds of each arm over the same records, taking turns. With one round of a
        // fifth of them, the compiler was still at work in the first measured rounds (process CPU
        // up to 2 s above the loop thread's, both arms up to 3x their later figures).
        for (int r = 0; r < WARM_UP_ROUNDS; r++) {
            for (String a : arms) {
                System.out.println("warm-up " + run(a, records));
            }
        }
        // the arms take turns, so that both meet the machine's load and the collector's cycles
        // over the records' heap alike; the median of each arm is the figure
        Map<String, List<Result>> results = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (String a : arms) {
                Result x = run(a, records);
                System.out.println(x);
                results.computeIfAbsent(a, k -> new ArrayList<>()).add(x);
            }
        }
        for (Map.Entry<String, List<Result>> e : results.entrySet()) {
            System.out.printf(
                    "median %-10s rows/s=%.0f client-cpu=%.2fs%n",
                    e.getKey(),
                    median(e.getValue(), Result::rowsPerSecond),
                    median(e.getValue(), Result::cpuSeconds));
        }
        List<Result> s = results.get("sluice");
        List<Result> c = results.get("client-v2");
        if (s != null && c != null) {
            System.out.printf(
                    "sluice / client-v2: rows/s %.2fx, client CPU %.2fx%n",
                    median(s, Result::rowsPerSecond) / median(c, Result::rowsPerSecond),
                    median(s, Result::cpuSeconds) / median(c, Result::cpuSeconds));
        }
    }

    /**
     * One measured run: wall time, the process's CPU, the loop thread's own CPU, and the time the
     * collector spent (pauses, and concurrent cycles).
     */
    private record Result(
            String arm,
            int rows,
            double wallSeconds,
            double cpuSeconds,
            double loopCpuSeconds,
            double gcPauseSeconds,
            double gcConcurrentSeconds) {
        double rowsPerSecond() {
            return rows / wallSeconds;
        }

        @Override
        public String toString() {
            return String.format(
                    "%-10s rows=%d wall=%.2fs rows/s=%.0f client-cpu=%.2fs cpu-per-Mrow=%.2fs"
                            + " loop-thread-cpu=%.2fs gc-pauses=%.2fs gc-concurrent=%.2fs",
                    arm,
                    rows,
                    wallSeconds,
                    rowsPerSecond(),
                    cpuSeconds,
                    cpuSeconds / (rows / 1e6),
                    loopCpuSeconds,
                    gcPauseSeconds,
                    gcConcurrentSeconds);
        }
    }

    private static double median(
            List<Result> rs, java.util.function.ToDoubleFunction<Result> value) {
        double[] v = rs.stream().mapToDouble(value).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static Result run(String arm, List<SinkRecord> records) throws Exception {
        String table = TestServer.newTable("connect_bench");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, name String, amount Float64, ts DateTime, note String)"
                        + " ENGINE = MergeTree ORDER BY id");
        // where each partition ends: known before the clock starts, so that the loop's own
        // bookkeeping is not counted as the task's
        Map<TopicPartition, Long> end = new HashMap<>();
        for (SinkRecord r : records) {
            end.merge(
                    new TopicPartition(r.topic(), r.kafkaPartition()),
                    r.kafkaOffset() + 1,
                    Math::max);
        }
        System.gc();
        long[] gc0 = gcMillis();
        long loop0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        switch (arm) {
            case "sluice" -> sluice(table, records, end);
            case "client-v2" -> clientV2(table, records);
            case "read-only" -> readOnly(table, records);
            default -> throw new IllegalArgumentException("no arm " + arm);
        }
        long wall = System.nanoTime() - t0;
        long cpu = processCpuNanos() - cpu0;
        long loop = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - loop0;
        long[] gc1 = gcMillis();
        long landed = TestServer.single("SELECT count() FROM " + table);
        if (landed != records.size()) {
            throw new IllegalStateException(arm + " landed " + landed + " of " + records.size());
        }
        TestServer.execute("DROP TABLE " + table);
        return new Result(
                arm,
                records.size(),
                wall / 1e9,
                cpu / 1e9,
                loop / 1e9,
                (gc1[0] - gc0[0]) / 1e3,
                (gc1[1] - gc0[1]) / 1e3);
    }

    /** Milliseconds the collector spent so far: {pauses, concurrent cycles}. */
    private static long[] gcMillis() {
        long pauses = 0;
        long concurrent = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long t = Math.max(0, gc.getCollectionTime());
            if (gc.getName().contains("Concurrent")) {
                concurrent += t; // G1's "G1 Concurrent GC": its cycles, beside the application
            } else {
                pauses += t;
            }
        }
        return new long[] {pauses, concurrent};
    }

    private static List<SinkRecord> records(
            String topic, int n, boolean shared, boolean interleaved) {
        List<SinkRecord> out = new ArrayList<>(n);
        long[] offsets = new long[PARTITIONS];
        for (int i = 0; i < n; i++) {
            int p = interleaved ? i % PARTITIONS : i / POLL % PARTITIONS; // a put: one partition
            Object v = shared && i >= 1_000 ? out.get(i % 1_000).value() : value(i);
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

    private static Map<String, Object> value(int i) {
        Map<String, Object> v = new HashMap<>();
        v.put("id", (long) i);
        v.put("name", "user-" + (i % 10_000));
        v.put("amount", i * 0.25);
        v.put("ts", 1_700_000_000L + i / 100);
        v.put("note", "note number " + (i % 977) + " of the benchmark's records");
        return v;
    }

    // ---- the floor: reading the records' values, as both loops do, and writing nothing ----

    /**
     * Reads each record's five values as both loops must (a look-up per column, the text of the
     * strings), then inserts the row count the others would have landed, for the same check. What
     * it costs is what neither loop can avoid with these records.
     */
    private static void readOnly(String table, List<SinkRecord> records) {
        List<String> columns = List.of("id", "name", "amount", "ts", "note");
        long sum = 0;
        for (SinkRecord r : records) {
            Map<?, ?> v = (Map<?, ?>) r.value();
            for (String c : columns) {
                Object x = v.get(c);
                sum += x instanceof String t ? t.charAt(t.length() - 1) : x.hashCode();
            }
        }
        TestServer.execute(
                "INSERT INTO "
                        + table
                        + " (id) SELECT number FROM system.numbers LIMIT "
                        + records.size()
                        + " -- "
                        + sum);
    }

    // ---- Sluice: the connector's own task ----

    private static void sluice(
            String table, List<SinkRecord> records, Map<TopicPartition, Long> end)
            throws Exception {
        SinkTask task =
                (SinkTask)
                        Class.forName("dev.sluice.connect.ClickHouseSinkTask")
                                .getDeclaredConstructor()
                                .newInstance();
        task.initialize(new StandaloneTaskContext(null));
        Map<String, String> props = new HashMap<>();
        props.put("clickhouse.url", TestServer.url());
        props.put("clickhouse.table", table);
        props.put("batch.max.records", Integer.toString(BATCH));
        props.put("batch.linger.ms", "600000"); // batches sealed by size, as in the other loop
        task.start(props);
        int puts = 0;
        for (int i = 0; i < records.size(); i += POLL) {
            task.put(records.subList(i, Math.min(records.size(), i + POLL)));
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
