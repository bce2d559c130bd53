package dev.sluice.kafka;

import dev.sluice.pipeline.spec.PipelineSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;

/**
 * The consumer settings of a Kafka source: what the pipeline owns (group, offsets, deserializers)
 * and what the user may pass through ({@code properties}: TLS, SASL, fetch sizes, timeouts).
 * Passthrough keys that would break delivery are refused by name when the source is built:
 * auto-commit would commit offsets whose rows are not written (property 1), and the others are set
 * from the source's own keys or per pipeline thread.
 */
record KafkaSourceConfig(
        String bootstrapServers,
        List<String> topics,
        String topicPattern,
        String groupId,
        String start,
        Duration assignmentTimeout,
        String groupProtocol,
        Map<String, String> properties,
        int maxRecordBytes,
        String pipeline) {

    /** Refused passthrough keys, and why. */
    static final Map<String, String> REFUSED =
            Map.ofEntries(
                    Map.entry(
                            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                            "sluice commits offsets itself, only once their rows are written"),
                    Map.entry(ConsumerConfig.GROUP_ID_CONFIG, "use the source's group_id"),
                    Map.entry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "use the source's start"),
                    Map.entry(
                            ConsumerConfig.GROUP_PROTOCOL_CONFIG,
                            "use the source's group_protocol"),
                    Map.entry(
                            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                            "records are read as bytes; decode: says how"),
                    Map.entry(
                            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                            "records are read as bytes; decode: says how"),
                    Map.entry(
                            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                            "every pipeline thread is a member of its own; one id for all would"
                                    + " fence them"),
                    Map.entry(
                            ConsumerConfig.CLIENT_ID_CONFIG,
                            "set per pipeline thread (sluice-<pipeline>-<thread>)"),
                    Map.entry(
                            ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG,
                            "an interceptor could commit or change records behind the pipeline"));

    static KafkaSourceConfig of(PipelineSpec.KafkaSource spec, String pipeline) {
        for (String key : spec.properties().keySet()) {
            String why = REFUSED.get(key);
            if (why != null) {
                throw new IllegalArgumentException(
                        "source.kafka.properties." + key + " is not allowed: " + why);
            }
        }
        if (spec.groupProtocol().equals("consumer")) {
            for (String key :
                    List.of(
                            ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)) {
                if (spec.properties().containsKey(key)) {
                    throw new IllegalArgumentException(
                            "source.kafka.properties."
                                    + key
                                    + " applies to group_protocol: classic only; with the"
                                    + " consumer protocol the brokers' group.consumer.* settings"
                                    + " decide");
                }
            }
        }
        return new KafkaSourceConfig(
                spec.bootstrapServers(),
                spec.topics(),
                spec.topicPattern(),
                spec.groupId(),
                spec.start(),
                spec.assignmentTimeout(),
                spec.groupProtocol(),
                spec.properties(),
                spec.maxRecordBytes(),
                pipeline);
    }

    /** The consumer's properties for pipeline thread {@code reader} under {@code protocol}. */
    Properties consumerProperties(String protocol, String reader) {
        Properties p = new Properties();
        // Defaults the user may change (docs/configuration.md, "Consumer defaults"): large polls
        // (the runtime takes 4096 records at a time), no topics created by reading them, and the
        // socket's receive buffer left to the OS (Linux sizes it to the connection), not Kafka's
        // fixed 64 KiB, which made the network thread take a fetch in many small reads.
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, "-1");
        p.putAll(properties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-" + pipeline + "-" + reader);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Never reset silently: a partition without a committed offset is placed at `start` by the
        // source itself, and a committed offset the broker no longer has (retention deleted the
        // records before they were read) is reported, then read from the log's start.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        if (protocol.equals("classic")
                && !properties.containsKey(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)) {
            p.put(
                    ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                    CooperativeStickyAssignor.class.getName());
        }
        // Views of the fetched bytes, not copies: the source copies each value once, into its
        // batch.
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class.getName());
        p.put(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteBufferDeserializer.class.getName());
        return p;
    }

    String describeTopics() {
        return topicPattern != null ? "topics matching " + topicPattern : "topics " + topics;
    }
}
