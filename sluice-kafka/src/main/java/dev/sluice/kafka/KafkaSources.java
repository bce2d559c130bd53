package dev.sluice.kafka;

import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Builds a pipeline's Kafka sources: one consumer of the group per pipeline thread. */
public final class KafkaSources {
    private KafkaSources() {}

    /**
     * The source of pipeline thread {@code reader}.
     *
     * @throws IllegalArgumentException a passthrough property that would break delivery (named)
     */
    public static Source create(
            PipelineSpec.KafkaSource spec, String pipeline, int reader, Clock clock) {
        KafkaSourceConfig config = KafkaSourceConfig.of(spec, pipeline);
        return new KafkaSource(
                config,
                KafkaConsumer::new,
                clock,
                KafkaMetrics.unregistered(pipeline),
                Integer.toString(reader));
    }
}
