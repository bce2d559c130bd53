package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A writer thread sending a batch staged for a table that was altered since: the server's refusal
 * has the table described again, the INSERT is re-encoded and sent at once under the same token
 * (rows that cannot be converted go to the handler); an unchanged table leaves the refusal fatal,
 * as before; a table that cannot be described now is retried; a batch older than what the writer
 * already knows is re-encoded before its first attempt.
 */
class TableChangeSendTest {
    private static final RetrySpec RETRY =
            new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.2, 0);
    private static final String TOKEN = "t/mem/p/0-30/0";

    private final ManualClock clock = new ManualClock();
    private final Metrics metrics = new Metrics("t", 1, new NoProbes());
    private final List<String> fatal = new CopyOnWriteArrayList<>();
    private final List<String> rejected = new CopyOnWriteArrayList<>();
    private final SinkSupervisor supervisor =
            new SinkSupervisor() {
                @Override
                public boolean abandonQueued() {
                    return false;
                }

                @Override
                public void fatal(SealedBatch batch, String message, Throwable cause) {
                    fatal.add(message);
                }
            };
    private final RejectedRows handler =
            new RejectedRows() {
                @Override
                public boolean bisects() {
                    return true;
                }

                @Override
                public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
                    rejected.add(
                            source.position()
                                    + " "
                                    + new String(row, StandardCharsets.UTF_8)
                                    + " "
                                    + reason);
                    return null;
                }
            };

    private static final TableSchema BEFORE =
            Tables.table("t", "n UInt64", "v String", "gone String");
    private static final TableSchema AFTER = Tables.table("t", "n UInt64", "v UInt32");

    /** A target whose table is {@link #BEFORE} until described again, then {@link #AFTER}. */
    private static final class Altered implements InsertTarget {
        InsertTarget.Layout layout = layoutOf(BEFORE, 0);
        TableSchema next = AFTER;
        int refreshes;
        RuntimeException failure;

        static InsertTarget.Layout layoutOf(TableSchema t, long version) {
            TargetColumns columns = new TargetColumns(t, t.insertableColumns());
            InsertPlan plan =
                    InsertPlan.of(
                            t,
                            FakeInserter.server(18, 16),
                            t.insertableColumns().stream().map(TableSchema.Column::name).toList(),
                            false,
                            false);
            return new InsertTarget.Layout(
                    version, columns, plan, List.of(OutcomePolicy.deduplicating()));
        }

        @Override
        public String table() {
            return "db.t";
        }

        @Override
        public InsertTarget.Layout layout() {
            return layout;
        }

        @Override
        public boolean refresh(InsertTarget.Layout seen, RuntimeException refusal) {
            refreshes++;
            if (failure != null) {
                RuntimeException f = failure;
                failure = null;
                throw f;
            }
            if (seen != layout) {
                return true;
            }
            if (next == null) {
                return false;
            }
            layout = layoutOf(next, layout.version() + 1);
            next = null;
            return true;
        }
    }

    /** Rows (n, v, gone) at positions 0, 10, 20, 30, staged for {@link #BEFORE}. */
    private SealedBatch batch(InsertTarget target, String... vs) {
        TargetColumns columns = new TargetColumns(BEFORE, BEFORE.insertableColumns());
        BatchBuilder open =
                new BatchBuilder(
                        "p",
                        new PooledBlock(
                                columns.newBlock(),
                                new AbsentRows(columns.size()),
                                columns,
                                target));
        for (int i = 0; i < vs.length; i++) {
            open.beginRow();
            open.block().column(0).appendLong(i);
            open.block().column(1).appendString(vs[i]);
            open.block().column(2).appendString("g" + i);
            open.commitRow(i * 10L);
        }
        long last = (vs.length - 1) * 10L;
        return new SealedBatch(
                b -> {},
                open,
                new LedgerEntry("p", 0, last, 0),
                false,
                TOKEN,
                SealReason.ROWS,
                0,
                1);
    }

    private final DeliveryNotes notes = new DeliveryNotes();

    private BatchSender sender(FakeInserter replica) {
        InsertTarget.Layout fixed = Altered.layoutOf(BEFORE, 0);
        return new BatchSender(
                        0,
                        "db.t",
                        Map.of(),
                        new Replicas(List.of("clickhouse://r0:9000/db"), url -> replica, 0),
                        new Backoff(RETRY, new Random(7)),
                        clock,
                        fixed.plan().newShaper(metrics),
                        metrics.shard(0),
                        supervisor,
                        OutcomePolicy.deduplicating(),
                        (url, prefix, since, timeout, logging) -> replica.trace(prefix),
                        UnresolvedInserts.inMemory(),
                        notes,
                        "n0nce",
                        SplitInserts.inMemory(),
                        handler)
                .shapers(p -> p.newShaper(metrics));
    }

    @Test
    void aRefusedInsertIsReencodedForTheTableAsItIsNowAndSentAtOnceUnderItsToken() {
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        replica.failNext(BatchSenderTest.serverError(16, "No such column gone in table t"));
        Altered target = new Altered();
        BatchSender sender = sender(replica);

        assertThat(sender.send(batch(target, "10", "x", "30", "40")))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(target.refreshes).isEqualTo(1);
        assertThat(replica.inserts())
                .singleElement()
                .satisfies(
                        i -> {
                            assertThat(i.columns()).containsExactly("n", "v");
                            assertThat(i.rows())
                                    .containsExactly(
                                            List.of(0L, 10L), List.of(2L, 30L), List.of(3L, 40L));
                            // the second attempt of the same INSERT: same token, query ids go on
                            // counting
                            assertThat(i.queryId()).isEqualTo(TOKEN + "#n0nce.2");
                        });
        assertThat(rejected)
                .singleElement()
                .asString()
                .startsWith(
                        "10 {\"n\":1,\"v\":\"x\",\"gone\":\"g1\"} column v changed from String to UInt32");
        assertThat(clock.nanoTime()).as("no backoff").isZero();
        assertThat(metrics.shard(0).errors(ErrorClass.SCHEMA).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).rowsReencoded.getLongValue()).isEqualTo(4);
        assertThat(metrics.shard(0).rowsRejected.getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(3);
        assertThat(fatal).isEmpty();
    }

    @Test
    void aBatchStagedForAnOlderLayoutThanTheWriterKnowsIsReencodedBeforeItsFirstAttempt() {
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        Altered target = new Altered();
        SealedBatch staged = batch(target, "1", "2");
        target.refresh(target.layout, null); // noticed meanwhile (another thread, the look)
        BatchSender sender = sender(replica);

        assertThat(sender.send(staged)).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(replica.attempts()).isEqualTo(1);
        assertThat(replica.rows()).containsExactly(List.of(0L, 1L), List.of(1L, 2L));
        assertThat(metrics.shard(0).errors(ErrorClass.SCHEMA).getLongValue()).isZero();
    }

    @Test
    void whenTheTableIsUnchangedTheRefusalIsFatalAsWithoutTheCheck() {
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        replica.failNext(BatchSenderTest.serverError(53, "Type mismatch for column v"));
        Altered target = new Altered();
        target.next = null; // describing it again finds it as it was
        BatchSender sender = sender(replica);

        assertThat(sender.send(batch(target, "1"))).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(target.refreshes).isEqualTo(1);
        assertThat(fatal).singleElement().asString().contains("Type mismatch for column v");
        assertThat(replica.inserts()).isEmpty();
    }

    @Test
    void aTableThatCannotBeDescribedNowIsRetriedWithBackoffNotGivenUpOn() {
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        replica.failNext(BatchSenderTest.serverError(16, "No such column gone in table t"));
        replica.failNext(BatchSenderTest.serverError(16, "No such column gone in table t"));
        Altered target = new Altered();
        target.failure =
                new InsertTarget.TableChangeException(
                        "the table differs between shard 0 and shard 1", true, null);
        BatchSender sender = sender(replica);

        assertThat(sender.send(batch(target, "5"))).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(target.refreshes).isEqualTo(2);
        assertThat(clock.nanoTime()).as("a backoff between the rounds").isPositive();
        assertThat(replica.rows()).containsExactly(List.of(0L, 5L));
        assertThat(fatal).isEmpty();
    }

    @Test
    void aChangeTheWriterCannotFollowStopsTheBatchWithBothReasons() {
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        replica.failNext(BatchSenderTest.serverError(16, "No such column gone in table t"));
        Altered target = new Altered();
        target.failure =
                new InsertTarget.TableChangeException(
                        "the table changed, and describing it again failed: column x is not in"
                                + " db.t",
                        false,
                        null);
        BatchSender sender = sender(replica);

        assertThat(sender.send(batch(target, "5"))).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("No such column gone in table t")
                .contains("column x is not in db.t");
        assertThat(replica.inserts()).isEmpty();
        assertThat(new ArrayList<>(rejected)).isEmpty();
    }

    @Test
    void anAttemptInterruptedBeforeTheChangeIsCountedAsMaybeWrittenTwiceWhereBlocksAreCompared() {
        // 18.16 takes no deduplication token: a Replicated table drops only an identical block
        FakeInserter replica = new FakeInserter(FakeInserter.server(18, 16));
        replica.interruptNext(true); // written, but the answer was lost
        // the table is altered before the resend arrives
        replica.onInterrupted(
                () ->
                        replica.failNext(
                                BatchSenderTest.serverError(16, "No such column gone in table t")));
        Altered target = new Altered();
        BatchSender sender = sender(replica);

        assertThat(sender.send(batch(target, "1", "2"))).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(replica.inserts()).hasSize(2); // the interrupted copy, and the re-encoded one
        assertThat(metrics.shard(0).rowsPossiblyDuplicated.getLongValue()).isEqualTo(2);
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("may be in the table twice")
                .contains("interrupted before db.t was altered");
    }
}
