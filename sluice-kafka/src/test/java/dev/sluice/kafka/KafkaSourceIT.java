package dev.sluice.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.kafka.it.TestKafka;
import dev.sluice.kafka.it.TestRecord;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kafka source against a real broker and a real ClickHouse: records land once each, value by
 * value; the group holds the committed offsets with the boundaries of the batches past them;
 * members joining and leaving move partitions without losing or doubling a row; bad records are
 * dead-lettered with topic, partition and offset.
 */
class KafkaSourceIT {
    @TempDir Path dir;

    @BeforeAll
    static void components() {
        TestKafka.require();
        TestServer.url(); // fails (or skips, outside CI) without a server
    }

    private static String json(int i) {
        return "{\"id\":" + i + ",\"v\":\"value-" + (i * 7919 % 1_000_003) + "\"}";
    }

    private static String table(String prefix) {
        String table = TestServer.newTable(prefix);
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, v String) ENGINE = MergeTree ORDER BY id");
        return table;
    }

    private String yaml(String name, String topic, String group, String table, String extra) {
        return """
                pipeline: {name: %s, threads: 2}
                source:
                  kafka:
                    bootstrap_servers: %s
                    topics: [%s]
                    group_id: %s
                    group_protocol: %s
                decode: json
                sink:
                  clickhouse:
                    url: %s
                    table: %s
                    batch: {max_rows: 2000, linger: 300ms}
                checkpoint: {interval: 200ms, dir: %s}
                errors: {policy: dead-letter, dead_letter: {path: %s}}
                admin: {listen: "off"}
                %s
                """
                .formatted(
                        name,
                        TestKafka.bootstrapServers(),
                        topic,
                        group,
                        extra.contains("classic") ? "classic" : "consumer",
                        TestServer.url(),
                        table,
                        dir.resolve("cp-" + name),
                        dir.resolve("dead-" + name + ".ndjson"),
                        extra.replace("classic", ""));
    }

    /** count, distinct ids, and a hash of every (id, v) of the table. */
    private static List<Object> fingerprint(String table) {
        return TestServer.connect()
                .queryRows("SELECT count(), uniqExact(id), sum(cityHash64(id, v)) FROM " + table)
                .get(0);
    }

    private static List<Object> expected(int records) {
        return TestServer.connect()
                .queryRows(
                        "SELECT count(), uniqExact(id), sum(cityHash64(id, v)) FROM (SELECT"
                                + " number AS id, concat('value-', toString(number * 7919 %"
                                + " 1000003)) AS v FROM numbers("
                                + records
                                + "))")
                .get(0);
    }

    private static long count(String table) {
        return TestServer.single("SELECT count() FROM " + table);
    }

    private static void awaitCount(String table, long n, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(table) < n) {
            assertThat(System.nanoTime() - deadline)
                    .as("%s holds %,d of %,d rows", table, count(table), n)
                    .isNegative();
            Thread.sleep(100);
        }
    }

    @ParameterizedTest(name = "group protocol {0}")
    @ValueSource(strings = {"consumer", "classic"})
    void everyRecordLandsOnceAndTheGroupKeepsOffsetsWithTheirBatches(String protocol)
            throws Exception {
        int records = 20_000;
        String topic = TestKafka.newTopic("once", 4);
        // Of this run alone: the broker keeps the offsets of earlier runs' groups.
        String group = topic + "-" + protocol;
        TestKafka.produce(topic, records, i -> TestRecord.value(json(i)).withPartition(i % 4));
        String table = table("kafka_once");

        Pipeline p =
                new KafkaPipeline(
                                yaml(
                                        "once",
                                        topic,
                                        group,
                                        table,
                                        protocol.equals("classic") ? "classic" : ""))
                        .start();
        awaitCount(table, records, Duration.ofSeconds(90));
        Thread.sleep(600); // a commit interval or two: the positions of the last batches
        p.drain();
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.DRAINED);
        assertThat(fingerprint(table)).isEqualTo(expected(records));
        Map<TopicPartition, OffsetAndMetadata> committed = TestKafka.committedOffsets(group);
        Map<TopicPartition, Long> ends = TestKafka.endOffsets(topic);
        assertThat(committed).hasSize(4);
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            OffsetAndMetadata om = committed.get(e.getKey());
            assertThat(om.offset())
                    .as("committed offset of %s", e.getKey())
                    .isEqualTo(e.getValue());
            // Everything written: no batch past the position, the run kept for later owners.
            assertThat(om.metadata()).startsWith("s1|").endsWith("|");
        }
        assertThat(r.stats().rowsWritten()).isEqualTo(records);
    }

    @Test
    void membersJoiningAndLeavingMovePartitionsWithoutLossOrDuplicates() throws Exception {
        int records = 60_000;
        String topic = TestKafka.newTopic("rebalance", 8);
        String group = "g-" + topic;
        TestKafka.produce(topic, records, i -> TestRecord.value(json(i)).withPartition(i % 8));
        String table = table("kafka_rebalance");
        // A slow pipeline: small batches, a low rate of inserts, so partitions move mid-stream.
        String extra = "backpressure: {max_inflight_bytes: 2MiB}";
        Pipeline a = new KafkaPipeline(yaml("a", topic, group, table, extra)).start();
        awaitCount(table, 5_000, Duration.ofSeconds(60));
        Pipeline b = new KafkaPipeline(yaml("b", topic, group, table, extra)).start();
        awaitCount(table, 25_000, Duration.ofSeconds(60));
        b.drain(); // b leaves: its partitions go back to a
        PipelineResult rb = b.awaitCompletion();
        Pipeline c = new KafkaPipeline(yaml("c", topic, group, table, extra)).start();
        awaitCount(table, 45_000, Duration.ofSeconds(60));
        a.drain(); // a leaves: c takes everything
        PipelineResult ra = a.awaitCompletion();
        awaitCount(table, records, Duration.ofSeconds(90));
        Thread.sleep(600);
        c.drain();
        PipelineResult rc = c.awaitCompletion();

        System.out.printf(
                Locale.ROOT,
                "[KafkaSourceIT] rows written a %,d, b %,d, c %,d%n",
                ra.stats().rowsWritten(),
                rb.stats().rowsWritten(),
                rc.stats().rowsWritten());
        assertThat(List.of(ra.status(), rb.status(), rc.status()))
                .containsOnly(PipelineResult.Status.DRAINED);
        // Revocations sealed, awaited and committed their batches: no row twice, none missing.
        assertThat(fingerprint(table)).isEqualTo(expected(records));
        assertThat(ra.stats().rowsWritten() + rb.stats().rowsWritten() + rc.stats().rowsWritten())
                .isEqualTo(records);
        for (Map.Entry<TopicPartition, Long> e : TestKafka.endOffsets(topic).entrySet()) {
            assertThat(TestKafka.committedOffsets(group).get(e.getKey()).offset())
                    .isEqualTo(e.getValue());
        }
    }

    /** Record i's key: none for every fifth, else text, with a multi-byte character. */
    private static String key(int i) {
        return i % 5 == 0 ? null : "k-" + i + (i % 3 == 0 ? "-\u00e9" : "");
    }

    @Test
    void keysTimestampsHeadersAndPositionsLandInTheirColumnsValueByValue() throws Exception {
        int records = 3_000;
        String topic = TestKafka.newTopic("meta", 3);
        String group = "g-" + topic;
        long t0 = 1_764_741_600_000L;
        TestKafka.produce(
                topic,
                records,
                i -> {
                    TestRecord r =
                            TestRecord.of(key(i), json(i))
                                    .withPartition(i % 3)
                                    .withTimestamp(t0 + i);
                    if (i % 4 == 1) {
                        r = r.withHeader("trace", "t-" + i);
                    } else if (i % 4 == 2) {
                        // a name given twice: the last wins; a null value is a NULL
                        r = r.withHeader("trace", "first").withHeader("trace", (byte[]) null);
                    }
                    return r;
                });
        String table = TestServer.newTable("kafka_meta");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, v String, _key Nullable(String), _timestamp UInt64,"
                        + " _topic String, _partition UInt32, _offset UInt64,"
                        + " trace Nullable(String)) ENGINE = MergeTree ORDER BY id");
        String yaml =
                yaml("meta", topic, group, table, "")
                        .replace(
                                "decode: json",
                                "decode: json\ntransforms:\n  - rename: {from: _header.trace, to:"
                                        + " trace}");
        Pipeline p = new KafkaPipeline(yaml).start();
        awaitCount(table, records, Duration.ofSeconds(90));
        Thread.sleep(600);
        p.drain();
        PipelineResult r = p.awaitCompletion();
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.DRAINED);

        List<List<Object>> rows =
                TestServer.connect()
                        .queryRows(
                                "SELECT id, _key, _timestamp, _topic, _partition, _offset, trace"
                                        + " FROM "
                                        + table
                                        + " ORDER BY id");
        assertThat(rows).hasSize(records);
        // a partition's offsets follow the order its records were produced in
        long[] nextOffset = new long[3];
        for (int i = 0; i < records; i++) {
            List<Object> row = rows.get(i);
            assertThat(((Number) row.get(0)).longValue()).isEqualTo(i);
            assertThat(row.get(1)).as("_key of %d", i).isEqualTo(key(i));
            assertThat(((Number) row.get(2)).longValue()).isEqualTo(t0 + i);
            assertThat(row.get(3)).isEqualTo(topic);
            assertThat(((Number) row.get(4)).intValue()).isEqualTo(i % 3);
            assertThat(((Number) row.get(5)).longValue())
                    .as("_offset of %d", i)
                    .isEqualTo(nextOffset[i % 3]++);
            assertThat(row.get(6)).as("trace of %d", i).isEqualTo(i % 4 == 1 ? "t-" + i : null);
        }
    }

    @Test
    void badRecordsAreDeadLetteredWithTopicPartitionAndOffset() throws Exception {
        String topic = TestKafka.newTopic("poison", 2);
        String group = "g-" + topic;
        // 100 good records, and on partition 1: bad JSON, a wrong type, a tombstone, an oversized
        // value.
        TestKafka.produce(topic, 100, i -> TestRecord.value(json(i)).withPartition(i % 2));
        TestKafka.produce(
                topic,
                4,
                i ->
                        switch (i) {
                            case 0 -> TestRecord.value("{\"id\": 1000, \"v\": ").withPartition(1);
                            case 1 ->
                                    TestRecord.value("{\"id\": \"x\", \"v\": \"y\"}")
                                            .withPartition(1);
                            case 2 ->
                                    TestRecord.of("k".getBytes(StandardCharsets.UTF_8), null)
                                            .withPartition(1);
                            default ->
                                    TestRecord.value(
                                                    "{\"id\": 1001, \"v\": \""
                                                            + "z".repeat(2_000)
                                                            + "\"}")
                                            .withPartition(1);
                        });
        TestKafka.produce(topic, 2, i -> TestRecord.value(json(100 + i)).withPartition(0));
        String table = table("kafka_poison");
        String yaml =
                yaml("poison", topic, group, table, "")
                        .replace("group_protocol:", "max_record_bytes: 1KiB\n    group_protocol:");
        Pipeline p = new KafkaPipeline(yaml).start();
        awaitCount(table, 102, Duration.ofSeconds(60));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (p.stats().recordsDeadLettered() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(600);
        p.drain();
        PipelineResult r = p.awaitCompletion();

        assertThat(r.stats().rowsWritten()).isEqualTo(102);
        assertThat(r.stats().recordsDeadLettered()).isEqualTo(4);
        List<String> letters = Files.readAllLines(dir.resolve("dead-poison.ndjson"));
        assertThat(letters).hasSize(4);
        assertThat(letters).allMatch(l -> l.contains("\"partition\":\"" + topic + "/1\""));
        assertThat(letters.get(0)).contains("\"position\":50");
        assertThat(letters.get(2)).contains("tombstone").contains("\"position\":52");
        assertThat(letters.get(3)).contains("max_record_bytes").contains("\"position\":53");
        // Every record is handled: the offsets are at the ends.
        for (Map.Entry<TopicPartition, Long> e : TestKafka.endOffsets(topic).entrySet()) {
            assertThat(TestKafka.committedOffsets(group).get(e.getKey()).offset())
                    .isEqualTo(e.getValue());
        }
    }

    @Test
    void recordsTheBrokerDeletedBeforeTheyWereReadAreReportedNotSkippedSilently() throws Exception {
        String topic = TestKafka.newTopic("deleted", 1);
        String group = "g-" + topic;
        String table = table("kafka_deleted");
        TestKafka.produce(topic, 100, i -> TestRecord.value(json(i)).withPartition(0));
        Pipeline first = new KafkaPipeline(yaml("deleted1", topic, group, table, "")).start();
        awaitCount(table, 100, Duration.ofSeconds(60));
        Thread.sleep(600);
        first.drain();
        first.awaitCompletion();
        assertThat(TestKafka.committedOffsets(group).get(new TopicPartition(topic, 0)).offset())
                .isEqualTo(100);

        // While nobody reads: 100 more, and the broker drops everything before offset 150 (as
        // retention would).
        TestKafka.produce(topic, 100, i -> TestRecord.value(json(100 + i)).withPartition(0));
        try (var admin = TestKafka.admin()) {
            admin.deleteRecords(
                            Map.of(
                                    new TopicPartition(topic, 0),
                                    org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(
                                            150)))
                    .all()
                    .get();
        }
        Pipeline second = new KafkaPipeline(yaml("deleted2", topic, group, table, "")).start();
        awaitCount(table, 150, Duration.ofSeconds(60));
        Thread.sleep(600);
        second.drain();
        PipelineResult r = second.awaitCompletion();
        List<String> warnings = second.takeWarnings();

        assertThat(r.stats().rowsWritten()).isEqualTo(50);
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains(topic + "/0: offsets 100 to 149 were deleted by the broker")
                .contains("reading from offset 150");
        assertThat(TestServer.single("SELECT count() FROM " + table + " WHERE id >= 150"))
                .isEqualTo(50);
    }
}
