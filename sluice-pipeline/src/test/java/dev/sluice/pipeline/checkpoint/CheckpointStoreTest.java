package dev.sluice.pipeline.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
    @TempDir Path dir;

    @Test
    void positionsSurviveAReopenAndMergeAcrossSaves() throws IOException {
        CheckpointStore s = CheckpointStore.open(dir.resolve("cp"), "events");
        s.save(Map.of("a", 10L, "b", 20L));
        s.save(Map.of("a", 30L));
        CheckpointStore again = CheckpointStore.open(dir.resolve("cp"), "events");
        assertThat(again.positions())
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", 30L, "b", 20L));
        assertThat(Files.exists(dir.resolve("cp").resolve(CheckpointStore.FILE + ".tmp")))
                .isFalse();
    }

    @Test
    void anotherPipelinesDirectoryIsRefused() throws IOException {
        CheckpointStore.open(dir, "events").save(Map.of("a", 1L));
        assertThatThrownBy(() -> CheckpointStore.open(dir, "other"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("pipeline 'events'");
    }

    @Test
    void aCorruptFileIsAnErrorNamingIt() throws IOException {
        Files.writeString(dir.resolve(CheckpointStore.FILE), "{\"positions\":{\"a\":\"x\"}}");
        assertThatThrownBy(() -> CheckpointStore.open(dir, "events"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(CheckpointStore.FILE);
    }
}
