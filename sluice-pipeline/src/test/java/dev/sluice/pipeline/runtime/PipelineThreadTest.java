package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.transform.RowTransforms;
import dev.sluice.pipeline.transform.RowView;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineThreadTest {

    private static String row(long k) {
        return k + ",r" + k;
    }

    @Test
    void sealsAtMaxRowsAndAtPartitionEndThenCommitsTheEnd() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 4;
        h.source.partition("p", 10, PipelineThreadTest::row);
        h.start();
        h.turns(3);

        assertThat(h.batches()).extracting(SealedBatch::rows).containsExactly(4, 4, 2);
        assertThat(h.batches())
                .extracting(SealedBatch::reason)
                .containsExactly(SealReason.ROWS, SealReason.ROWS, SealReason.PARTITION_END);
        assertThat(h.batches().get(1).firstPosition()).isEqualTo(40);
        assertThat(h.batches().get(1).lastPosition()).isEqualTo(70);

        h.runToEnd(10);
        assertThat(h.source.commits()).containsEntry("p", 100L);
    }

    @Test
    void absentFieldsAreMarkedPerRowUnlessATransformSetsThemAndTheBatchTakesItsNowAtItsFirstRow() {
        ThreadHarness h = new ThreadHarness();
        h.table = Tables.table("t", "n UInt64", "s String DEFAULT 'none'");
        RowView view = new RowView(new TargetColumns(h.table, h.table.insertableColumns()));
        h.transforms =
                List.of(
                        RowTransforms.adapt(
                                row -> {
                                    if (row.getLong(0) == 2) {
                                        row.setString(1, "set");
                                    }
                                    return true;
                                },
                                view,
                                List.of()));
        h.source.partition("p", 4, k -> k + ",");
        h.start();
        h.clock.advanceMillis(2_500);
        h.turns(3);

        SealedBatch b = h.batches().get(0);
        assertThat(b.rows()).isEqualTo(4);
        assertThat(b.absentRows().count(1)).isEqualTo(3);
        assertThat(b.absentRows().isAbsent(1, 2)).isFalse(); // the transform's value is kept
        assertThat(b.block().column(1).getString(2)).isEqualTo("set");
        assertThat(b.block().column(1).getString(1)).isEmpty(); // the writer fills it
        assertThat(b.nowSeconds()).isEqualTo(1_700_000_002L);
    }

    @Test
    void lingerSealsAnOpenBatchOnceItsFirstRowIsOldEnough() {
        ThreadHarness h = new ThreadHarness();
        h.lingerNanos = 1_000_000_000L;
        h.source.live("p", PipelineThreadTest::row);
        h.start();
        h.source.offer("p", 3);
        h.thread.runOnce();
        assertThat(h.batches()).isEmpty();

        h.clock.advanceMillis(999);
        h.source.offer("p", 2);
        h.thread.runOnce();
        assertThat(h.batches()).isEmpty();

        h.clock.advanceMillis(1);
        h.thread.runOnce();
        assertThat(h.batches()).hasSize(1);
        assertThat(h.batches().get(0).reason()).isEqualTo(SealReason.LINGER);
        assertThat(h.batches().get(0).rows()).isEqualTo(5);
    }

    @Test
    void aDrainingThreadParksUntilItsBatchesAreSettled() {
        ThreadHarness h = new ThreadHarness();
        h.lingerNanos = 300_000_000L;
        h.source.live("p", PipelineThreadTest::row);
        h.start();
        h.source.offer("p", 1);
        h.thread.runOnce();
        h.lifecycle.drain();
        assertThat(h.batches()).isEmpty();
        long wait = h.thread.runOnce(); // seals at once, then waits for the acknowledgement
        assertThat(h.batches()).hasSize(1);
        assertThat(h.batches().get(0).reason()).isEqualTo(SealReason.DRAIN);
        assertThat(wait).isPositive();
        h.sink.ackAll();
        assertThat(h.thread.runOnce()).isZero();
        assertThat(h.thread.done()).isTrue();
    }

    @Test
    void budgetPausesPollingAtTheHighWatermarkAndResumesAtTheLowOne() {
        ThreadHarness h = new ThreadHarness();
        h.budgetBytes = 10_000;
        h.high = 0.8;
        h.low = 0.5;
        h.maxBytes = 1_000;
        h.source.partition("p", 100_000, PipelineThreadTest::row);
        h.start();

        h.turns(5);
        assertThat(h.budget.paused()).isTrue();
        long polled = h.source.polled();
        // Property 3: paused at 8000 bytes of buffer capacity, over it by at most one record's
        // growth of its buffers (a column may double: at most 512 bytes here) plus the grain.
        assertThat(h.budget.used()).isBetween(8_000L, 8_000L + 512 + 64);
        assertThat(h.source.pauses()).isEqualTo(1);
        assertThat(h.metrics.pauseEvents.getLongValue()).isEqualTo(1);

        h.turns(5);
        assertThat(h.source.polled()).isEqualTo(polled); // no poll while paused
        int processedRows = h.batches().stream().mapToInt(SealedBatch::rows).sum();

        // Acknowledged batches come back to the thread with their buffers; paused, it drops them
        // from its pool and gives their bytes back — resuming once at or below the low watermark.
        List<SealedBatch> sealed = List.copyOf(h.batches());
        int i = 0;
        while (h.batches().stream().mapToInt(SealedBatch::rows).sum() == processedRows) {
            h.sink.ack(sealed.get(i++));
            h.thread.runOnce();
        }
        // Not at the first acknowledgement: only once 3000 of the 8000 bytes came back (a batch's
        // buffers hold more than its 1000 bytes of data).
        assertThat(i).isGreaterThanOrEqualTo(2);
    }

    @Test
    void pausedWithNothingInFlightSealsOpenBatchesSoTheBudgetCanDrain() {
        ThreadHarness h = new ThreadHarness();
        h.budgetBytes = 2_000; // far below the sizing rule: open batches alone reach the watermark
        h.maxBytes = 1 << 20;
        h.source.partition("p", 10_000, PipelineThreadTest::row);
        h.start();
        h.turns(3);
        assertThat(h.batches()).isNotEmpty();
        assertThat(h.batches().get(0).reason()).isEqualTo(SealReason.BACKPRESSURE);
    }

    @Test
    void skippedRecordsAreCountedAndCommittedPast() {
        ThreadHarness h = new ThreadHarness();
        h.policy = ErrorPolicy.SKIP;
        h.source.partition("p", List.of("1,a", "!,b", "3,c"));
        h.start();
        h.runToEnd(10);

        assertThat(h.batches()).hasSize(1);
        assertThat(h.batches().get(0).rows()).isEqualTo(2);
        assertThat(h.metrics.skipped.getLongValue()).isEqualTo(1);
        assertThat(h.source.commits()).containsEntry("p", 30L);
    }

    @Test
    void deadLettersAreFlushedBeforeAPositionPastThemIsCommitted() {
        ThreadHarness h = new ThreadHarness();
        h.policy = ErrorPolicy.DEAD_LETTER;
        h.source.partition("p", List.of("1,a", "!,b", "3,c", "!,d"));
        h.start();
        h.runToEnd(10);

        assertThat(h.deadLetters.letters()).hasSize(2);
        assertThat(h.deadLetters.letters().get(0)).startsWith("p@10 !,b");
        assertThat(h.events)
                .containsSubsequence(
                        "dead-letter p 10", "dead-letter p 30", "flush", "commit p 40");
        assertThat(h.events.indexOf("flush")).isLessThan(h.events.indexOf("commit p 40"));
        assertThat(h.metrics.deadLettered.getLongValue()).isEqualTo(2);
    }

    @Test
    void recordsTheSourceCouldNotReadGoThroughTheErrorPolicy() {
        ThreadHarness h = new ThreadHarness();
        h.policy = ErrorPolicy.DEAD_LETTER;
        h.source.partition(
                "p",
                List.of("1,a", MemorySource.UNREADABLE + "record longer than 10 bytes", "3,c"));
        h.start();
        h.runToEnd(10);

        assertThat(h.deadLetters.letters())
                .singleElement()
                .asString()
                .startsWith("p@10 ")
                .endsWith(": record longer than 10 bytes");
        assertThat(h.batches()).extracting(SealedBatch::rows).containsExactly(2);
        assertThat(h.source.commits()).containsEntry("p", 30L);
    }

    @Test
    void underFailAnUnreadableRecordStopsWithTheSourcesReason() {
        ThreadHarness h = new ThreadHarness();
        h.source.partition("p", List.of("1,a", MemorySource.UNREADABLE + "unterminated quote"));
        h.start();
        h.runToEnd(10);
        assertThat(h.lifecycle.failure().reason()).isEqualTo("unterminated quote");
        assertThat(h.lifecycle.failure().location()).isEqualTo("p:2 (position 10)");
    }

    @Test
    void maxErrorsStopsThePipelineLikeFail() {
        ThreadHarness h = new ThreadHarness();
        h.policy = ErrorPolicy.SKIP;
        h.maxErrors = 1;
        h.source.partition("p", List.of("1,a", "!,b", "!,c", "4,d"));
        h.start();
        h.runToEnd(10);

        assertThat(h.lifecycle.failure().reason())
                .contains("more than 1 records were rejected")
                .contains("bad value");
        assertThat(h.lifecycle.failure().location()).isEqualTo("p:3 (position 20)");
        assertThat(h.batches()).isEmpty(); // the open batch was abandoned, never sent
        assertThat(h.source.commits()).containsEntry("p", 0L);
    }

    @Test
    void failSealsNothingFurtherLetsSealedBatchesFinishAndCommitsBeforeTheFailingBatch() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 2;
        h.source.partition("p", List.of("1,a", "2,b", "3,c", "!,d", "5,e"));
        h.start();
        h.turns(1);

        assertThat(h.batches()).hasSize(1); // rows 1-2 sealed; row 3 open; row 4 failed
        assertThat(h.lifecycle.failure().location()).isEqualTo("p:4 (position 30)");
        h.turns(3);
        assertThat(h.thread.done()).isFalse(); // the sealed batch is still in flight
        h.sink.ackAll();
        h.turns(3);
        assertThat(h.thread.done()).isTrue();
        assertThat(h.batches()).hasSize(1);
        // Row 3 (position 20) was in the abandoned batch: everything before it is written.
        assertThat(h.source.commits()).containsEntry("p", 20L);
        assertThat(h.thread.committedPositions()).containsEntry("p", 20L);
        assertThat(h.budget.used()).isZero();
    }

    @Test
    void drainSealsOpenBatchesAndCommitsEverythingOnceAcknowledged() {
        ThreadHarness h = new ThreadHarness();
        h.source.live("p", PipelineThreadTest::row).live("q", PipelineThreadTest::row);
        h.start();
        h.source.offer("p", 7);
        h.source.offer("q", 5);
        h.turns(2);
        assertThat(h.batches()).isEmpty();

        h.lifecycle.drain();
        h.thread.runOnce();
        assertThat(h.batches())
                .extracting(SealedBatch::reason)
                .containsOnly(SealReason.DRAIN)
                .hasSize(2);
        assertThat(h.thread.done()).isFalse();
        h.sink.ackAll();
        h.thread.runOnce();
        assertThat(h.thread.done()).isTrue();
        assertThat(h.source.commits()).containsEntry("p", 70L).containsEntry("q", 50L);
        assertThat(h.budget.used()).isZero();
    }

    @Test
    void commitsEveryIntervalOnlyWhatIsAcknowledged() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 3;
        h.commitIntervalNanos = 5_000_000_000L;
        h.source.live("p", PipelineThreadTest::row);
        h.start();
        h.source.offer("p", 7);
        h.thread.runOnce();
        assertThat(h.batches()).hasSize(2);
        h.sink.ack(h.batches().get(1)); // out of order: the first is still in flight
        h.clock.advanceMillis(5_000);
        h.thread.runOnce();
        assertThat(h.source.commits()).containsEntry("p", 0L);

        h.sink.ack(h.batches().get(0));
        h.clock.advanceMillis(5_000);
        h.thread.runOnce();
        // Both batches written; row 6 (position 60), sealed by linger, is not: commit stops before
        // it. Commits: the first two batches' boundaries before they were sent, the lingering
        // batch's, then the position.
        assertThat(h.source.commits()).containsEntry("p", 60L);
        assertThat(h.metrics.commits.getLongValue()).isEqualTo(3);
    }

    @Test
    void filteredRecordsAreHandledAndCountedNotWritten() {
        ThreadHarness h = new ThreadHarness();
        h.transforms =
                List.of(
                        new dev.sluice.pipeline.transform.Transform() {
                            @Override
                            public int[] producedColumns() {
                                return new int[0];
                            }

                            @Override
                            public boolean apply(
                                    dev.sluice.pipeline.decode.RowTarget row,
                                    dev.sluice.pipeline.source.PolledRecords batch,
                                    int index) {
                                return row.block().column(0).getLong(row.row()) % 2 == 0;
                            }
                        });
        h.source.partition("p", 10, k -> row(k));
        h.start();
        h.runToEnd(10);
        assertThat(h.batches()).hasSize(1);
        assertThat(h.batches().get(0).rows()).isEqualTo(5);
        assertThat(h.metrics.filtered.getLongValue()).isEqualTo(5);
        assertThat(h.source.commits()).containsEntry("p", 100L);
    }

    @Test
    void batchesOfAPartitionCarryDeterministicShardsAndTokens() {
        ThreadHarness a = new ThreadHarness();
        a.maxRows = 10;
        a.source.partition("p", 100, PipelineThreadTest::row);
        a.start().runToEnd(50);
        ThreadHarness b = new ThreadHarness();
        b.maxRows = 10;
        b.source.partition("p", 100, PipelineThreadTest::row);
        b.start().runToEnd(50);

        assertThat(a.batches())
                .extracting(SealedBatch::token)
                .isEqualTo(b.batches().stream().map(SealedBatch::token).toList());
        assertThat(a.batches().get(0).token())
                .isEqualTo("test@r1/mem/p/0-90/" + a.batches().get(0).shard());
        assertThat(a.batches()).extracting(SealedBatch::shard).contains(0, 1);
    }

    @Test
    void sourcePositionsNeverGoBackAcrossPolls() {
        ThreadHarness h = new ThreadHarness();
        h.maxRows = 1000;
        h.source.partition("p", PipelineThread.POLL_RECORDS * 3L + 5, PipelineThreadTest::row);
        h.start();
        h.runToEnd(50);
        assertThat(h.source.commits())
                .containsEntry("p", (PipelineThread.POLL_RECORDS * 3L + 5) * MemorySource.STRIDE);
        assertThat(h.batches().stream().mapToInt(SealedBatch::rows).sum())
                .isEqualTo(PipelineThread.POLL_RECORDS * 3 + 5);
    }
}
