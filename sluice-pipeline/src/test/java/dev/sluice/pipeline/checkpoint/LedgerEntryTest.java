package dev.sluice.pipeline.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LedgerEntryTest {
    @Test
    void aGroupKeepsItsRunThroughTheMarkOfAMemberSentAlone() {
        String group = LedgerEntry.groupWithRun("9f2c3b1a77d0e4f1.3", "4f1c9a0b27e3");
        LedgerEntry e = new LedgerEntry("b", 0, 699, 0, 1764741600, group);
        assertThat(e.baseGroup()).isEqualTo("9f2c3b1a77d0e4f1.3");
        assertThat(e.groupRun()).isEqualTo("4f1c9a0b27e3");
        assertThat(e.members()).isEqualTo(3);
        LedgerEntry alone = e.alone();
        assertThat(alone.sentAlone()).isTrue();
        assertThat(alone.baseGroup()).isEqualTo("9f2c3b1a77d0e4f1.3");
        assertThat(alone.groupRun()).isEqualTo("4f1c9a0b27e3");
        assertThat(alone.members()).isEqualTo(3);
    }

    @Test
    void aGroupRecordedWithoutItsRunStillReads() {
        LedgerEntry old = new LedgerEntry("b", 0, 699, 0, 1764741600, "9f2c3b1a77d0e4f1.3~a");
        assertThat(old.sentAlone()).isTrue();
        assertThat(old.baseGroup()).isEqualTo("9f2c3b1a77d0e4f1.3");
        assertThat(old.groupRun()).isNull();
        assertThat(old.members()).isEqualTo(3);
    }

    @Test
    void aRunThatCouldNotTravelIsLeftOut() {
        assertThat(LedgerEntry.groupWithRun("9f2c3b1a77d0e4f1.3", "a:b,c"))
                .isEqualTo("9f2c3b1a77d0e4f1.3");
        assertThat(LedgerEntry.groupWithRun("9f2c3b1a77d0e4f1.3", null))
                .isEqualTo("9f2c3b1a77d0e4f1.3");
    }

    @Test
    void anEntryWithoutAGroupHasNoGroupRun() {
        LedgerEntry e = new LedgerEntry("a", 0, 9, 0);
        assertThat(e.groupRun()).isNull();
        assertThat(e.baseGroup()).isNull();
        assertThat(e.members()).isEqualTo(1);
    }
}
