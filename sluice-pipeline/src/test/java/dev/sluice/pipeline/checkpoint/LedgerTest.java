package dev.sluice.pipeline.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest {
    @TempDir Path dir;

    @Test
    void entriesSurviveAReopenAndThoseBehindTheCommittedPositionAreDropped() throws IOException {
        try (Ledger l = Ledger.open(dir, Map.of())) {
            l.record(new LedgerEntry("a", 0, 90, 1));
            l.record(new LedgerEntry("a", 100, 190, 0));
            l.record(new LedgerEntry("b", 0, 40, 1));
        }
        try (Ledger l = Ledger.open(dir, Map.of("a", 100L))) {
            assertThat(l.replay("a")).containsExactly(new LedgerEntry("a", 100, 190, 0));
            assertThat(l.replay("b")).containsExactly(new LedgerEntry("b", 0, 40, 1));
            assertThat(l.replay("c")).isEmpty();
            assertThat(l.liveEntries()).isEqualTo(2);
        }
        assertThat(Files.readAllLines(dir.resolve(Ledger.FILE))).hasSize(3); // header + 2
    }

    @Test
    void theRunIdIsKeptAcrossReopensAndNewForANewDirectory(@TempDir Path other) throws IOException {
        String run;
        try (Ledger l = Ledger.open(dir, Map.of())) {
            run = l.run();
            l.record(new LedgerEntry("a", 0, 9, 0));
        }
        try (Ledger l = Ledger.open(dir, Map.of("a", 10L))) {
            assertThat(l.run()).isEqualTo(run).hasSize(12);
        }
        try (Ledger l = Ledger.open(other, Map.of())) {
            assertThat(l.run()).isNotEqualTo(run);
        }
    }

    @Test
    void aTornLastLineIsIgnored() throws IOException {
        try (Ledger l = Ledger.open(dir, Map.of())) {
            l.record(new LedgerEntry("a", 0, 90, 1));
        }
        Files.writeString(
                dir.resolve(Ledger.FILE), "{\"p\":\"a\",\"f\":100,", StandardOpenOption.APPEND);
        try (Ledger l = Ledger.open(dir, Map.of())) {
            assertThat(l.replay("a")).containsExactly(new LedgerEntry("a", 0, 90, 1));
        }
    }

    @Test
    void aCorruptLineInTheMiddleIsAnError() throws IOException {
        Files.writeString(
                dir.resolve(Ledger.FILE),
                "{\"sluice_ledger\":1}\nnot json\n{\"p\":\"a\",\"f\":0,\"l\":1,\"s\":0}\n",
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Ledger.open(dir, Map.of()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void aLaterOverlappingEntryReplacesAnEarlierOne() throws IOException {
        try (Ledger l = Ledger.open(dir, Map.of())) {
            l.record(new LedgerEntry("a", 0, 90, 1));
            l.record(new LedgerEntry("a", 0, 40, 0)); // a replayed batch sealed early
            l.record(new LedgerEntry("a", 50, 70, 1));
        }
        try (Ledger l = Ledger.open(dir, Map.of())) {
            assertThat(l.replay("a"))
                    .containsExactly(
                            new LedgerEntry("a", 0, 40, 0), new LedgerEntry("a", 50, 70, 1));
        }
    }

    @Test
    void pruningRewritesTheFileOnceObsoleteEntriesPileUp() throws IOException {
        try (Ledger l = Ledger.open(dir, Map.of())) {
            for (int i = 0; i < 2200; i++) {
                l.record(new LedgerEntry("a", i * 10L, i * 10L + 9, 0));
                l.prune("a", i * 10L); // everything before the batch just recorded is committed
            }
            assertThat(l.liveEntries()).isEqualTo(1);
        }
        assertThat(Files.readAllLines(dir.resolve(Ledger.FILE)).size()).isLessThan(300);
    }

    @Test
    void partitionNamesWithAnyCharactersRoundTrip() throws IOException {
        String odd = "/data/a \"quoted\"\n\tname ü.json";
        try (Ledger l = Ledger.open(dir, Map.of())) {
            l.record(new LedgerEntry(odd, 5, 6, 2));
        }
        try (Ledger l = Ledger.open(dir, Map.of())) {
            assertThat(l.replay(odd)).containsExactly(new LedgerEntry(odd, 5, 6, 2));
        }
    }
}
