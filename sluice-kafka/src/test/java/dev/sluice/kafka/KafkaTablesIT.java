package dev.sluice.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.kafka.it.TestKafka;
import dev.sluice.kafka.it.TestRecord;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One pipeline writing the topics it reads into a table per topic, against a real broker and a real
 * ClickHouse: {@code table: sluice_test.events_{topic}} names two tables of different columns (the
 * topics' names hold a '-', so the table names are quoted), {@code tables} maps a third topic to a
 * table of its own; every row lands once in its table, value by value, and the group commits every
 * offset. A topic whose table does not exist stops the pipeline naming it, with nothing of that
 * topic committed.
 */
class KafkaTablesIT {
    @TempDir Path dir;

    @BeforeAll
    static void components() {
        TestKafka.require();
        TestServer.url(); // fails (or skips, outside CI) without a server
    }

    private String yaml(String name, List<String> topics, String table, String tables) {
        return """
                pipeline: {name: %s, threads: 2}
                source:
                  kafka:
                    bootstrap_servers: %s
                    topics: [%s]
                    group_id: g-%s
                decode: json
                sink:
                  clickhouse:
                    url: %s
                    table: "%s"
                    tables: {%s}
                    batch: {max_rows: 1000, linger: 300ms}
                checkpoint: {interval: 200ms, dir: %s}
                errors: {policy: fail}
                admin: {listen: "off"}
                """
                .formatted(
                        name,
                        TestKafka.bootstrapServers(),
                        String.join(", ", topics),
                        topics.get(0),
                        TestServer.url(),
                        table,
                        tables,
                        dir.resolve("cp-" + name));
    }

    private static long count(String table) {
        return TestServer.single("SELECT count() FROM " + table);
    }

    private static void awaitCount(String table, long n, Pipeline p) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (count(table) < n) {
            assertThat(p.isDone())
                    .as("the pipeline ended: %s", p.awaitCompletion(Duration.ZERO))
                    .isFalse();
            assertThat(System.nanoTime() - deadline)
                    .as("%s holds %,d of %,d rows", table, count(table), n)
                    .isNegative();
            Thread.sleep(100);
        }
    }

    @Test
    void recordsGoToTheTableTheirTopicNamesEachRowOnceValueByValue() throws Exception {
        String clicks = TestKafka.newTopic("clicks", 4);
        String views = TestKafka.newTopic("views", 2);
        String orders = TestKafka.newTopic("orders", 2);
        String clicksTable = TestServer.DATABASE + ".`events_" + clicks + "`";
        String viewsTable = TestServer.DATABASE + ".`events_" + views + "`";
        String ordersTable = TestServer.newTable("kafka_orders");
        TestServer.execute("CREATE DATABASE IF NOT EXISTS " + TestServer.DATABASE);
        TestServer.execute(
                "CREATE TABLE "
                        + clicksTable
                        + " (id UInt64, url String, x Int32) ENGINE = MergeTree ORDER BY id");
        TestServer.execute(
                "CREATE TABLE "
                        + viewsTable
                        + " (id UInt64, page String, ms Float64, tag String DEFAULT 'none')"
                        + " ENGINE = MergeTree ORDER BY id");
        TestServer.execute(
                "CREATE TABLE "
                        + ordersTable
                        + " (id UInt64, amount Float64, sku String) ENGINE = MergeTree ORDER BY"
                        + " id");
        int nClicks = 6_000;
        int nViews = 4_000;
        int nOrders = 3_000;
        TestKafka.produce(
                clicks,
                nClicks,
                i ->
                        TestRecord.value(
                                        "{\"id\":"
                                                + i
                                                + ",\"url\":\"/c/"
                                                + i
                                                + "\",\"x\":"
                                                + (i % 1000 - 500)
                                                + "}")
                                .withPartition(i % 4));
        TestKafka.produce(
                views,
                nViews,
                i ->
                        TestRecord.value(
                                        "{\"id\":"
                                                + i
                                                + ",\"page\":\"p"
                                                + i
                                                + "\",\"ms\":"
                                                + (i / 4.0)
                                                + (i % 2 == 0 ? ",\"tag\":\"t" + i + "\"" : "")
                                                + "}")
                                .withPartition(i % 2));
        TestKafka.produce(
                orders,
                nOrders,
                i ->
                        TestRecord.value(
                                        "{\"id\":"
                                                + i
                                                + ",\"amount\":"
                                                + (i * 0.5)
                                                + ",\"sku\":\"s"
                                                + (i % 17)
                                                + "\"}")
                                .withPartition(i % 2));
        Pipeline p =
                new KafkaPipeline(
                                yaml(
                                        "tables",
                                        List.of(clicks, views, orders),
                                        TestServer.DATABASE + ".events_{topic}",
                                        orders + ": " + ordersTable))
                        .start();
        assertThat(p.notes())
                .anySatisfy(
                        n -> assertThat(n).contains("records go to the table their topic names"));
        awaitCount(clicksTable, nClicks, p);
        awaitCount(viewsTable, nViews, p);
        awaitCount(ordersTable, nOrders, p);
        Thread.sleep(600); // a commit interval or two: the positions of the last batches
        p.drain();
        PipelineResult r = p.awaitCompletion();
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.DRAINED);
        assertThat(r.stats().rowsWritten()).isEqualTo(nClicks + nViews + nOrders);

        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> cs =
                    c.queryRows("SELECT id, url, x FROM " + clicksTable + " ORDER BY id");
            assertThat(cs).hasSize(nClicks);
            for (int i = 0; i < nClicks; i++) {
                assertThat(cs.get(i))
                        .isEqualTo(List.of((long) i, "/c/" + i, (long) (i % 1000 - 500)));
            }
            List<List<Object>> vs =
                    c.queryRows("SELECT id, page, ms, tag FROM " + viewsTable + " ORDER BY id");
            assertThat(vs).hasSize(nViews);
            for (int i = 0; i < nViews; i++) {
                assertThat(vs.get(i))
                        .isEqualTo(
                                List.of((long) i, "p" + i, i / 4.0, i % 2 == 0 ? "t" + i : "none"));
            }
            List<List<Object>> os =
                    c.queryRows("SELECT id, amount, sku FROM " + ordersTable + " ORDER BY id");
            assertThat(os).hasSize(nOrders);
            for (int i = 0; i < nOrders; i++) {
                assertThat(os.get(i)).isEqualTo(List.of((long) i, i * 0.5, "s" + (i % 17)));
            }
        }
        Map<TopicPartition, OffsetAndMetadata> committed =
                TestKafka.committedOffsets("g-" + clicks);
        for (String topic : List.of(clicks, views, orders)) {
            for (Map.Entry<TopicPartition, Long> e : TestKafka.endOffsets(topic).entrySet()) {
                assertThat(committed.get(e.getKey()))
                        .as("committed offset of %s", e.getKey())
                        .isNotNull();
                assertThat(committed.get(e.getKey()).offset())
                        .as("committed offset of %s", e.getKey())
                        .isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void aTopicWhoseTableDoesNotExistStopsThePipelineNamingItAndCommitsNothingOfIt()
            throws Exception {
        String stray = TestKafka.newTopic("stray", 1);
        TestKafka.produce(stray, 10, i -> TestRecord.value("{\"id\":" + i + "}"));
        Pipeline p =
                new KafkaPipeline(
                                yaml(
                                        "stray",
                                        List.of(stray),
                                        TestServer.DATABASE + ".missing_{topic}",
                                        ""))
                        .start();
        PipelineResult r = p.awaitCompletion(Duration.ofSeconds(90));
        assertThat(r).as("the pipeline stops by itself").isNotNull();
        assertThat(r.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(r.message()).contains("missing_" + stray).contains("does not exist");
        Map<TopicPartition, OffsetAndMetadata> committed = TestKafka.committedOffsets("g-" + stray);
        OffsetAndMetadata om = committed.get(new TopicPartition(stray, 0));
        assertThat(om == null ? 0 : om.offset()).as("nothing of the topic committed").isZero();
    }
}
