package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.Ledger;
import dev.sluice.pipeline.sink.Batch;
import dev.sluice.pipeline.sink.SealReason;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    private ThreadHarness run(Ledger ledger, int maxRows, long resumeAt, long records) {
        ThreadHarness h = new ThreadHarness();
        h.ledger = ledger;
        h.maxRows = maxRows;
        h.source.partition("p", records, LedgerReplayTest::row, resumeAt);
        h.source.partition("q", records, k -> row(k + 1000), resumeAt);
        if (resumeAt > 0) {
            h.resumeFrom = Map.of("p", resumeAt, "q", resumeAt);
        }
        return h.start();
    }

    @Test
    void aReplayAfterACrashReSealsTheRecordedBatchesWithTheirTokens() throws Exception {
        Ledger first = Ledger.open(dir, Map.of());
        ThreadHarness before = run(first, 7, 0, 60);
        before.turns(2); // both partitions read; nothing acknowledged, nothing committed
        List<Batch> sent = List.copyOf(before.batches());
        assertThat(sent).hasSize(18); // 9 batches of 7, 7, ..., 4 rows per partition
        first.close(); // crash: no acknowledgement reached the tracker

        Ledger second = Ledger.open(dir, Map.of());
        ThreadHarness after = run(second, 25, 0, 60); // other settings now
        after.runToEnd(20);

        assertThat(after.batches())
                .extracting(Batch::token)
                .containsExactlyInAnyOrderElementsOf(sent.stream().map(Batch::token).toList());
        assertThat(after.batches()).allMatch(Batch::replayed);
        assertThat(after.batches()).extracting(Batch::reason).containsOnly(SealReason.REPLAY);
        second.close();
    }

    @Test
    void aReplayFromACommittedPositionReCreatesOnlyTheBatchesAfterIt() throws Exception {
        Ledger first = Ledger.open(dir, Map.of());
        ThreadHarness before = run(first, 10, 0, 50);
        before.turns(1); // one partition read, batches of 10
        List<Batch> sent = List.copyOf(before.batches());
        assertThat(sent).hasSize(5);
        before.sink.ack(sent.get(0));
        before.sink.ack(sent.get(1));
        before.clock.advanceMillis(10_000);
        before.turns(1); // the commit: position 200 of the first partition
        String partition = sent.get(0).partition();
        assertThat(before.source.commits()).containsEntry(partition, 200L);
        first.close();

        Ledger second = Ledger.open(dir, Map.of(partition, 200L));
        ThreadHarness after = new ThreadHarness();
        after.ledger = second;
        after.maxRows = 3;
        after.lingerNanos = 1; // would seal after every poll, were the batches not replayed
        after.source.partition(
                partition,
                50,
                partition.equals("p") ? LedgerReplayTest::row : k -> row(k + 1000),
                200);
        after.resumeFrom = Map.of(partition, 200L);
        after.start().runToEnd(20);

        assertThat(after.batches())
                .extracting(Batch::token)
                .containsExactlyElementsOf(sent.subList(2, 5).stream().map(Batch::token).toList());
        assertThat(after.batches()).extracting(Batch::rows).containsExactly(10, 10, 10);
        second.close();
    }

    @Test
    void recordsBeyondTheLedgerAreBatchedByTheCurrentSettings() throws Exception {
        Ledger first = Ledger.open(dir, Map.of());
        ThreadHarness before = new ThreadHarness();
        before.ledger = first;
        before.maxRows = 4;
        before.source.live("p", LedgerReplayTest::row);
        before.start();
        before.source.offer("p", 9); // batches 0-3, 4-7 sealed; row 8 open when it crashes
        before.turns(1);
        assertThat(before.batches()).hasSize(2);
        first.close();

        Ledger second = Ledger.open(dir, Map.of());
        ThreadHarness after = new ThreadHarness();
        after.ledger = second;
        after.maxRows = 5;
        after.source.partition("p", 20, LedgerReplayTest::row);
        after.start().runToEnd(20);

        assertThat(after.batches()).extracting(Batch::rows).containsExactly(4, 4, 5, 5, 2);
        assertThat(after.batches().get(0).token()).isEqualTo(before.batches().get(0).token());
        assertThat(after.batches().get(1).token()).isEqualTo(before.batches().get(1).token());
        assertThat(after.batches().get(2).firstPosition()).isEqualTo(80);
        second.close();
    }
}
