package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.kafka.it.TestKafka;
import dev.sluice.kafka.it.TestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sluice's sink in a real Connect worker (standalone, in this JVM, the connector loaded from the
 * packaged plugin in its own class loader) with the real broker and the real ClickHouse: records
 * land value by value, schemaless and with schemas; a task that fails on a refused batch and a
 * worker that is stopped mid-stream lose nothing (offsets are committed only after ClickHouse
 * acknowledged); bad records reach the dead-letter topic and the good ones the table.
 */
@Timeout(600)
class ClickHouseSinkIT {
    private static final String COLUMNS =
            "(id UInt64, name String, amount Float64, ts DateTime, note String DEFAULT 'none')";

    @BeforeAll
    static void servers() {
        TestKafka.require();
        TestServer.single("SELECT 1");
    }

    private static String table(String prefix) {
        String t = TestServer.newTable(prefix);
        TestServer.execute("CREATE TABLE " + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id");
        return t;
    }

    /** Record {@code i} as schemaless JSON: every 4th has no note (the column's DEFAULT). */
    private static String json(long i) {
        return "{\"id\":"
                + i
                + ",\"name\":\"name-"
                + i
                + "\",\"amount\":"
                + (i * 0.5)
                + ",\"ts\":"
                + (1_700_000_000L + i)
                + (i % 4 == 0 ? "" : ",\"note\":\"note \\\"" + i + "\\\"\"")
                + "}";
    }

    private static List<Object> expected(long i) {
        return List.of(
                i,
                "name-" + i,
                i * 0.5,
                1_700_000_000L + i,
                i % 4 == 0 ? "none" : "note \"" + i + "\"");
    }

    private static Map<String, String> config(String topic, String table) {
        Map<String, String> c = new HashMap<>();
        c.put("topics", topic);
        c.put("tasks.max", "1");
        c.put("clickhouse.url", TestServer.url());
        c.put("topic.table.map", topic + "=" + table);
        c.put("batch.max.records", "250");
        c.put("batch.linger.ms", "200");
        return c;
    }

    private static List<List<Object>> rows(String table) {
        try (NativeConnection c = TestServer.connect()) {
            return c.queryRows("SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
        }
    }

    private static String group(String connector) {
        return "connect-" + connector;
    }

    /** Waits until the connector's group committed every record of {@code topic}. */
    private static void awaitCommitted(String connector, String topic, ConnectWorker w)
            throws InterruptedException {
        Map<TopicPartition, Long> end = TestKafka.endOffsets(topic);
        await(
                "offsets of " + topic + " committed up to " + end,
                () -> {
                    failIfTaskFailed(w, connector);
                    Map<TopicPartition, OffsetAndMetadata> c =
                            TestKafka.committedOffsets(group(connector));
                    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                        OffsetAndMetadata o = c.get(e.getKey());
                        if (e.getValue() > 0 && (o == null || o.offset() < e.getValue())) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    private static void failIfTaskFailed(ConnectWorker w, String connector) {
        if (w == null) {
            return;
        }
        for (ConnectorStateInfo.TaskState t : w.tasks(connector)) {
            assertThat(t.state()).as("task %d: %s", t.id(), t.trace()).isNotEqualTo("FAILED");
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    @Test
    void theConnectorLoadsFromItsPluginInAnIsolatedClassLoader() throws Exception {
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            assertThatThrownBy(() -> Class.forName(ConnectWorker.CONNECTOR))
                    .as("the connector is not on the test's class path")
                    .isInstanceOf(ClassNotFoundException.class);
            ClassLoader loader = w.connectorLoader();
            assertThat(loader.getClass().getName())
                    .isEqualTo("org.apache.kafka.connect.runtime.isolation.PluginClassLoader");
            assertThat(loader.getResource("dev/sluice/pipeline/writer/ClickHouseWriter.class"))
                    .as("the writer comes from the plugin directory")
                    .isNotNull()
                    .satisfies(u -> assertThat(u.toString()).contains("sluice-kafka-connect/"));
        }
    }

    @Test
    void schemalessJsonRecordsLandValueByValueAndTheirOffsetsAreCommitted() throws Exception {
        String topic = TestKafka.newTopic("connect_json", 3);
        String table = table("connect_json");
        int n = 3_000;
        TestKafka.produce(topic, n, i -> TestRecord.of("k" + i, json(i)).withPartition(i % 3));
        // and a name with a lone UTF-16 surrogate: stored as the writer converts it ('?')
        TestKafka.produce(
                topic,
                1,
                i ->
                        TestRecord.value(
                                        "{\"id\":"
                                                + n
                                                + ",\"name\":\"\\ud800-x \u00e9\u4e2d\",\"amount\":1.5,"
                                                + "\"ts\":1700000000}")
                                .withPartition(0));
        String name = "json-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("tasks.max", "2"); // two tasks share the three partitions
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            await("two tasks running", () -> w.tasks(name).size() == 2);
            awaitCommitted(name, topic, w);
        }
        List<List<Object>> rows = rows(table);
        assertThat(rows).hasSize(n + 1);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
        assertThat(rows.get(n))
                .isEqualTo(List.of((long) n, "?-x \u00e9\u4e2d", 1.5, 1_700_000_000L, "none"));
    }

    @Test
    void structRecordsWithSchemasLandValueByValue() throws Exception {
        String topic = TestKafka.newTopic("connect_struct", 1);
        String table = table("connect_struct");
        int n = 500;
        TestKafka.produce(topic, n, i -> TestRecord.value(withSchema(i)));
        String name = "struct-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        c.put("value.converter.schemas.enable", "true");
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }
        List<List<Object>> rows = rows(table);
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
    }

    /** Record {@code i} as a Struct in JSON with its schema; ts a Connect Timestamp. */
    private static String withSchema(long i) {
        String schema =
                "{\"type\":\"struct\",\"fields\":["
                        + "{\"field\":\"id\",\"type\":\"int64\"},"
                        + "{\"field\":\"name\",\"type\":\"string\"},"
                        + "{\"field\":\"amount\",\"type\":\"double\"},"
                        + "{\"field\":\"ts\",\"type\":\"int64\",\"name\":"
                        + "\"org.apache.kafka.connect.data.Timestamp\",\"version\":1},"
                        + "{\"field\":\"note\",\"type\":\"string\",\"optional\":true}]}";
        String payload =
                "{\"id\":"
                        + i
                        + ",\"name\":\"name-"
                        + i
                        + "\",\"amount\":"
                        + (i * 0.5)
                        + ",\"ts\":"
                        + (1_700_000_000L + i) * 1000
                        + ",\"note\":"
                        + (i % 4 == 0 ? "null" : "\"note \\\"" + i + "\\\"\"")
                        + "}";
        return "{\"schema\":" + schema + ",\"payload\":" + payload + "}";
    }

    @Test
    void aRefusedBatchFailsTheTaskWithoutCommittingAndARestartWritesEverything() throws Exception {
        String topic = TestKafka.newTopic("connect_refused", 2);
        String table = table("connect_refused");
        int n = 2_000;
        TestKafka.produce(topic, n / 2, i -> TestRecord.value(json(i)).withPartition(i % 2));
        String name = "refused-" + System.nanoTime();
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, config(topic, table));
            awaitCommitted(name, topic, w);
            Map<TopicPartition, OffsetAndMetadata> before = TestKafka.committedOffsets(group(name));
            // the table goes away: the next batches are refused ("doesn't exist"), not retried
            TestServer.execute("DETACH TABLE " + table);
            TestKafka.produce(
                    topic, n / 2, i -> TestRecord.value(json(n / 2 + i)).withPartition(i % 2));
            await(
                    "the task to fail",
                    () -> w.tasks(name).stream().anyMatch(t -> t.state().equals("FAILED")));
            assertThat(w.tasks(name).get(0).trace()).contains("doesn't exist");
            assertThat(TestKafka.committedOffsets(group(name)))
                    .as("nothing refused is committed")
                    .isEqualTo(before);
            TestServer.execute("ATTACH TABLE " + table);
            w.restartTask(name, 0);
            awaitCommitted(name, topic, w);
        }
        List<List<Object>> rows = rows(table);
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
    }

    @Test
    void aWorkerStoppedMidStreamAndStartedAgainLosesNothing() throws Exception {
        String topic = TestKafka.newTopic("connect_restart", 3);
        String table = table("connect_restart");
        int n = 30_000;
        String name = "restart-" + System.nanoTime();
        Path offsets = ConnectWorker.tempOffsets();
        Map<String, String> c = config(topic, table);
        c.put("batch.max.records", "500");
        try (ConnectWorker w = ConnectWorker.start(offsets)) {
            w.putConnector(name, c);
            TestKafka.produce(topic, n / 2, i -> TestRecord.value(json(i)).withPartition(i % 3));
            await("some rows", () -> TestServer.single("SELECT count() FROM " + table) > 0);
        } // stopped while records are still arriving and being written
        TestKafka.produce(
                topic, n / 2, i -> TestRecord.value(json(n / 2 + i)).withPartition(i % 3));
        try (ConnectWorker w = ConnectWorker.start(offsets)) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }
        // At least once: every record's row is there, with its values; a batch written before
        // the stop and not yet committed may be written again.
        Set<Long> ids = new HashSet<>();
        for (List<Object> row : rows(table)) {
            long id = (Long) row.get(0);
            assertThat(row).as("row %d", id).isEqualTo(expected(id));
            ids.add(id);
        }
        Set<Long> all = new HashSet<>();
        for (long i = 0; i < n; i++) {
            all.add(i);
        }
        assertThat(ids).isEqualTo(all);
    }

    @Test
    void aReplayOfBatchesSealedBySizeIsDroppedByAReplicatedTable() throws Exception {
        TestCluster.require();
        String topic = TestKafka.newTopic("connect_replay", 2);
        String table = TestCluster.newTable("connect_replay");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + table
                        + " "
                        + COLUMNS
                        + " "
                        + TestCluster.replicatedEngine(table, "id"));
        int n = 4_000; // 2,000 per partition: four batches of 500 each, all sealed by size
        TestKafka.produce(topic, n, i -> TestRecord.value(json(i)).withPartition(i % 2));
        String name = "replay-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("clickhouse.url", TestCluster.url(1));
        c.put("batch.max.records", "500");
        c.put("batch.linger.ms", "600000");
        long duplicates0 = event("DuplicatedInsertedBlocks");
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }
        assertThat(TestCluster.single(1, "SELECT count() FROM " + table)).isEqualTo(n);
        long duplicates1 = event("DuplicatedInsertedBlocks");
        // Back to the start, as after a crash before any commit: every batch is sent again.
        Map<TopicPartition, OffsetAndMetadata> zero = new HashMap<>();
        for (TopicPartition tp : TestKafka.endOffsets(topic).keySet()) {
            zero.put(tp, new OffsetAndMetadata(0));
        }
        try (Admin admin = TestKafka.admin()) {
            admin.alterConsumerGroupOffsets(group(name), zero).all().get(60, TimeUnit.SECONDS);
        }
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }
        long duplicates2 = event("DuplicatedInsertedBlocks");
        assertThat(duplicates1 - duplicates0).as("duplicate blocks the first time").isZero();
        assertThat(duplicates2 - duplicates1)
                .as("every batch of the replay came again, block for block, and was dropped")
                .isEqualTo(8);
        List<List<Object>> rows;
        try (NativeConnection conn = TestCluster.connect(1)) {
            rows =
                    conn.queryRows(
                            "SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
        }
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
    }

    @Test
    void aWorkerKilledMidStreamReplaysItsLingerSealedBatchesExactlyAndTheTableKeepsEachRowOnce()
            throws Exception {
        TestCluster.require();
        String topic = TestKafka.newTopic("connect_linger", 2);
        String table = TestCluster.newTable("connect_linger");
        String ledger = TestCluster.newTable("connect_ledger");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + table
                        + " "
                        + COLUMNS
                        + " "
                        + TestCluster.replicatedEngine(table, "id"));
        String name = "linger-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("clickhouse.url", TestCluster.url(1));
        c.put("batch.max.records", "100000"); // every batch is sealed by linger
        c.put("batch.linger.ms", "150");
        c.put("batch.ledger.table", ledger);
        Path dir = Path.of("target", "connect-linger-" + System.nanoTime());
        int rounds = 60;
        int perRound = 100;
        int n = rounds * perRound;
        AtomicInteger produced = new AtomicInteger();
        Thread producer =
                new Thread(
                        () -> {
                            for (int k = 1; k < rounds; k++) {
                                int base = k * perRound;
                                TestKafka.produce(
                                        topic,
                                        perRound,
                                        i ->
                                                TestRecord.value(json(base + i))
                                                        .withPartition((base + i) % 2));
                                produced.addAndGet(perRound);
                                try {
                                    Thread.sleep(100);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "producer");
        // Offsets committed every 4 s: a kill leaves many written batches uncommitted.
        ConnectWorkerProcess first = ConnectWorkerProcess.start(dir, name, c, 4_000);
        try {
            TestKafka.produce(topic, perRound, i -> TestRecord.value(json(i)).withPartition(i % 2));
            produced.addAndGet(perRound);
            await("the first rows", () -> alive(first) && count(table) > 0);
            producer.start(); // records keep arriving while the worker runs, dies, restarts
            await(
                    "a third of the rows, a commit, and rows written since",
                    () -> {
                        long committed = committed(name);
                        long rows = count(table);
                        return alive(first)
                                && rows >= n / 3
                                && committed > 0
                                && rows - committed >= 300;
                    });
        } finally {
            first.kill();
        }
        long rowsAtKill = count(table);
        long committedAtKill = committed(name);
        assertThat(rowsAtKill)
                .as("rows written but not committed when the worker died: the replay sends them")
                .isGreaterThan(committedAtKill);
        long duplicates0 = event("DuplicatedInsertedBlocks");
        try (ConnectWorkerProcess second = ConnectWorkerProcess.start(dir, name, c, 500)) {
            producer.join();
            assertThat(produced.get()).isEqualTo(n);
            await("every offset committed", () -> alive(second) && committed(name) == n);
        }
        long duplicates1 = event("DuplicatedInsertedBlocks");
        assertThat(duplicates1 - duplicates0)
                .as("the replayed batches came again block for block and were dropped")
                .isPositive();
        List<List<Object>> rows;
        try (NativeConnection conn = TestCluster.connect(1)) {
            rows =
                    conn.queryRows(
                            "SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
        }
        assertThat(rows).as("each row once").hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
        // every batch was sealed by linger, and recorded before it was sent
        List<List<Object>> entries =
                TestCluster.query(
                        1,
                        "SELECT partition, count(), max(last - first + 1) FROM "
                                + ledger
                                + " WHERE topic = '"
                                + topic
                                + "' GROUP BY partition ORDER BY partition");
        assertThat(entries).hasSize(2);
        for (List<Object> e : entries) {
            assertThat(((Number) e.get(1)).longValue()).isGreaterThan(3);
            assertThat(((Number) e.get(2)).longValue()).isLessThan(n / 2);
        }
    }

    private static long count(String clusterTable) {
        return TestCluster.single(1, "SELECT count() FROM " + clusterTable);
    }

    /** True while the worker runs; fails with the end of its log once it does not. */
    private static boolean alive(ConnectWorkerProcess w) {
        try {
            w.checkAlive();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return true;
    }

    /** Offsets the connector's group committed, summed over the partitions. */
    private static long committed(String connector) {
        long sum = 0;
        for (OffsetAndMetadata o : TestKafka.committedOffsets(group(connector)).values()) {
            sum += o.offset();
        }
        return sum;
    }

    /** Server 1's count of {@code system.events} event {@code name} (0 before it happens). */
    private static long event(String name) {
        return TestCluster.single(
                1, "SELECT toUInt64(sum(value)) FROM system.events WHERE event = '" + name + "'");
    }

    @Test
    void badRecordsReachTheDeadLetterTopicAndTheGoodOnesTheTable() throws Exception {
        String topic = TestKafka.newTopic("connect_bad", 1);
        String dlq = TestKafka.newTopic("connect_bad_dlq", 1);
        String table = table("connect_bad");
        int n = 1_000;
        // every 10th record is bad, in a different way each time; the last kind has every
        // column and a value of a plain type (a run of such records is added column by column)
        // that its column refuses
        TestKafka.produce(
                topic,
                n,
                i ->
                        TestRecord.value(
                                switch (i % 10 == 0 ? (i / 10) % 5 : -1) {
                                    case 0 -> "{\"id\":\"not a number\",\"name\":\"x\"}";
                                    case 1 -> "{\"id\":" + i + ",\"colour\":\"red\"}";
                                    case 2 -> "[1,2,3]";
                                    case 3 -> "{not json";
                                    case 4 -> json(i + 1).replace("\"ts\":", "\"ts\":-");
                                    default -> json(i);
                                }));
        String name = "bad-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("errors.tolerance", "all");
        c.put("errors.deadletterqueue.topic.name", dlq);
        c.put("errors.deadletterqueue.topic.replication.factor", "1");
        c.put("errors.deadletterqueue.context.headers.enable", "true");
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }
        List<List<Object>> rows = rows(table);
        List<Long> good = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            if (i % 10 != 0) {
                good.add(i);
            }
        }
        assertThat(rows).hasSize(good.size());
        for (int k = 0; k < good.size(); k++) {
            assertThat(rows.get(k)).isEqualTo(expected(good.get(k)));
        }
        List<Long> dead = deadLetterOffsets(dlq, n / 10);
        List<Long> bad = new ArrayList<>();
        for (long i = 0; i < n; i += 10) {
            bad.add(i);
        }
        assertThat(dead).isEqualTo(bad);
    }

    /** A table with COLUMNS and a code the server parses: {@code code_n} refuses a bad one. */
    private static String parsingTable(String prefix) {
        String t = TestServer.newTable(prefix);
        TestServer.execute(
                "CREATE TABLE "
                        + t
                        + " "
                        + COLUMNS.substring(0, COLUMNS.length() - 1)
                        + ", code String, code_n UInt32 MATERIALIZED toUInt32(code))"
                        + " ENGINE = MergeTree ORDER BY id");
        return t;
    }

    /** Record {@code i} with a code: a number but for {@code refused} ones ("x" + i). */
    private static String withCode(long i, boolean refused) {
        String j = json(i);
        return j.substring(0, j.length() - 1)
                + ",\"code\":\""
                + (refused ? "x" + i : Long.toString(i * 3))
                + "\"}";
    }

    @Test
    void rowsTheServerRefusesReachTheDeadLetterTopicOneByOneAndTheRestOfTheirBatchLandsOnce()
            throws Exception {
        String topic = TestKafka.newTopic("connect_refuse", 2);
        String dlq = TestKafka.newTopic("connect_refuse_dlq", 1);
        String table = parsingTable("connect_refuse");
        int n = 2_000;
        // In each batch of 250: rows the server refuses (code_n cannot parse "x..."), records that
        // cannot become a row (an id that is no number), and good ones.
        Set<Long> refused = new HashSet<>();
        Set<Long> unconvertible = new HashSet<>();
        for (long i = 0; i < n; i++) {
            if (i % 7 == 3) {
                refused.add(i);
            } else if (i % 11 == 5) {
                unconvertible.add(i);
            }
        }
        TestKafka.produce(
                topic,
                n,
                i ->
                        TestRecord.value(
                                        unconvertible.contains((long) i)
                                                ? "{\"id\":\"id " + i + "\",\"name\":\"x\"}"
                                                : withCode(i, refused.contains((long) i)))
                                .withPartition(i % 2));
        String name = "refuse-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("errors.tolerance", "all");
        c.put("errors.deadletterqueue.topic.name", dlq);
        c.put("errors.deadletterqueue.topic.replication.factor", "1");
        c.put("errors.deadletterqueue.context.headers.enable", "true");
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            awaitCommitted(name, topic, w);
        }

        List<Long> good = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            if (!refused.contains(i) && !unconvertible.contains(i)) {
                good.add(i);
            }
        }
        List<List<Object>> rows;
        try (NativeConnection conn = TestServer.connect()) {
            rows =
                    conn.queryRows(
                            "SELECT id, name, amount, ts, note, code, code_n FROM "
                                    + table
                                    + " ORDER BY id");
        }
        assertThat(rows).as("every good row once, and nothing else").hasSize(good.size());
        for (int k = 0; k < good.size(); k++) {
            long i = good.get(k);
            List<Object> want = new ArrayList<>(expected(i));
            want.add(Long.toString(i * 3));
            want.add(i * 3);
            assertThat(rows.get(k)).as("row %d", i).isEqualTo(want);
        }

        Map<Long, DeadLetter> dead = deadLetters(dlq, refused.size() + unconvertible.size(), 2);
        assertThat(dead.keySet())
                .as("exactly the bad records, each once")
                .containsExactlyInAnyOrderElementsOf(union(refused, unconvertible));
        for (long i : refused) {
            DeadLetter d = dead.get(i);
            assertThat(d.topic()).isEqualTo(topic);
            assertThat(d.partition()).isEqualTo((int) (i % 2));
            assertThat(d.value()).as("the record as it came").isEqualTo(withCode(i, true));
            assertThat(d.reason())
                    .contains("ClickHouse refused the row")
                    .contains("ClickHouse error 6")
                    .contains("Cannot parse string 'x" + i + "' as UInt32");
        }
        for (long i : unconvertible) {
            assertThat(dead.get(i).reason()).contains("id").contains("id " + i);
        }
    }

    @Test
    void underToleranceNoneARowTheServerRefusesFailsTheTaskWithNothingOfItsBatchWritten()
            throws Exception {
        String topic = TestKafka.newTopic("connect_refuse_none", 1);
        String table = parsingTable("connect_refuse_none");
        int n = 750; // three batches of 250, sealed by size only; the third holds the refused row
        TestKafka.produce(topic, n, i -> TestRecord.value(withCode(i, i == 520)));
        String name = "refuse-none-" + System.nanoTime();
        Map<String, String> c = config(topic, table);
        c.put("batch.linger.ms", "600000");
        try (ConnectWorker w = ConnectWorker.start(ConnectWorker.tempOffsets())) {
            w.putConnector(name, c);
            await(
                    "the task to fail",
                    () -> w.tasks(name).stream().anyMatch(t -> t.state().equals("FAILED")));
            assertThat(w.tasks(name).get(0).trace())
                    .contains(topic + "-0 offsets 500..749")
                    .contains("Cannot parse string 'x520' as UInt32")
                    .contains("errors.tolerance=all");
            OffsetAndMetadata o =
                    TestKafka.committedOffsets(group(name)).get(new TopicPartition(topic, 0));
            assertThat(o == null ? 0 : o.offset())
                    .as("nothing of the refused batch is committed")
                    .isLessThanOrEqualTo(500);
        }
        List<List<Object>> rows = rows(table);
        assertThat(rows).as("the two batches before it, nothing of it").hasSize(500);
        for (int i = 0; i < 500; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i));
        }
    }

    private static Set<Long> union(Set<Long> a, Set<Long> b) {
        Set<Long> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }

    /** A record on the dead-letter topic: where it came from, its value, and the reason header. */
    private record DeadLetter(String topic, int partition, String value, String reason) {}

    /**
     * The records of the dead-letter topic by the index of the original (record i at offset i /
     * partitions of partition i % partitions, from the context headers), once {@code expected}
     * arrived and a second passed without more; a record there twice fails.
     */
    private static Map<Long, DeadLetter> deadLetters(String dlq, int expected, int partitions) {
        Map<String, Object> cc = new HashMap<>();
        cc.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        cc.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cc.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cc.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        cc.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<Long, DeadLetter> out = new HashMap<>();
        List<Long> twice = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cc)) {
            TopicPartition tp = new TopicPartition(dlq, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            boolean quiet = false;
            while (!quiet && System.nanoTime() < deadline) {
                Duration wait =
                        out.size() < expected ? Duration.ofMillis(500) : Duration.ofSeconds(1);
                var polled = consumer.poll(wait);
                quiet = out.size() >= expected && polled.isEmpty();
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    long offset = Long.parseLong(header(r, "__connect.errors.offset"));
                    DeadLetter d =
                            new DeadLetter(
                                    header(r, "__connect.errors.topic"),
                                    Integer.parseInt(header(r, "__connect.errors.partition")),
                                    new String(r.value(), StandardCharsets.UTF_8),
                                    header(r, "__connect.errors.exception.message"));
                    long i = offset * partitions + d.partition();
                    if (out.put(i, d) != null) {
                        twice.add(i);
                    }
                }
            }
        }
        assertThat(twice).as("records on the dead-letter topic twice").isEmpty();
        return out;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        var h = r.headers().lastHeader(key);
        assertThat(h).as("header " + key).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The original offsets of the records on the dead-letter topic (from its headers). */
    private static List<Long> deadLetterOffsets(String dlq, int expected) {
        Map<String, Object> cc = new HashMap<>();
        cc.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        cc.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cc.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cc.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        cc.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Long> offsets = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cc)) {
            consumer.assign(List.of(new TopicPartition(dlq, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(dlq, 0)));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (offsets.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    offsets.add(
                            Long.parseLong(
                                    new String(
                                            r.headers()
                                                    .lastHeader("__connect.errors.offset")
                                                    .value(),
                                            StandardCharsets.UTF_8)));
                }
            }
            // nothing more than expected arrives
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
                offsets.add(-r.offset() - 1);
            }
        }
        offsets.sort(null);
        return offsets;
    }
}
