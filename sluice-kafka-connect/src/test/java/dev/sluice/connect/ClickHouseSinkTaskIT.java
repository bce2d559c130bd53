package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ClickHouseSinkTask} driven directly, without a worker, into the real server: records of
 * every kind in the orders a put may hold them — runs of one partition (added column by column),
 * partitions in turn (added row by row) — with batches cut inside the runs. Whatever the order, the
 * same rows land, value by value, the same records reach the errant-record reporter, and every
 * offset is committed. The task comes from the packaged plugin's jars: the connector is kept off
 * the integration tests' class path (the worker's tests load it from its plugin directory).
 */
class ClickHouseSinkTaskIT {
    private static final String TOPIC = "events";
    private static final int PARTITIONS = 2;
    private static final int OFFSETS = 30;
    private static final Schema STRUCT =
            SchemaBuilder.struct()
                    .field("id", Schema.INT64_SCHEMA)
                    .field("name", Schema.STRING_SCHEMA)
                    .field("amount", Schema.FLOAT64_SCHEMA)
                    .field("ts", Schema.INT64_SCHEMA)
                    .field("note", Schema.STRING_SCHEMA)
                    .build();

    private static URLClassLoader plugin;

    @BeforeAll
    static void serverAndPlugin() throws IOException {
        TestServer.single("SELECT 1");
        List<URL> jars = new ArrayList<>();
        try (DirectoryStream<Path> dir =
                Files.newDirectoryStream(
                        ConnectWorker.pluginDir().resolve("sluice-kafka-connect"), "*.jar")) {
            for (Path jar : dir) {
                jars.add(jar.toUri().toURL());
            }
        }
        plugin =
                new URLClassLoader(
                        jars.toArray(new URL[0]), ClickHouseSinkTaskIT.class.getClassLoader());
    }

    @AfterAll
    static void closePlugin() throws IOException {
        plugin.close();
    }

    private static SinkTask newTask() throws ReflectiveOperationException {
        return (SinkTask)
                plugin.loadClass("dev.sluice.connect.ClickHouseSinkTask")
                        .getDeclaredConstructor()
                        .newInstance();
    }

    private static long id(int partition, long offset) {
        return partition * 1_000L + offset;
    }

    /**
     * The value of {@code offset}: mostly a plain map; at some offsets one that is not plain but
     * lands (a missing column, a null, a Struct, an Integer), or one that is refused (a value its
     * column refuses, a field without a column).
     */
    private static Object value(int partition, long offset) {
        long id = id(partition, offset);
        Map<String, Object> m = new HashMap<>();
        m.put("id", id);
        m.put("name", "name " + id);
        m.put("amount", id * 0.5);
        m.put("ts", 1_700_000_000L + id);
        m.put("note", "note " + id);
        switch ((int) offset) {
            case 5 -> m.remove("note"); // its DEFAULT
            case 9 -> m.put("ts", -5L); // refused by DateTime, inside a run of plain maps
            case 13 -> m.put("colour", "red"); // no such column: refused
            case 17 -> m.put("name", null); // the DEFAULT of a String that is not Nullable
            case 21 -> {
                return new Struct(STRUCT)
                        .put("id", id)
                        .put("name", "name " + id)
                        .put("amount", id * 0.5)
                        .put("ts", 1_700_000_000L + id)
                        .put("note", "note " + id);
            }
            case 22 -> m.put("amount", (int) id); // an Integer: plain
            default -> {}
        }
        return m;
    }

    private static boolean refused(long offset) {
        return offset == 9 || offset == 13;
    }

    private static List<Object> expectedRow(int partition, long offset) {
        long id = id(partition, offset);
        return List.of(
                id,
                offset == 17 ? "" : "name " + id,
                offset == 22 ? (double) id : id * 0.5,
                1_700_000_000L + id,
                offset == 5 ? "none" : "note " + id);
    }

    private static SinkRecord record(int partition, long offset) {
        return new SinkRecord(
                TOPIC,
                partition,
                null,
                null,
                null,
                value(partition, offset),
                offset,
                1_700_000_000_000L + offset,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME);
    }

    /** As a worker puts them: each put's records of one partition, in runs of 15. */
    private static List<List<SinkRecord>> byPartition() {
        List<List<SinkRecord>> puts = new ArrayList<>();
        for (long from = 0; from < OFFSETS; from += 15) {
            for (int p = 0; p < PARTITIONS; p++) {
                List<SinkRecord> put = new ArrayList<>();
                for (long o = from; o < from + 15; o++) {
                    put.add(record(p, o));
                }
                puts.add(put);
            }
        }
        return puts;
    }

    /** The partitions' records in turn, so no two in a row are of one batch. */
    private static List<List<SinkRecord>> interleaved() {
        List<List<SinkRecord>> puts = new ArrayList<>();
        List<SinkRecord> put = new ArrayList<>();
        for (long o = 0; o < OFFSETS; o++) {
            for (int p = 0; p < PARTITIONS; p++) {
                put.add(record(p, o));
                if (put.size() == 16) {
                    puts.add(put);
                    put = new ArrayList<>();
                }
            }
        }
        puts.add(put);
        return puts;
    }

    private static final class Reported implements ErrantRecordReporter {
        final List<String> records = new CopyOnWriteArrayList<>();

        @Override
        public Future<Void> report(SinkRecord record, Throwable error) {
            records.add(record.kafkaPartition() + "/" + record.kafkaOffset());
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void runsOfOnePartitionAndRecordsInTurnLandTheSameRowsAndReportTheSameRecords()
            throws Exception {
        List<List<Object>> expected = new ArrayList<>();
        List<String> expectedReported = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (long o = 0; o < OFFSETS; o++) {
                if (refused(o)) {
                    expectedReported.add(p + "/" + o);
                } else {
                    expected.add(expectedRow(p, o));
                }
            }
        }
        for (List<List<SinkRecord>> puts : List.of(byPartition(), interleaved())) {
            String table = TestServer.newTable("connect_task");
            TestServer.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt64, name String, amount Float64, ts DateTime,"
                            + " note String DEFAULT 'none') ENGINE = MergeTree ORDER BY id");
            Reported reported = new Reported();
            SinkTask task = newTask();
            task.initialize(new StandaloneTaskContext(reported));
            Map<String, String> props = new HashMap<>();
            props.put("clickhouse.url", TestServer.url());
            props.put("clickhouse.table", table);
            props.put("batch.max.records", "4"); // cut inside the runs
            props.put("batch.linger.ms", "50");
            props.put("errors.tolerance", "all");
            task.start(props);
            try {
                for (List<SinkRecord> put : puts) {
                    task.put(put);
                }
                awaitCommitted(task);
            } finally {
                task.stop();
            }
            List<List<Object>> rows;
            try (NativeConnection c = TestServer.connect()) {
                rows =
                        c.queryRows(
                                "SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
            }
            assertThat(rows).isEqualTo(expected);
            assertThat(reported.records).containsExactlyInAnyOrderElementsOf(expectedReported);
        }
    }

    /** Puts nothing (the worker's idle poll) until every offset of both partitions is committed. */
    private static void awaitCommitted(SinkTask task) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            task.put(List.of());
            Map<TopicPartition, OffsetAndMetadata> c = task.preCommit(Map.of());
            boolean all = true;
            for (int p = 0; p < PARTITIONS; p++) {
                OffsetAndMetadata o = c.get(new TopicPartition(TOPIC, p));
                all &= o != null && o.offset() == OFFSETS;
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("offsets not all committed in 30 s: " + c);
            }
            Thread.sleep(20);
        }
    }
}
