package dev.sluice.kafka;

import dev.sluice.pipeline.spec.PipelineSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code sluice check} of a Kafka source, without consuming or joining the group: the consumer
 * settings are valid, the brokers answer, the topics exist (or the pattern matches some), their
 * partition counts, and where the group stands — committed offsets and lag per topic.
 */
public final class KafkaCheck {
    private static final long TIMEOUT_SECONDS = 15;

    /** One line of the report: {@code ok} or not, and what was found. */
    public record Line(boolean ok, String text) {}

    private KafkaCheck() {}

    public static List<Line> check(PipelineSpec.KafkaSource spec, String pipeline) {
        List<Line> lines = new ArrayList<>();
        KafkaSourceConfig config;
        try {
            config = KafkaSourceConfig.of(spec, pipeline);
        } catch (IllegalArgumentException e) {
            lines.add(new Line(false, e.getMessage()));
            return lines;
        }
        Properties p = new Properties();
        p.putAll(config.consumerProperties(config.groupProtocol(), "check"));
        // The admin client shares the consumer's connection settings (TLS, SASL), not its own.
        Properties admin = new Properties();
        for (String key : p.stringPropertyNames()) {
            if (AdminClientConfig.configNames().contains(key)) {
                admin.put(key, p.getProperty(key));
            }
        }
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        try (Admin a = Admin.create(admin)) {
            String cluster = get(a.describeCluster().clusterId());
            int brokers = get(a.describeCluster().nodes()).size();
            lines.add(
                    new Line(
                            true,
                            "kafka "
                                    + spec.bootstrapServers()
                                    + ": cluster "
                                    + cluster
                                    + ", "
                                    + brokers
                                    + " broker(s)"));
            List<String> topics = topics(a, spec);
            if (topics.isEmpty()) {
                lines.add(new Line(false, "no topic matches " + config.describeTopics()));
                return lines;
            }
            Map<String, TopicDescription> described = get(a.describeTopics(topics).allTopicNames());
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicDescription d : described.values()) {
                d.partitions()
                        .forEach(
                                pi ->
                                        latest.put(
                                                new TopicPartition(d.name(), pi.partition()),
                                                OffsetSpec.latest()));
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    get(a.listOffsets(latest).all());
            Map<TopicPartition, OffsetAndMetadata> committed =
                    get(a.listConsumerGroupOffsets(spec.groupId()).partitionsToOffsetAndMetadata());
            for (TopicDescription d : new TreeMap<>(described).values()) {
                long end = 0;
                long lag = 0;
                int withCommit = 0;
                for (var pi : d.partitions()) {
                    TopicPartition tp = new TopicPartition(d.name(), pi.partition());
                    long e = ends.get(tp).offset();
                    end += e;
                    OffsetAndMetadata om = committed.get(tp);
                    if (om != null) {
                        withCommit++;
                        lag += Math.max(0, e - om.offset());
                    }
                }
                String group =
                        withCommit == 0
                                ? "group "
                                        + spec.groupId()
                                        + " has no committed offsets: it starts at the "
                                        + spec.start()
                                        + " offsets"
                                : "group "
                                        + spec.groupId()
                                        + " committed "
                                        + withCommit
                                        + " of them, "
                                        + lag
                                        + " records behind";
                lines.add(
                        new Line(
                                true,
                                "topic "
                                        + d.name()
                                        + ": "
                                        + d.partitions().size()
                                        + " partitions, "
                                        + end
                                        + " records up to the end offsets; "
                                        + group));
            }
        } catch (ExecutionException e) {
            lines.add(new Line(false, "kafka " + spec.bootstrapServers() + ": " + e.getCause()));
        } catch (TimeoutException e) {
            lines.add(
                    new Line(
                            false,
                            "kafka "
                                    + spec.bootstrapServers()
                                    + ": no answer within "
                                    + TIMEOUT_SECONDS
                                    + " s"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lines.add(new Line(false, "interrupted"));
        } catch (RuntimeException e) {
            lines.add(new Line(false, "kafka " + spec.bootstrapServers() + ": " + e.getMessage()));
        }
        return lines;
    }

    private static List<String> topics(Admin a, PipelineSpec.KafkaSource spec)
            throws ExecutionException, TimeoutException, InterruptedException {
        List<String> all = new ArrayList<>(get(a.listTopics().names()));
        if (spec.topicPattern() == null) {
            List<String> missing = new ArrayList<>(spec.topics());
            missing.removeAll(all);
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException("topic(s) " + missing + " do not exist");
            }
            return spec.topics();
        }
        Pattern pattern = Pattern.compile(spec.topicPattern());
        all.removeIf(t -> !pattern.matcher(t).matches());
        all.sort(null);
        return all;
    }

    private static <T> T get(KafkaFuture<T> f)
            throws ExecutionException, TimeoutException, InterruptedException {
        return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
