package dev.sluice.pipeline.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PositionStoreTest {
    @TempDir Path dir;

    @Test
    void committedPositionsSurviveAReopen() throws Exception {
        PositionStore store = PositionStore.inDirectory(dir.resolve("state/p"));
        store.commit("/data/a \"quoted\".csv", 123);
        store.commit("gen-0-of-1", 9_000_000_000L);
        store.commit("/data/a \"quoted\".csv", 456);
        PositionStore again = PositionStore.inDirectory(dir.resolve("state/p"));
        assertThat(again.positions())
                .isEqualTo(Map.of("/data/a \"quoted\".csv", 456L, "gen-0-of-1", 9_000_000_000L));
        assertThat(again.position("missing")).isEmpty();
        assertThat(Files.list(dir.resolve("state/p"))).containsExactly(again.file());
    }

    @Test
    void aCrashBetweenWriteAndRenameLeavesTheOldStateReadable() throws Exception {
        Path file = dir.resolve(PositionStore.FILE_NAME);
        PositionStore store = PositionStore.open(file);
        store.commit("a", 10);
        byte[] before = Files.readAllBytes(file);

        // The next commit gets as far as its temporary file, then the process dies.
        Path temp =
                AtomicFile.writeTemporary(
                        file,
                        "{\"version\":1,\"positions\":{\"a\":20}}"
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(temp).exists();
        assertThat(Files.readAllBytes(file)).isEqualTo(before);

        PositionStore recovered = PositionStore.open(file);
        assertThat(recovered.position("a")).hasValue(10);
        assertThat(temp).doesNotExist();
    }

    @Test
    void aHalfWrittenTemporaryFileIsIgnored() throws Exception {
        Path file = dir.resolve(PositionStore.FILE_NAME);
        PositionStore.open(file).commit("a", 10);
        Files.writeString(AtomicFile.temporary(file), "{\"version\":1,\"posi");
        assertThat(PositionStore.open(file).position("a")).hasValue(10);
    }

    @Test
    void aCorruptStateFileIsAnErrorNamingIt() throws Exception {
        Path file = dir.resolve(PositionStore.FILE_NAME);
        Files.writeString(file, "{\"version\":2,\"positions\":{}}");
        assertThatThrownBy(() -> PositionStore.open(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("version 1");
        Files.writeString(file, "not json");
        assertThatThrownBy(() -> PositionStore.open(file)).hasMessageContaining(file.toString());
    }

    @Test
    void aFailedSaveKeepsThePreviousPositionAndSaysWhere() throws Exception {
        Path sub = dir.resolve("gone");
        PositionStore store = PositionStore.inDirectory(sub);
        store.commit("a", 1);
        Files.delete(sub.resolve(PositionStore.FILE_NAME));
        Files.delete(sub);
        assertThatThrownBy(() -> store.commit("a", 2))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot save");
        assertThat(store.position("a")).hasValue(1);
    }

    @Test
    void startingOverForgetsWhatWasKeptAndKeepsWhatComesNext() throws Exception {
        PositionStore.inDirectory(dir).commit("a", 10);
        PositionStore fresh = PositionStore.startOver(dir);
        assertThat(fresh.positions()).isEmpty();
        assertThat(PositionStore.inDirectory(dir).positions()).isEmpty();
        fresh.commit("b", 3);
        assertThat(PositionStore.inDirectory(dir).positions()).isEqualTo(Map.of("b", 3L));
    }

    @Test
    void anInMemoryStoreCanStartFromPositionsKeptElsewhere() throws Exception {
        PositionStore store = PositionStore.inMemory(Map.of("a", 7L));
        assertThat(store.position("a")).hasValue(7);
        store.commit("a", 9);
        assertThat(store.positions()).isEqualTo(Map.of("a", 9L));
    }

    @Test
    void anInMemoryStoreKeepsPositionsForTheRunOnly() throws Exception {
        PositionStore store = PositionStore.inMemory();
        store.commit("a", 5);
        assertThat(store.position("a")).hasValue(5);
        assertThat(store.file()).isNull();
    }
}
