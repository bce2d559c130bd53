package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many partitions, few inserts: a source whose partitions are read side by side (Kafka) gets one
 * batch for all of them, each partition's range recorded with the batch's group, and a replay that
 * owns every partition re-creates the very batch — same rows, same order, same token.
 */
class CombinedBatchTest {
    @TempDir Path dir;

    private static String row(String p, long k) {
        return (p.charAt(0) * 1000 + k) + ",r" + k;
    }

    private ThreadHarness harness(LocalCheckpoints checkpoints, String... partitions) {
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.shards = 2;
        h.source.interleaving();
        for (String p : partitions) {
            h.source.live(p, k -> row(p, k));
        }
        return h;
    }

    private static List<Long> values(SealedBatch b) {
        List<Long> v = new ArrayList<>();
        for (int r = 0; r < b.rows(); r++) {
            v.add(b.block().column(0).getLong(r));
        }
        return v;
    }

    @Test
    void oneBatchGathersEveryPartitionInPartitionOrderAndAcksThemAll() {
        ThreadHarness h = harness(LocalCheckpoints.inMemory(), "c", "a", "b");
        h.start();
        h.source.offer("a", 3);
        h.source.offer("b", 2);
        h.source.offer("c", 4);
        h.turns(4);
        assertThat(h.batches()).isEmpty();
        h.clock.advanceMillis(1_000); // linger: one round for all three
        h.turns(1);

        assertThat(h.batches()).hasSize(1);
        SealedBatch b = h.batches().get(0);
        assertThat(b.segments())
                .extracting(SealedBatch.Segment::partition)
                .containsExactly("a", "b", "c");
        assertThat(b.rows()).isEqualTo(9);
        assertThat(values(b))
                .containsExactly(
                        97_000L, 97_001L, 97_002L, 98_000L, 98_001L, 99_000L, 99_001L, 99_002L,
                        99_003L);
        assertThat(b.token()).matches("test@.+/mem/g[0-9a-f]{16}\\.3/[01]");
        assertThat(b.segments())
                .allMatch(sg -> sg.bounds().baseGroup().endsWith(".3"))
                .allMatch(sg -> b.token().contains("@" + sg.bounds().groupRun() + "/"))
                .allMatch(sg -> sg.bounds().shard() == b.shard());

        h.sink.ackAll();
        h.clock.advanceMillis(5_000);
        h.turns(2);
        assertThat(h.source.commits())
                .containsEntry("a", 30L)
                .containsEntry("b", 20L)
                .containsEntry("c", 40L);
    }

    @Test
    void aRoundIsSealedByTheSizeOfAllItsPartitionsTogether() {
        ThreadHarness h = harness(LocalCheckpoints.inMemory(), "a", "b");
        h.maxRows = 10;
        h.start();
        h.source.offer("a", 6);
        h.source.offer("b", 6);
        h.turns(3);
        assertThat(h.batches()).hasSize(1);
        assertThat(h.batches().get(0).rows()).isEqualTo(10);
        assertThat(h.batches().get(0).reason()).isEqualTo(SealReason.ROWS);
    }

    @Test
    void aReplayOwningEveryPartitionReCreatesTheBatchWholeWithItsToken() throws Exception {
        LocalCheckpoints first = LocalCheckpoints.open(dir, "test");
        ThreadHarness before = harness(first, "a", "b", "c");
        before.start();
        before.source.offer("a", 3);
        before.source.offer("b", 2);
        before.source.offer("c", 4);
        before.turns(4);
        before.clock.advanceMillis(1_000);
        before.turns(1);
        SealedBatch original = before.batches().get(0);
        List<Long> rows = values(original);
        first.close(); // crash: sent, never acknowledged

        LocalCheckpoints second = LocalCheckpoints.open(dir, "test");
        ThreadHarness after = harness(second, "b", "c", "a"); // assigned in another order
        after.maxRows = 2; // other settings now
        after.start();
        after.source.offer("c", 4);
        after.turns(3);
        after.source.offer("a", 3);
        after.turns(3);
        assertThat(after.batches()).isEmpty(); // b's part has not come yet
        after.source.offer("b", 2);
        after.turns(3);

        assertThat(after.batches()).hasSize(1);
        SealedBatch replay = after.batches().get(0);
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.token()).isEqualTo(original.token());
        assertThat(replay.shard()).isEqualTo(original.shard());
        assertThat(values(replay)).isEqualTo(rows); // the same block: a Replicated table drops it
        assertThat(replay.nowSeconds()).isEqualTo(original.nowSeconds());
        second.close();
    }

    @Test
    void aReplayMissingAPartitionSendsTheOthersAloneAfterLookingUpTheirBatch() throws Exception {
        LocalCheckpoints first = LocalCheckpoints.open(dir, "test");
        ThreadHarness before = harness(first, "a", "b");
        before.start();
        before.source.offer("a", 3);
        before.source.offer("b", 2);
        before.turns(3);
        before.clock.advanceMillis(1_000);
        before.turns(1);
        SealedBatch original = before.batches().get(0);
        first.close();

        LocalCheckpoints second = LocalCheckpoints.open(dir, "test");
        ThreadHarness after = harness(second, "a"); // b went to another consumer
        after.maxRows = 2; // other settings now
        after.clock.advanceMillis(60_000); // and another time
        after.start();
        after.source.offer("a", 3);
        after.turns(3);

        assertThat(after.batches()).hasSize(1);
        SealedBatch alone = after.batches().get(0);
        // Its own range's token (a server that has the group cannot tell these rows among its
        // rows), to the group's shard with the group's now(), and the group's token to look up
        // first: the writer sends it only if the group was not written (ADR 0011).
        assertThat(alone.token()).isNotEqualTo(original.token()).contains("/a/0-20/");
        assertThat(alone.token()).endsWith("/" + original.shard());
        assertThat(alone.groupToken()).isEqualTo(original.token());
        assertThat(alone.shard()).isEqualTo(original.shard());
        assertThat(alone.nowSeconds()).isEqualTo(original.nowSeconds());
        assertThat(alone.replayed()).isTrue(); // the range is the recorded one
        assertThat(alone.gathersPartitions()).isFalse();
        assertThat(values(alone)).containsExactly(97_000L, 97_001L, 97_002L);
        second.close();
        // The group's entry is kept, so that a replay after another crash looks the group up too.
        try (LocalCheckpoints again = LocalCheckpoints.open(dir, "test")) {
            List<LedgerEntry> kept = again.checkpoint("a").inFlight();
            assertThat(kept).hasSize(1);
            assertThat(kept.get(0).baseGroup()).isEqualTo(original.boundaries().baseGroup());
            assertThat(kept.get(0).groupRun()).isEqualTo(original.boundaries().groupRun());
            assertThat(kept.get(0).sentAlone()).isTrue();
            assertThat(kept.get(0).members()).isEqualTo(2);
        }
    }

    @Test
    void aPartWaitingForItsBatchIsSentAloneWhenItsPartitionReadsOnIntoTheNextBatch()
            throws Exception {
        LocalCheckpoints first = LocalCheckpoints.open(dir, "test");
        ThreadHarness before = harness(first, "a", "b");
        before.start();
        before.source.offer("a", 3);
        before.source.offer("b", 2);
        before.turns(3);
        before.clock.advanceMillis(1_000);
        before.turns(1); // group 1: a 0..20, b 0..10
        before.source.offer("a", 3);
        before.source.offer("b", 2);
        before.turns(3);
        before.clock.advanceMillis(1_000);
        before.turns(1); // group 2: a 30..50, b 20..30
        assertThat(before.batches()).hasSize(2);
        SealedBatch g1 = before.batches().get(0);
        SealedBatch g2 = before.batches().get(1);
        first.close(); // crash: neither acknowledged

        LocalCheckpoints second = LocalCheckpoints.open(dir, "test");
        ThreadHarness after = harness(second, "a", "b");
        after.start();
        after.source.offer("a", 6); // a reads through both batches' ranges before b has a record
        after.turns(4);
        // a's part of group 1 waited for b's; a read on into group 2: the waiting part is sent
        // alone (after its group is looked up), not dropped.
        assertThat(after.batches()).hasSize(1);
        SealedBatch aloneA = after.batches().get(0);
        assertThat(aloneA.groupToken()).isEqualTo(g1.token());
        assertThat(values(aloneA)).containsExactly(97_000L, 97_001L, 97_002L);

        after.source.offer("b", 4);
        after.turns(4);
        assertThat(after.batches()).hasSize(3);
        SealedBatch aloneB = after.batches().get(1);
        assertThat(aloneB.groupToken()).isEqualTo(g1.token());
        assertThat(values(aloneB)).containsExactly(98_000L, 98_001L);
        SealedBatch whole = after.batches().get(2);
        assertThat(whole.token()).isEqualTo(g2.token());
        assertThat(values(whole)).isEqualTo(values(g2));
        second.close();
    }

    @Test
    void aGroupBatchIsLookedUpByItsOwnTokenAndAPlainBatchHasNoGroup() {
        ThreadHarness h = harness(LocalCheckpoints.inMemory(), "a", "b");
        h.start();
        h.source.offer("a", 2);
        h.source.offer("b", 2);
        h.turns(3);
        h.clock.advanceMillis(1_000);
        h.turns(1);
        h.source.offer("a", 1);
        h.turns(2);
        h.clock.advanceMillis(1_000);
        h.turns(1);
        assertThat(h.batches()).hasSize(2);
        assertThat(h.batches().get(0).gathersPartitions()).isTrue();
        assertThat(h.batches().get(0).groupToken()).isNull();
        assertThat(h.batches().get(1).gathersPartitions()).isFalse();
        assertThat(h.batches().get(1).groupToken()).isNull();
    }

    @Test
    void aDrainWhileAPartWaitsForItsBatchSendsNothingOfItAndTheNextRunReplaysItWhole()
            throws Exception {
        LocalCheckpoints first = LocalCheckpoints.open(dir, "test");
        ThreadHarness before = harness(first, "a", "b");
        before.start();
        before.source.offer("a", 3);
        before.source.offer("b", 2);
        before.turns(3);
        before.clock.advanceMillis(1_000);
        before.turns(1);
        SealedBatch original = before.batches().get(0);
        first.close();

        LocalCheckpoints second = LocalCheckpoints.open(dir, "test");
        ThreadHarness drained = harness(second, "a", "b");
        drained.start();
        drained.source.offer("a", 3); // a's part complete, b's not read yet
        drained.turns(3);
        drained.lifecycle.drain();
        drained.runToEnd(10);
        assertThat(drained.batches()).isEmpty();
        second.close();

        LocalCheckpoints third = LocalCheckpoints.open(dir, "test");
        ThreadHarness last = harness(third, "a", "b");
        last.start();
        last.source.offer("a", 3);
        last.source.offer("b", 2);
        last.turns(4);
        assertThat(last.batches()).hasSize(1);
        assertThat(last.batches().get(0).token()).isEqualTo(original.token());
        third.close();
    }
}
