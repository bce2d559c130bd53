package dev.sluice.kafka.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.it.EnvFile;
import dev.sluice.clickhouse.it.RepoScripts;
import dev.sluice.clickhouse.it.Signals;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The real Kafka broker integration tests run against: the one of {@code scripts/kafka} (a KRaft
 * broker+controller on 127.0.0.1), found through the env file of its dir ({@code KAFKA_DIR} or
 * {@code SLUICE_KAFKA_DIR}, else {@code .sluice/kafka/env} above the working directory), read
 * afresh on each use since the pid changes on restarts; or a broker of the caller's: {@code
 * KAFKA_BOOTSTRAP_SERVERS} without a dir (then stop, start and kill cannot work).
 *
 * <p>When no broker answers, tests are skipped — except with {@code SLUICE_REQUIRE_KAFKA=1} (set by
 * {@code scripts/test}), where they fail.
 *
 * <p>The broker has no automatic topic creation: tests create their topics ({@link #newTopic}).
 * Both rebalance protocols work: classic and KIP-848 ({@code group.protocol=consumer}), whose
 * session timeout is the broker's (10 s) unless a group sets its own ({@link #setGroupConfigs}).
 */
public final class TestKafka {
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(3);
    private static volatile boolean checked;

    private TestKafka() {}

    // ---- where the broker is ----

    /** The broker's variables (see the class comment for where they come from). */
    public static Map<String, String> env() {
        Map<String, String> sys = System.getenv();
        String dir = firstSet(sys.get("KAFKA_DIR"), sys.get("SLUICE_KAFKA_DIR"));
        if (dir == null && sys.get("KAFKA_BOOTSTRAP_SERVERS") != null) {
            return sys; // the caller's own broker
        }
        Optional<Path> file =
                dir != null
                        ? Optional.of(Path.of(dir, "env")).filter(Files::isReadable)
                        : EnvFile.find("SLUICE_KAFKA_DIR", ".sluice/kafka/env");
        return file.map(EnvFile::read).orElse(Map.of());
    }

    private static String firstSet(String a, String b) {
        return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
    }

    private static String value(String name) {
        String v = env().get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(
                    name + " is not known: is the broker from scripts/kafka?");
        }
        return v;
    }

    /**
     * Makes sure the broker answers, once per JVM: skips the calling test when it does not, or
     * fails it under {@code SLUICE_REQUIRE_KAFKA=1}.
     */
    public static void require() {
        if (checked) {
            return;
        }
        String servers = env().get("KAFKA_BOOTSTRAP_SERVERS");
        String problem = null;
        if (servers == null || servers.isBlank()) {
            problem =
                    "KAFKA_BOOTSTRAP_SERVERS is not set and no private broker was started"
                            + " (run scripts/kafka start, or scripts/test)";
        } else {
            String first = servers.split(",")[0].trim();
            int colon = first.lastIndexOf(':');
            try (Socket s = new Socket()) {
                s.connect(
                        new InetSocketAddress(
                                first.substring(0, colon),
                                Integer.parseInt(first.substring(colon + 1))),
                        2000);
            } catch (IOException | RuntimeException e) {
                problem = "no Kafka broker answers at " + first + ": " + e.getMessage();
            }
        }
        if (problem != null) {
            if ("1".equals(System.getenv("SLUICE_REQUIRE_KAFKA"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        checked = true;
    }

    public static String bootstrapServers() {
        require();
        return value("KAFKA_BOOTSTRAP_SERVERS");
    }

    /** The broker's current pid. */
    public static long pid() {
        require();
        return Long.parseLong(value("KAFKA_PID"));
    }

    // ---- clients ----

    /** A new admin client (close it). */
    public static Admin admin() {
        return Admin.create(
                Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers(),
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        (int) ADMIN_TIMEOUT.toMillis()));
    }

    /**
     * Consumer settings for a group: byte-array deserializers, manual commits, {@code earliest} for
     * a group without offsets. Classic groups get the cooperative-sticky assignor and short
     * timeouts (session 6 s, heartbeat 1 s); KIP-848 groups take theirs from the broker.
     */
    public static Map<String, Object> consumerConfig(String groupId, GroupProtocol protocol) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        c.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol.name().toLowerCase(Locale.ROOT));
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        if (protocol == GroupProtocol.CLASSIC) {
            c.put(
                    ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
            c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
            c.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
        }
        return c;
    }

    /**
     * Sets dynamic configs of a group, e.g. {@code consumer.session.timeout.ms} and {@code
     * consumer.heartbeat.interval.ms} for a KIP-848 group (the broker allows down to 1 s and 250
     * ms).
     */
    public static void setGroupConfigs(String groupId, Map<String, String> configs) {
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach(
                (k, v) ->
                        ops.add(
                                new AlterConfigOp(
                                        new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try (Admin a = admin()) {
            await(
                    a.incrementalAlterConfigs(
                                    Map.of(
                                            new ConfigResource(ConfigResource.Type.GROUP, groupId),
                                            ops))
                            .all(),
                    "set configs " + configs + " of group " + groupId);
        }
    }

    // ---- topics ----

    /** A fresh topic with {@code partitions} partitions; returns its name. */
    public static String newTopic(String prefix, int partitions) {
        String name = prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
        createTopic(name, partitions, Map.of());
        return name;
    }

    /**
     * Creates a topic (replication factor 1) and returns once every partition has a leader, so
     * producers and consumers see it at once.
     */
    public static void createTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin a = admin()) {
            await(
                    a.createTopics(
                                    List.of(
                                            new NewTopic(name, partitions, (short) 1)
                                                    .configs(configs)))
                            .all(),
                    "create topic " + name);
            // The controller has the topic; the broker's metadata may lag behind a moment.
            long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
            String last;
            while (true) {
                try {
                    TopicDescription d =
                            a.describeTopics(List.of(name))
                                    .topicNameValues()
                                    .get(name)
                                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    if (d.partitions().size() == partitions
                            && d.partitions().stream().allMatch(TestKafka::hasLeader)) {
                        return;
                    }
                    last = d.toString();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw new IllegalStateException(
                                "describe " + name + ": " + e.getCause(), e);
                    }
                    last = e.getCause().toString();
                } catch (TimeoutException e) {
                    last = "no answer to describe within " + ADMIN_TIMEOUT;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "topic "
                                    + name
                                    + " is not ready within "
                                    + ADMIN_TIMEOUT
                                    + ": "
                                    + last);
                }
                sleep(50);
            }
        }
    }

    private static boolean hasLeader(TopicPartitionInfo p) {
        return p.leader() != null && !p.leader().isEmpty();
    }

    public static void deleteTopic(String name) {
        try (Admin a = admin()) {
            await(a.deleteTopics(List.of(name)).all(), "delete topic " + name);
        }
    }

    /** The log end offset of each partition of {@code topic}. */
    public static Map<TopicPartition, Long> endOffsets(String topic) {
        try (Admin a = admin()) {
            TopicDescription d =
                    await(
                            a.describeTopics(List.of(topic)).topicNameValues().get(topic),
                            "describe " + topic);
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            for (TopicPartitionInfo p : d.partitions()) {
                specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> ends = new HashMap<>();
            await(a.listOffsets(specs).all(), "list offsets of " + topic)
                    .forEach((tp, info) -> ends.put(tp, info.offset()));
            return ends;
        }
    }

    /** The offsets a group has committed (partitions without a commit are absent). */
    public static Map<TopicPartition, OffsetAndMetadata> committedOffsets(String groupId) {
        try (Admin a = admin()) {
            Map<TopicPartition, OffsetAndMetadata> all =
                    await(
                            a.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                            "committed offsets of group " + groupId);
            Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
            all.forEach(
                    (tp, om) -> {
                        if (om != null) {
                            committed.put(tp, om);
                        }
                    });
            return committed;
        }
    }

    // ---- producing ----

    /**
     * Produces {@code count} records made by {@code record} (called with 0..count-1) with one
     * batching, idempotent producer ({@code acks=all}); returns when every record is acknowledged,
     * and fails naming the first error otherwise. Records of one partition keep their order.
     */
    public static long produce(String topic, int count, IntFunction<TestRecord> record) {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        c.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        c.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
        // A busy two-core machine can leave a request unanswered past the 30 s default: then the
        // idempotent producer resets the partition's sequence and the broker refuses every later
        // batch as out of order until delivery times out. One request in flight per connection,
        // and patient timeouts, keep the test about Sluice, not about a starved broker.
        c.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        c.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000);
        c.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000);
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(c)) {
            for (int i = 0; i < count && firstError.get() == null; i++) {
                TestRecord r = record.apply(i);
                p.send(
                        new ProducerRecord<>(
                                topic,
                                r.partition(),
                                r.timestamp(),
                                r.key(),
                                r.value(),
                                r.headers()),
                        (meta, e) -> {
                            if (e != null) {
                                firstError.compareAndSet(null, e);
                            } else {
                                acked.incrementAndGet();
                            }
                        });
            }
            p.flush();
        }
        if (firstError.get() != null) {
            throw new IllegalStateException(
                    "producing to "
                            + topic
                            + " failed after "
                            + acked.get()
                            + " acknowledged records: "
                            + firstError.get(),
                    firstError.get());
        }
        if (acked.get() != count) {
            throw new IllegalStateException(
                    "producing to "
                            + topic
                            + ": "
                            + acked.get()
                            + " of "
                            + count
                            + " acknowledged");
        }
        return count;
    }

    /** Produces {@code count} UTF-8 values without keys. */
    public static long produceStrings(String topic, int count, IntFunction<String> value) {
        return produce(topic, count, i -> TestRecord.value(value.apply(i)));
    }

    // ---- the broker's life ----

    /** A clean stop (controlled shutdown); data and committed offsets are kept. */
    public static void stop() {
        script("stop");
    }

    /** Starts the broker when it is down; returns when it answers. */
    public static void start() {
        script("start");
    }

    /** Stop, then start on the same port. */
    public static void restart() {
        script("restart");
    }

    /** SIGKILL (a crash); returns once the process is gone. {@link #start} recovers it. */
    public static void kill() {
        Signals.kill9(pid(), "Kafka broker");
    }

    /** SIGSTOP: the broker keeps its sockets but answers nothing. */
    public static void pause() {
        Signals.stop(pid(), "Kafka broker");
    }

    /** SIGCONT after {@link #pause}. */
    public static void resume() {
        Signals.cont(pid(), "Kafka broker");
    }

    private static void script(String command) {
        require();
        String dir = env().get("KAFKA_DIR");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException(
                    "the broker at "
                            + bootstrapServers()
                            + " was not started by scripts/kafka (KAFKA_DIR unknown):"
                            + " cannot "
                            + command
                            + " it");
        }
        RepoScripts.run("kafka", Map.of("SLUICE_KAFKA_DIR", dir), SCRIPT_TIMEOUT, command);
    }

    // ---- helpers ----

    private static <T> T await(KafkaFuture<T> f, String what) {
        try {
            return f.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no answer within " + ADMIN_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
