package dev.sluice.rigs.run;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.clickhouse.http.HttpConnection;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.kafka.KafkaSources;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.Transforms;
import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The parts of a rig's pipeline, built as {@code sluice run} builds them (generator or Kafka
 * source, the spec's decoder and transforms), with two hooks on the sink's connections, both
 * through {@link Factories#inserter}, the runtime's public extension point:
 *
 * <ul>
 *   <li>an input format other than Native over HTTP: the sink's configuration has no format setting
 *       (it sends Native blocks over either transport), so the RowBinary arms wrap the HTTP
 *       connection in a {@link FormatInserter} — the same columns, the same runtime, the other
 *       encoding;
 *   <li>a decorator of every connection (the Kafka rig's latency probe).
 * </ul>
 */
public final class BenchFactories implements Factories {
    private final PipelineSpec spec;
    private final InputFormat format;
    private final UnaryOperator<BlockInserter> decorator;
    private List<Source> sources;

    /**
     * @param format the sink's input format: Native (the runtime's own path) or another format the
     *     HTTP transport encodes
     * @param decorator wraps every connection the writers open
     */
    public BenchFactories(
            PipelineSpec spec, InputFormat format, UnaryOperator<BlockInserter> decorator) {
        this.spec = spec;
        this.format = format;
        this.decorator = decorator;
    }

    public BenchFactories(PipelineSpec spec) {
        this(spec, InputFormat.NATIVE, UnaryOperator.identity());
    }

    @Override
    public synchronized Source source(int reader, int readers, LocalCheckpoints checkpoints)
            throws IOException {
        if (spec.source() instanceof PipelineSpec.KafkaSource kafka) {
            return KafkaSources.create(kafka, spec.name(), reader, Clock.SYSTEM);
        }
        if (sources == null) {
            sources =
                    SourceFactory.create(
                            spec.source(), spec.decode(), readers, checkpoints, Clock.SYSTEM);
        }
        return sources.get(reader);
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
    public DeadLetters deadLetters() {
        throw new IllegalStateException("the rigs run with on_error: fail (no dead letters)");
    }

    @Override
    public BlockInserter inserter(String url, SinkSpec sink) {
        ClickHouseClient client = ClickHouseClient.open(Factories.config(url, sink));
        BlockInserter inserter = client;
        if (format != InputFormat.NATIVE) {
            if (!(client instanceof HttpConnection http)) {
                client.close();
                throw new IllegalArgumentException(
                        format.clickHouseName()
                                + " needs the HTTP transport: the native protocol carries Native"
                                + " blocks only");
            }
            inserter = new FormatInserter(http, format);
        }
        return decorator.apply(inserter);
    }
}
