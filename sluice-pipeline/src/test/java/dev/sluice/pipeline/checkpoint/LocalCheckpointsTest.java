package dev.sluice.pipeline.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.source.Checkpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCheckpointsTest {
    @TempDir Path dir;

    private static Checkpoint at(long position, LedgerEntry... inFlight) {
        return new Checkpoint(position, null, List.of(inFlight));
    }

    @Test
    void positionsBoundariesAndTheRunSurviveAReopen() throws IOException {
        String run;
        try (LocalCheckpoints c = LocalCheckpoints.open(dir, "events")) {
            run = c.run();
            c.commit(Map.of("a", at(0, new LedgerEntry("a", 0, 90, 1, 7))));
            c.commit(Map.of("a", at(100, new LedgerEntry("a", 100, 190, 0, 8))));
        }
        try (LocalCheckpoints again = LocalCheckpoints.open(dir, "events")) {
            Checkpoint cp = again.checkpoint("a");
            assertThat(cp.position()).isEqualTo(100);
            assertThat(cp.run()).isEqualTo(run);
            // The batch behind the position is pruned; the one past it is kept, with its now().
            assertThat(cp.inFlight()).containsExactly(new LedgerEntry("a", 100, 190, 0, 8));
            assertThat(again.checkpoint("b")).isEqualTo(new Checkpoint(-1, run, List.of()));
        }
    }

    @Test
    void boundariesAreDurableBeforeThePositionEverMoves() throws IOException {
        try (LocalCheckpoints c = LocalCheckpoints.open(dir, "events")) {
            c.commit(Map.of("a", at(-1, new LedgerEntry("a", 0, 90, 0, 1))));
        }
        assertThat(Files.readString(dir.resolve("ledger.jsonl")))
                .contains("{\"p\":\"a\",\"f\":0,\"l\":90,\"s\":0,\"n\":1}");
        try (LocalCheckpoints again = LocalCheckpoints.open(dir, "events")) {
            assertThat(again.checkpoint("a").position()).isEqualTo(-1);
            assertThat(again.checkpoint("a").inFlight()).hasSize(1);
        }
    }

    @Test
    void identitiesAreKeptWithTheNextCommitAndStartingOverForgetsTheOldInput() throws IOException {
        try (LocalCheckpoints c = LocalCheckpoints.open(dir, "events")) {
            c.identify("a", "id-1");
            c.commit(Map.of("a", at(50, new LedgerEntry("a", 50, 60, 0, 1))));
        }
        try (LocalCheckpoints c = LocalCheckpoints.open(dir, "events")) {
            assertThat(c.identity("a")).isEqualTo("id-1");
            String jobRun = c.run();
            c.startOver("a", "id-2");
            Checkpoint cp = c.checkpoint("a");
            assertThat(cp.position()).isEqualTo(-1);
            assertThat(cp.inFlight()).isEmpty();
            assertThat(cp.run()).isNotEqualTo(jobRun);
        }
        try (LocalCheckpoints c = LocalCheckpoints.open(dir, "events")) {
            assertThat(c.identity("a")).isEqualTo("id-2");
            assertThat(c.checkpoint("a").inFlight()).isEmpty(); // durable, not only in memory
            assertThat(c.checkpoint("a").run()).isNotEqualTo(c.run());
        }
    }

    @Test
    void inMemoryCheckpointsBehaveAlikeWithoutFiles() throws IOException {
        LocalCheckpoints c = LocalCheckpoints.inMemory(Map.of("a", 10L));
        assertThat(c.durable()).isFalse();
        assertThat(c.checkpoint("a").position()).isEqualTo(10);
        c.commit(Map.of("a", at(20, new LedgerEntry("a", 20, 30, 0, 1))));
        assertThat(c.checkpoint("a").position()).isEqualTo(20);
        assertThat(c.checkpoint("a").inFlight()).hasSize(1);
        assertThat(Files.list(dir)).isEmpty();
    }
}
