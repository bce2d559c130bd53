package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.spec.PipelineSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every file under examples/ parses, with no environment variable set (the defaults apply). */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("..", "examples");

    @Test
    void everyExampleParses() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files =
                    s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                            .sorted()
                            .toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "generator-to-clickhouse.yaml",
                        "ndjson-files.yaml",
                        "csv-with-header.yaml",
                        "tsv-sharded.yaml");
        ConfigLoader loader = new ConfigLoader(name -> null, 4);
        for (Path f : files) {
            PipelineSpec spec = loader.load(f);
            assertThat(spec.sink().shards()).as(f.toString()).isNotEmpty();
        }
    }

    @Test
    void theShardedExampleHasTwoShardsOfTwoReplicas() throws Exception {
        PipelineSpec spec =
                new ConfigLoader(name -> null, 4).load(EXAMPLES.resolve("tsv-sharded.yaml"));
        assertThat(spec.sink().shards()).hasSize(2).allMatch(s -> s.replicas().size() == 2);
        assertThat(spec.sink().shards().get(1).weight()).isEqualTo(2);
        assertThat(spec.decode().columns()).containsExactly("ts", "host", "name", "value");
    }
}
