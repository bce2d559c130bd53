package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.source.Checkpoint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Partitions that come and go while a pipeline thread runs (a Kafka consumer group rebalancing),
 * and a source that must be polled while the pipeline is paused (property 3).
 */
class PartitionOwnershipTest {

    private static String row(long k) {
        return k + ",r" + k;
    }

    @Test
    void underBackpressureTheSourceIsPausedAndKeptAliveNeverPolled() {
        ThreadHarness h = new ThreadHarness();
        h.budgetBytes = 10_000;
        h.maxBytes = 1_000;
        h.source.partition("p", 100_000, PartitionOwnershipTest::row);
        h.start();
        h.turns(20); // fills the budget; MemorySource fails any poll while paused
        assertThat(h.budget.paused()).isTrue();
        assertThat(h.source.paused()).isTrue();
        int idles = h.source.idles();
        h.turns(50);
        assertThat(h.source.idles()).isGreaterThanOrEqualTo(idles + 50);
        assertThat(h.source.polled()).isLessThan(100_000);

        h.sink.ackAll();
        h.turns(1);
        assertThat(h.source.paused()).isFalse();
        h.runToEnd(100_000);
        assertThat(h.source.commits()).containsEntry("p", 1_000_000L);
    }

    @Test
    void aRevokedPartitionIsSealedAwaitedCommittedAndForgotten() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 1_000;
        h.source.live("p", PartitionOwnershipTest::row);
        h.source.live("q", k -> row(k + 500));
        h.start();
        h.source.offer("p", 30);
        h.source.offer("q", 20);
        h.turns(3);
        assertThat(h.batches()).isEmpty(); // both open, below max rows and linger

        // The acknowledgement comes while the revocation waits, as a writer would send it.
        h.source.revokeNext("p");
        h.sink.ackOnSubmit = true;
        h.thread.runOnce();
        h.sink.ackOnSubmit = false;

        assertThat(h.batches()).hasSize(1);
        SealedBatch revoked = h.batches().get(0);
        assertThat(revoked.partition()).isEqualTo("p");
        assertThat(revoked.reason()).isEqualTo(SealReason.REVOKE);
        assertThat(revoked.rows()).isEqualTo(30);
        // Committed synchronously, before the revocation returned: everything of p is handled.
        assertThat(h.source.commits()).containsEntry("p", 300L);
        assertThat(h.metrics.partitionsRevoked.getLongValue()).isEqualTo(1);

        h.source.offer("q", 5);
        h.turns(2);
        h.lifecycle.drain();
        h.runToEnd(10);
        assertThat(h.batches()).extracting(SealedBatch::partition).containsExactly("p", "q");
        assertThat(h.batches().get(1).rows()).isEqualTo(25);
    }

    @Test
    void aRevocationGivesUpAfterItsTimeoutAndALateAcknowledgementIsDropped() {
        ThreadHarness h = new ThreadHarness();
        h.revokeTimeoutNanos = 50_000_000L;
        h.source.live("p", PartitionOwnershipTest::row);
        h.start();
        h.source.offer("p", 10);
        h.turns(2);
        h.source.revokeNext("p");
        h.thread.runOnce(); // seals, waits 50 ms of the manual clock (nobody acknowledges), gives
        // up

        assertThat(h.batches()).hasSize(1);
        assertThat(h.metrics.revokeTimeouts.getLongValue()).isEqualTo(1);
        // Nothing acknowledged: the commit stays before the batch, so the next owner reads it.
        assertThat(h.source.commits()).containsEntry("p", 0L);

        h.sink.ack(h.batches().get(0)); // arrives after p is gone
        h.turns(2);
        assertThat(h.metrics.lateAcknowledgements.getLongValue()).isEqualTo(1);
        assertThat(h.source.commits()).containsEntry("p", 0L);
    }

    @Test
    void aPartitionAssignedAgainStartsAtItsCheckpointAndIgnoresTheOldAssignmentsAcks() {
        LocalCheckpoints checkpoints = LocalCheckpoints.inMemory();
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.revokeTimeoutNanos = 1_000_000L;
        h.source.live("p", PartitionOwnershipTest::row);
        h.source.live("q", k -> row(k + 500)); // keeps the source alive without p
        h.start();
        h.source.offer("p", 10);
        h.turns(2);
        h.source.revokeNext("p");
        h.thread.runOnce(); // sealed [0..90], not acknowledged: committed at 0
        SealedBatch first = h.batches().get(0);

        // Assigned again (as if after a rebalance): it starts at its checkpoint and replays the
        // batch in flight with its boundaries and token.
        h.source.assignNext("p", 10, PartitionOwnershipTest::row);
        h.sink.ack(first); // the old assignment's acknowledgement, late
        h.turns(3);
        h.lifecycle.drain();
        h.runToEnd(20);

        assertThat(h.metrics.lateAcknowledgements.getLongValue()).isEqualTo(1);
        SealedBatch replay = h.batches().get(1);
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.token()).isEqualTo(first.token());
        assertThat(replay.epoch()).isGreaterThan(first.epoch());
        assertThat(h.source.commits()).containsEntry("p", 100L);
    }

    @Test
    void aLostPartitionIsForgottenWithoutACommit() {
        ThreadHarness h = new ThreadHarness();
        h.source.live("p", PartitionOwnershipTest::row);
        h.source.live("q", k -> row(k + 500));
        h.start();
        h.source.offer("p", 10);
        h.source.offer("q", 10);
        h.turns(3);
        long used = h.budget.used();
        h.source.loseNext("p");
        h.thread.runOnce();
        assertThat(h.batches()).isEmpty(); // p's open batch is abandoned, never sent
        assertThat(h.source.commits()).doesNotContainKey("p");
        assertThat(h.budget.used()).isLessThanOrEqualTo(used); // its buffers went to the pool
        h.source.offer("q", 1);
        h.lifecycle.drain();
        h.runToEnd(10);
        assertThat(h.batches()).extracting(SealedBatch::partition).containsOnly("q");
    }

    @Test
    void aSourceThatCannotReadAgainIsNeverGivenAReplayPlanOrAResumePosition() throws Exception {
        // Loss path 1: a checkpoint of a previous run (a stdin partition) must not re-seal new
        // records at old boundaries under old tokens — a deduplicating server would drop them.
        LocalCheckpoints checkpoints = LocalCheckpoints.inMemory();
        checkpoints.commit(
                Map.of(
                        "stdin",
                        new Checkpoint(
                                0, "oldrun", List.of(new LedgerEntry("stdin", 0, 40, 1, 1)))));
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.source.notReplayable().partition("stdin", 10, PartitionOwnershipTest::row);
        h.start();
        h.runToEnd(20);

        assertThat(h.batches()).hasSize(1);
        SealedBatch b = h.batches().get(0);
        assertThat(b.replayed()).isFalse();
        assertThat(b.reason()).isEqualTo(SealReason.PARTITION_END);
        assertThat(b.rows()).isEqualTo(10);
        assertThat(b.token()).doesNotContain("oldrun").contains("@" + checkpoints.run() + "/");
    }

    @Test
    void batchesReachTheSinkOnlyAfterTheirBoundariesAreCommittedWithTheSource() {
        LocalCheckpoints checkpoints = LocalCheckpoints.inMemory();
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.maxRows = 4;
        h.source.partition("p", 10, PartitionOwnershipTest::row);
        h.start();
        h.thread.runOnce();
        assertThat(h.batches()).hasSize(3);
        List<LedgerEntry> kept = checkpoints.checkpoint("p").inFlight();
        assertThat(kept)
                .extracting(LedgerEntry::first, LedgerEntry::last)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0L, 30L),
                        org.assertj.core.groups.Tuple.tuple(40L, 70L),
                        org.assertj.core.groups.Tuple.tuple(80L, 90L));
        assertThat(kept).allMatch(e -> e.nowSeconds() == 1_700_000_000L);
        for (int i = 0; i < 3; i++) {
            assertThat(h.batches().get(i).boundaries()).isEqualTo(kept.get(i));
        }
    }

    @Test
    void aPartitionWithTooManyBatchesInFlightTakesNoMoreRecordsUntilTheyAreCommitted() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 1;
        h.source.partition("p", 1_000, PartitionOwnershipTest::row);
        h.start();
        h.turns(10);
        int limit = PartitionState.MAX_IN_FLIGHT_BATCHES;
        assertThat(h.batches()).hasSize(limit);
        assertThat(h.source.paused()).isTrue();
        h.turns(5);
        assertThat(h.batches()).hasSize(limit); // paused, kept alive
        h.sink.ackAll();
        h.turns(3); // the commit drops the acknowledged boundaries; reading goes on
        assertThat(h.batches().size()).isGreaterThan(limit);
        h.runToEnd(100_000);
        assertThat(h.source.commits()).containsEntry("p", 10_000L);
    }
}
