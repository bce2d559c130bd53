package dev.sluice.cli;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.kafka.KafkaSources;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.avro.WriterSchemas;
import dev.sluice.pipeline.decode.avro.registry.RegistrySchemas;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.FileDeadLetters;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.Transforms;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The pipeline's parts built from a {@link PipelineSpec}. File and generator sources keep their
 * positions in the runtime's checkpoint directory; sources that keep them elsewhere ignore it.
 */
final class SpecFactories implements Factories {
    private final PipelineSpec spec;
    private final Clock clock;
    private final InputStream stdin;
    private List<Source> sources;
    private DeadLetters deadLetters;
    private WriterSchemas writerSchemas;

    SpecFactories(PipelineSpec spec, Clock clock, InputStream stdin) {
        this.spec = spec;
        this.clock = clock;
        this.stdin = stdin;
    }

    /**
     * All readers' sources come from one call, so inputs are resolved once and every partition has
     * exactly one owner.
     */
    @Override
    public synchronized Source source(int reader, int readers, LocalCheckpoints checkpoints)
            throws IOException {
        if (spec.source() instanceof PipelineSpec.KafkaSource kafka) {
            // A member of the group per pipeline thread; positions live in the group.
            return KafkaSources.create(kafka, spec.name(), reader, clock);
        }
        if (sources == null) {
            sources =
                    SourceFactory.create(
                            spec.source(), spec.decode(), readers, checkpoints, clock, stdin);
        }
        return sources.get(reader);
    }

    @Override
    public TargetColumns targetColumns(TableSchema table) {
        return DecoderFactory.targetColumns(spec, table);
    }

    @Override
    public Decoder decoder(TargetColumns columns) {
        return DecoderFactory.create(
                spec, columns, spec.decode().format() == Format.AVRO ? writerSchemas() : null);
    }

    /**
     * One registry client for all pipeline threads, so that each schema id is fetched once; null
     * for raw Avro.
     */
    private synchronized WriterSchemas writerSchemas() {
        if (writerSchemas == null && spec.decode().avro().framing() == AvroFraming.CONFLUENT) {
            writerSchemas = RegistrySchemas.open(spec.decode().avro().registry());
        }
        return writerSchemas;
    }

    @Override
    public List<Transform> transforms(TargetColumns columns) {
        return Transforms.forPipeline(spec, columns, clock);
    }

    @Override
    public synchronized DeadLetters deadLetters() throws IOException {
        if (deadLetters == null) {
            deadLetters = FileDeadLetters.open(spec.errors().deadLetterPath());
        }
        return deadLetters;
    }
}
