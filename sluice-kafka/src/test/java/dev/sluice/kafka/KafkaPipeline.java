package dev.sluice.kafka;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.config.ConfigLoader;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.FileDeadLetters;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineException;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.Transforms;
import java.io.IOException;
import java.util.List;

/**
 * A Kafka → ClickHouse pipeline in this JVM, built from YAML exactly as {@code sluice run} builds
 * it: one group member per pipeline thread.
 */
final class KafkaPipeline implements Factories {
    final PipelineSpec spec;

    KafkaPipeline(String yaml) {
        this.spec = ConfigLoader.system().parse(yaml, "test.yaml");
    }

    Pipeline start() throws PipelineException {
        return Pipeline.start(spec, this, Clock.SYSTEM);
    }

    @Override
    public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
        return KafkaSources.create(
                (PipelineSpec.KafkaSource) spec.source(), spec.name(), reader, Clock.SYSTEM);
    }

    @Override
    public TargetColumns targetColumns(TableSchema table) {
        return DecoderFactory.targetColumns(spec, table);
    }

    @Override
    public Decoder decoder(TargetColumns columns) {
        return DecoderFactory.create(spec, columns);
    }

    @Override
    public List<Transform> transforms(TargetColumns columns) {
        return Transforms.forPipeline(spec, columns, Clock.SYSTEM);
    }

    @Override
    public DeadLetters deadLetters() throws IOException {
        return FileDeadLetters.open(spec.errors().deadLetterPath());
    }
}
