package dev.sluice.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facts about the test broker that the Kafka source builds on: a consumer group of either
 * rebalance protocol reads a topic of 8 partitions, commits, and after a broker restart (clean or
 * SIGKILL) finds its committed offsets and reads on from them — every record exactly once, with its
 * key, value, timestamp and headers as produced.
 */
class KafkaBrokerIT {
    private static final int PARTITIONS = 8;
    private static final int RECORDS = 100_000;
    private static final int FIRST_PART = 40_000;
    private static final long BASE_TIME = 1_700_000_000_000L;
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Comparator<TopicPartition> BY_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    @BeforeAll
    static void broker() {
        TestKafka.require();
    }

    private static String value(int i) {
        return "{\"seq\":" + i + ",\"payload\":\"" + "v".repeat(i % 50) + "\"}";
    }

    private static TestRecord record(int i) {
        return TestRecord.of("key-" + i, value(i))
                .withPartition(i % PARTITIONS)
                .withTimestamp(BASE_TIME + i)
                .withHeader("seq", Integer.toString(i))
                .withHeader("source", "broker-it");
    }

    /** What one consumed record must be: the produced record whose sequence number it carries. */
    private static int checkAndNumber(ConsumerRecord<byte[], byte[]> r) {
        String v = new String(r.value(), StandardCharsets.UTF_8);
        int seq = Integer.parseInt(v.substring("{\"seq\":".length(), v.indexOf(',')));
        assertThat(v).isEqualTo(value(seq));
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("key-" + seq);
        assertThat(r.partition()).isEqualTo(seq % PARTITIONS);
        assertThat(r.offset()).isEqualTo(seq / PARTITIONS); // produced in order per partition
        assertThat(r.timestamp()).isEqualTo(BASE_TIME + seq);
        List<String> headers = new ArrayList<>();
        for (Header h : r.headers()) {
            headers.add(h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8));
        }
        assertThat(headers).containsExactly("seq=" + seq, "source=broker-it");
        return seq;
    }

    /**
     * Polls until {@code want} records came (or the deadline passes); checks each, adds its number
     * to {@code seen} (failing on a duplicate) and returns the next offset per partition.
     */
    private static Map<TopicPartition, OffsetAndMetadata> consume(
            KafkaConsumer<byte[], byte[]> consumer, int want, Set<Integer> seen) {
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        int got = 0;
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (got < want) {
            if (System.nanoTime() > deadline) {
                Map<TopicPartition, Long> positions = new TreeMap<>(BY_PARTITION);
                for (TopicPartition tp : consumer.assignment()) {
                    positions.put(tp, consumer.position(tp));
                }
                throw new AssertionError(
                        "consumed "
                                + got
                                + " of "
                                + want
                                + " records within "
                                + DEADLINE
                                + "; positions of the assigned partitions: "
                                + positions);
            }
            ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<byte[], byte[]> r : batch) {
                int seq = checkAndNumber(r);
                assertThat(seen.add(seq)).as("record %d consumed twice", seq).isTrue();
                next.put(
                        new TopicPartition(r.topic(), r.partition()),
                        new OffsetAndMetadata(r.offset() + 1, "seq " + seq));
                got++;
            }
        }
        return next;
    }

    private static GroupType groupType(String group) throws Exception {
        try (Admin a = TestKafka.admin()) {
            ConsumerGroupDescription d =
                    a.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
            return d.type();
        }
    }

    private static void run(GroupProtocol protocol, Runnable restartBroker) throws Exception {
        String topic = TestKafka.newTopic("broker-it", PARTITIONS);
        String group = topic + "-group";
        assertThat(TestKafka.produce(topic, RECORDS, KafkaBrokerIT::record)).isEqualTo(RECORDS);
        Map<TopicPartition, Long> ends = TestKafka.endOffsets(topic);
        assertThat(ends).hasSize(PARTITIONS);
        ends.values().forEach(e -> assertThat(e).isEqualTo(RECORDS / PARTITIONS));

        Set<Integer> seen = new HashSet<>();
        Map<TopicPartition, OffsetAndMetadata> committed;
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(TestKafka.consumerConfig(group, protocol))) {
            c.subscribe(List.of(topic));
            committed = consume(c, FIRST_PART, seen);
            c.commitSync(committed);
            assertThat(groupType(group))
                    .isEqualTo(
                            protocol == GroupProtocol.CONSUMER
                                    ? GroupType.CONSUMER
                                    : GroupType.CLASSIC);
        }
        assertThat(TestKafka.committedOffsets(group)).isEqualTo(committed);
        long before = TestKafka.pid();

        restartBroker.run();

        assertThat(TestKafka.pid()).isNotEqualTo(before);
        Map<TopicPartition, OffsetAndMetadata> afterRestart = TestKafka.committedOffsets(group);
        assertThat(afterRestart).isEqualTo(committed);
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(TestKafka.consumerConfig(group, protocol))) {
            c.subscribe(List.of(topic));
            Map<TopicPartition, OffsetAndMetadata> rest = consume(c, RECORDS - seen.size(), seen);
            c.commitSync(rest);
            // nothing more arrives: the group started exactly at its committed offsets
            assertThat(c.poll(Duration.ofMillis(500)).count()).isZero();
        }
        assertThat(seen).hasSize(RECORDS);
        Map<TopicPartition, OffsetAndMetadata> done = TestKafka.committedOffsets(group);
        assertThat(done).hasSize(PARTITIONS);
        done.forEach((tp, om) -> assertThat(om.offset()).isEqualTo(ends.get(tp)));
        TestKafka.deleteTopic(topic);
    }

    @Test
    void consumerProtocolGroupKeepsItsOffsetsAcrossACleanBrokerRestart() throws Exception {
        run(GroupProtocol.CONSUMER, TestKafka::restart);
    }

    @Test
    void classicCooperativeStickyGroupKeepsItsOffsetsAcrossABrokerKill() throws Exception {
        run(
                GroupProtocol.CLASSIC,
                () -> {
                    TestKafka.kill();
                    TestKafka.start();
                });
    }

    @Test
    void aConsumerProtocolGroupMayShortenItsSessionTimeout() throws Exception {
        String group = "short-session-" + Long.toHexString(System.nanoTime());
        TestKafka.setGroupConfigs(
                group,
                Map.of(
                        "consumer.session.timeout.ms", "3000",
                        "consumer.heartbeat.interval.ms", "500"));
        try (Admin a = TestKafka.admin()) {
            ConfigResource res = new ConfigResource(ConfigResource.Type.GROUP, group);
            var config = a.describeConfigs(List.of(res)).all().get().get(res);
            assertThat(config.get("consumer.session.timeout.ms").value()).isEqualTo("3000");
            assertThat(config.get("consumer.heartbeat.interval.ms").value()).isEqualTo("500");
        }
    }
}
