package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property 2 across a crash: batches sent before it are re-created after it with the same
 * boundaries, shard and token, even when the batching settings changed in between.
 */
class LedgerReplayTest {
    @TempDir Path dir;

    private static String row(long k) {
        return k + ",r" + k;
    }

    private ThreadHarness run(LocalCheckpoints checkpoints, int maxRows, long records) {
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.maxRows = maxRows;
        h.source.partition("p", records, LedgerReplayTest::row);
        h.source.partition("q", records, k -> row(k + 1000));
        return h.start();
    }

    private LocalCheckpoints open() throws java.io.IOException {
        return LocalCheckpoints.open(dir, "test");
    }

    @Test
    void aReplayAfterACrashReSealsTheRecordedBatchesWithTheirTokens() throws Exception {
        LocalCheckpoints first = open();
        ThreadHarness before = run(first, 7, 60);
        before.turns(2); // both partitions read; nothing acknowledged, nothing committed
        List<SealedBatch> sent = List.copyOf(before.batches());
        assertThat(sent).hasSize(18); // 9 batches of 7, 7, ..., 4 rows per partition
        first.close(); // crash: no acknowledgement reached the tracker

        LocalCheckpoints second = open();
        ThreadHarness after = run(second, 25, 60); // other settings now
        after.runToEnd(20);

        assertThat(after.batches())
                .extracting(SealedBatch::token)
                .containsExactlyInAnyOrderElementsOf(
                        sent.stream().map(SealedBatch::token).toList());
        assertThat(after.batches()).allMatch(SealedBatch::replayed);
        assertThat(after.batches()).extracting(SealedBatch::reason).containsOnly(SealReason.REPLAY);
        second.close();
    }

    @Test
    void aReplayFromACommittedPositionReCreatesOnlyTheBatchesAfterIt() throws Exception {
        LocalCheckpoints first = open();
        ThreadHarness before = run(first, 10, 50);
        before.turns(1); // one partition read, batches of 10
        List<SealedBatch> sent = List.copyOf(before.batches());
        assertThat(sent).hasSize(5);
        before.sink.ack(sent.get(0));
        before.sink.ack(sent.get(1));
        before.clock.advanceMillis(10_000);
        before.turns(1); // the commit: position 200 of the first partition
        String partition = sent.get(0).partition();
        assertThat(before.source.commits()).containsEntry(partition, 200L);
        first.close();

        LocalCheckpoints second = open();
        assertThat(second.checkpoint(partition).position()).isEqualTo(200L);
        ThreadHarness after = new ThreadHarness();
        after.checkpoints = second;
        after.maxRows = 3;
        after.lingerNanos = 1; // would seal after every poll, were the batches not replayed
        after.source.partition(
                partition, 50, partition.equals("p") ? LedgerReplayTest::row : k -> row(k + 1000));
        after.start().runToEnd(20);

        assertThat(after.batches())
                .extracting(SealedBatch::token)
                .containsExactlyElementsOf(
                        sent.subList(2, 5).stream().map(SealedBatch::token).toList());
        assertThat(after.batches()).extracting(SealedBatch::rows).containsExactly(10, 10, 10);
        second.close();
    }

    @Test
    void recordsBeyondTheLedgerAreBatchedByTheCurrentSettings() throws Exception {
        LocalCheckpoints first = open();
        ThreadHarness before = new ThreadHarness();
        before.checkpoints = first;
        before.maxRows = 4;
        before.source.live("p", LedgerReplayTest::row);
        before.start();
        before.source.offer("p", 9); // batches 0-3, 4-7 sealed; row 8 open when it crashes
        before.turns(1);
        assertThat(before.batches()).hasSize(2);
        first.close();

        LocalCheckpoints second = open();
        ThreadHarness after = new ThreadHarness();
        after.checkpoints = second;
        after.maxRows = 5;
        after.source.partition("p", 20, LedgerReplayTest::row);
        after.start().runToEnd(20);

        assertThat(after.batches()).extracting(SealedBatch::rows).containsExactly(4, 4, 5, 5, 2);
        assertThat(after.batches().get(0).token()).isEqualTo(before.batches().get(0).token());
        assertThat(after.batches().get(1).token()).isEqualTo(before.batches().get(1).token());
        assertThat(after.batches().get(2).firstPosition()).isEqualTo(80);
        second.close();
    }

    @Test
    void aReplayedBatchComputesWithTheNowOfTheOriginal() throws Exception {
        // Loss path 4: a DEFAULT or partition key with now() must come out the same in a replay,
        // or a server that compares blocks (ReplicatedMergeTree) keeps both copies.
        LocalCheckpoints first = open();
        ThreadHarness before = run(first, 10, 20);
        before.clock.advanceMillis(3_000);
        before.turns(2);
        List<SealedBatch> sent = List.copyOf(before.batches());
        assertThat(sent).extracting(SealedBatch::nowSeconds).containsOnly(1_700_000_003L);
        first.close();

        LocalCheckpoints second = open();
        ThreadHarness after = run(second, 10, 20);
        after.clock.advanceMillis(3_600_000); // an hour later
        after.runToEnd(20);
        assertThat(after.batches()).allMatch(SealedBatch::replayed);
        assertThat(after.batches())
                .extracting(SealedBatch::nowSeconds)
                .containsOnly(1_700_000_003L);
    }
}
