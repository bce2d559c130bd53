package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.status.Fate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the attempts found of a group's INSERTs add up to whether the group was written. */
class GroupLookupTest {
    private static final String G = "t@r/kafka/g00000000000000ab.3/1";

    private static Map<String, Fate> fates(Object... idAndFate) {
        Map<String, Fate> m = new LinkedHashMap<>();
        for (int i = 0; i < idAndFate.length; i += 2) {
            m.put((String) idAndFate[i], (Fate) idAndFate[i + 1]);
        }
        return m;
    }

    private static GroupLookup.Verdict verdict(Object... idAndFate) {
        return GroupLookup.judge(fates(idAndFate)).verdict();
    }

    @Test
    void onlyTheGroupsOwnInsertsCount() {
        assertThat(GroupLookup.ofGroup(G, G + "#n.1")).isTrue();
        assertThat(GroupLookup.ofGroup(G, G + "/g0#n.1/2")).isTrue();
        assertThat(GroupLookup.ofGroup(G, G + "/p1/g0#n.2/4")).isTrue();
        assertThat(GroupLookup.ofGroup(G, G + "0#n.1")).as("shard 10's group").isFalse();
        assertThat(GroupLookup.ofGroup(G + "/k1", G + "/k10#n.1")).isFalse();
        assertThat(GroupLookup.ofGroup(G, G)).isFalse();
        assertThat(GroupLookup.ofGroup(G, G + "/g0")).as("no attempt").isFalse();
    }

    @Test
    void theNumberOfInsertsComesFromTheQueryId() {
        assertThat(GroupLookup.insertsOf("n0nce.1")).isEqualTo(1);
        assertThat(GroupLookup.insertsOf("n0nce.3/4")).isEqualTo(4);
        assertThat(GroupLookup.insertsOf("n0nce.3/x")).isEqualTo(1);
    }

    @Test
    void writtenWhenEveryInsertHasAWrittenAttempt() {
        assertThat(verdict(G + "#a.1", Fate.NOT_WRITTEN, G + "#b.1", Fate.WRITTEN))
                .isEqualTo(GroupLookup.Verdict.WRITTEN);
        assertThat(verdict(G + "/g0#a.1/2", Fate.WRITTEN, G + "/g1#a.1/2", Fate.WRITTEN))
                .isEqualTo(GroupLookup.Verdict.WRITTEN);
    }

    @Test
    void aGroupOfSeveralInsertsNotAllFoundWrittenIsUnknown() {
        GroupLookup.Verdict v =
                verdict(G + "/g0#a.1/3", Fate.WRITTEN, G + "/g1#a.1/3", Fate.WRITTEN);
        assertThat(v).isEqualTo(GroupLookup.Verdict.UNKNOWN);
        assertThat(verdict(G + "/g0#a.1/2", Fate.WRITTEN, G + "/g1#a.1/2", Fate.NOT_WRITTEN))
                .isEqualTo(GroupLookup.Verdict.UNKNOWN);
        assertThat(verdict(G + "#a.1", Fate.PARTIAL)).isEqualTo(GroupLookup.Verdict.UNKNOWN);
        assertThat(verdict(G + "#a.1", Fate.STARTED)).isEqualTo(GroupLookup.Verdict.UNKNOWN);
    }

    @Test
    void notWrittenOnlyWhenEveryAttemptFailedAndNotFoundWhenThereIsNone() {
        assertThat(verdict(G + "#a.1", Fate.NOT_WRITTEN, G + "#a.2", Fate.NOT_WRITTEN))
                .isEqualTo(GroupLookup.Verdict.NOT_WRITTEN);
        assertThat(verdict()).isEqualTo(GroupLookup.Verdict.NOT_FOUND);
    }

    @Test
    void aRunningInsertIsWaitedFor() {
        assertThat(verdict(G + "#a.1", Fate.NOT_WRITTEN, G + "#a.2", Fate.RUNNING)).isNull();
    }

    @Test
    void anInsertSentInPartsIsInDoubtUnlessNoneOfItWasWritten() {
        // refused whole, then its halves written: were there more rows than the parts cover?
        GroupLookup.Judgement j =
                GroupLookup.judge(
                        fates(
                                G + "#a.1",
                                Fate.NOT_WRITTEN,
                                G + "/r0-499#a.1",
                                Fate.WRITTEN,
                                G + "/r500-999#a.1",
                                Fate.WRITTEN));
        assertThat(j.verdict()).isEqualTo(GroupLookup.Verdict.UNKNOWN);
        assertThat(j.reason()).contains("sent in parts");
        assertThat(verdict(G + "#a.1", Fate.NOT_WRITTEN, G + "/r0-499#a.1", Fate.NOT_WRITTEN))
                .isEqualTo(GroupLookup.Verdict.NOT_WRITTEN);
        assertThat(verdict(G + "#a.1", Fate.NOT_WRITTEN, G + "/r0-499#a.1", Fate.RUNNING)).isNull();
        // the parts of one INSERT of two count as that INSERT, not as more INSERTs
        assertThat(verdict(G + "/g0#a.1/2", Fate.WRITTEN, G + "/g1/r0-9#a.1/2", Fate.WRITTEN))
                .isEqualTo(GroupLookup.Verdict.UNKNOWN);
    }

    @Test
    void thePartsTokenNamesItsInsert() {
        assertThat(InsertParts.wholeToken(G + "/g1/r0-9")).isEqualTo(G + "/g1");
        assertThat(InsertParts.wholeToken(G + "/r10-19")).isEqualTo(G);
        assertThat(InsertParts.wholeToken(G)).isEqualTo(G);
        assertThat(InsertParts.wholeToken("t@r/kafka/events-3/r"))
                .isEqualTo("t@r/kafka/events-3/r");
    }
}
