package dev.sluice.kafka;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka source's series (docs/metrics.md, "Kafka source"), shared by the pipeline's consumers:
 * registered once per registry; each consumer updates the values of its own partitions.
 */
final class KafkaMetrics {
    private static final double[] SECONDS_BUCKETS = {
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
    };
    private static final Map<PrometheusRegistry, KafkaMetrics> BY_REGISTRY = new WeakHashMap<>();

    private final String pipeline;
    private final Counter rebalances;
    private final Histogram commits;
    private final Counter deleted;
    private final Map<TopicPartition, Long> lag = new ConcurrentHashMap<>();
    private final Map<Object, Integer> owned = new ConcurrentHashMap<>();

    private KafkaMetrics(PrometheusRegistry registry, String pipeline) {
        this.pipeline = pipeline;
        rebalances =
                Counter.builder()
                        .name("etl_kafka_rebalance_events_total")
                        .help(
                                "Rebalance callbacks the consumers got: assigned, revoked, lost"
                                        + " (one per consumer and rebalance).")
                        .labelNames("pipeline", "event")
                        .withoutExemplars()
                        .register(registry);
        commits =
                Histogram.builder()
                        .name("etl_kafka_commit_duration_seconds")
                        .help("One commitSync of offsets (and their replay metadata).")
                        .labelNames("pipeline")
                        .classicUpperBounds(SECONDS_BUCKETS)
                        .classicOnly()
                        .withoutExemplars()
                        .register(registry);
        deleted =
                Counter.builder()
                        .name("etl_kafka_deleted_before_read_records_total")
                        .help(
                                "Records the broker deleted (retention) between a committed offset"
                                        + " and the log's start before they were read: lost"
                                        + " upstream, reported, never silent.")
                        .labelNames("pipeline", "topic")
                        .withoutExemplars()
                        .register(registry);
        GaugeWithCallback.builder()
                .name("etl_kafka_lag_records")
                .help("Records between a partition's fetch position and its end, per partition.")
                .labelNames("pipeline", "topic", "partition")
                .callback(
                        cb ->
                                lag.forEach(
                                        (tp, n) ->
                                                cb.call(
                                                        n,
                                                        pipeline,
                                                        tp.topic(),
                                                        Integer.toString(tp.partition()))))
                .register(registry);
        GaugeWithCallback.builder()
                .name("etl_kafka_assigned_partitions")
                .help("Partitions assigned to this process's consumers now.")
                .labelNames("pipeline")
                .callback(
                        cb ->
                                cb.call(
                                        owned.values().stream().mapToInt(Integer::intValue).sum(),
                                        pipeline))
                .register(registry);
    }

    /** The metrics of {@code pipeline} in {@code registry}, registered on first use. */
    static synchronized KafkaMetrics of(PrometheusRegistry registry, String pipeline) {
        return BY_REGISTRY.computeIfAbsent(registry, r -> new KafkaMetrics(r, pipeline));
    }

    /** Metrics nobody reads (a source built for {@code sluice check}). */
    static KafkaMetrics unregistered(String pipeline) {
        return new KafkaMetrics(new PrometheusRegistry(), pipeline);
    }

    void rebalance(String event) {
        rebalances.labelValues(pipeline, event).inc();
    }

    void deleted(TopicPartition tp, long records) {
        deleted.labelValues(pipeline, tp.topic()).inc(records);
    }

    void commitSeconds(double seconds) {
        commits.labelValues(pipeline).observe(seconds);
    }

    /** How many partitions {@code member} (a consumer) owns. */
    void owned(Object member, int partitions) {
        owned.put(member, partitions);
    }

    /** Reads the lag the consumer knows without asking the broker. */
    void lag(Consumer<?, ?> consumer) {
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong n = consumer.currentLag(tp);
            if (n.isPresent()) {
                lag.put(tp, n.getAsLong());
            }
        }
    }

    /** Partitions no longer assigned here: their lag is another process's to report. */
    void forget(Iterable<TopicPartition> tps) {
        tps.forEach(lag::remove);
    }
}
