package dev.sluice.pipeline.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.Clock;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SourceFactoryTest {
    private static DecodeSpec decode(Format f) {
        return new DecodeSpec(f, List.of(), false, Map.of(), false, ',');
    }

    @Test
    void stdinIsReadByTheFirstReaderOnly() throws Exception {
        var in = new ByteArrayInputStream("a,\"b\nc\"\nd\n".getBytes(StandardCharsets.UTF_8));
        List<Source> s =
                SourceFactory.create(
                        new PipelineSpec.StdinSource(100),
                        decode(Format.CSV),
                        3,
                        LocalCheckpoints.inMemory(),
                        Clock.SYSTEM,
                        in);
        assertThat(s).hasSize(3);
        assertThat(Rec.drain(s.get(0), 10, 1000, 100_000_000L))
                .extracting(Rec::text)
                .containsExactly("a,\"b\nc\"", "d");
        assertThat(s.get(1).poll(new PolledRecords(), 10, 0)).isEqualTo(-1);
        assertThat(s.get(2).name()).isEqualTo("stdin");
    }

    @Test
    void aDashAmongFilePathsIsStdin() throws Exception {
        var in = new ByteArrayInputStream("{}\n".getBytes(StandardCharsets.UTF_8));
        List<Source> s =
                SourceFactory.create(
                        new PipelineSpec.FileSource(List.of("-"), false, 100),
                        decode(Format.JSON),
                        1,
                        LocalCheckpoints.inMemory(),
                        Clock.SYSTEM,
                        in);
        assertThat(s.get(0).name()).isEqualTo("stdin");
        assertThat(Rec.drain(s.get(0), 10, 1000, 100_000_000L)).hasSize(1);
    }

    @Test
    void theGeneratorMakesOneSourcePerReader() throws Exception {
        List<Source> s =
                SourceFactory.create(
                        new PipelineSpec.GeneratorSource(9, 0, 1, 16),
                        decode(Format.GENERATOR),
                        3,
                        LocalCheckpoints.inMemory(),
                        Clock.SYSTEM);
        assertThat(s).hasSize(3).allMatch(x -> x.name().equals("generator"));
    }

    @Test
    void theGeneratorAndItsFormatGoTogether() {
        assertThatThrownBy(
                        () ->
                                SourceFactory.create(
                                        new PipelineSpec.GeneratorSource(9, 0, 1, 16),
                                        decode(Format.JSON),
                                        1,
                                        LocalCheckpoints.inMemory(),
                                        Clock.SYSTEM))
                .hasMessageContaining("generator");
        assertThatThrownBy(
                        () ->
                                SourceFactory.create(
                                        new PipelineSpec.StdinSource(100),
                                        decode(Format.GENERATOR),
                                        1,
                                        LocalCheckpoints.inMemory(),
                                        Clock.SYSTEM))
                .hasMessageContaining("generator");
    }
}
