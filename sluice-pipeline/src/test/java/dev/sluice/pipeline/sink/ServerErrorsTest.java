package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the writer does with server errors other than a lost connection: rows refused for their
 * content are bisected down to and handed to the error policy, blocks refused for their size are
 * sent in halves (recorded, so a replay splits alike), passing errors are retried until {@code
 * give_up_after}. The server here is {@link FakeInserter}; ServerErrorsIT makes the real 18.16
 * refuse.
 */
class ServerErrorsTest {
    private static final String TOKEN = "t/mem/p/0-90/0";
    private static final RetrySpec RETRY =
            new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.2, 0);

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock();
    private final Metrics metrics = new Metrics("t", 1, new NoProbes());
    private final List<String> fatal = new CopyOnWriteArrayList<>();
    private final List<String> rejectedRows = new ArrayList<>();
    private boolean abandon;
    private boolean bisect = true;
    private int stopAfterRejections = Integer.MAX_VALUE;
    private final TableSchema table = Tables.keyed("t", "n", "n % 2", "n UInt64", "s String");
    private PresortMode presort = PresortMode.OFF;
    private boolean split;
    private final UnresolvedInserts unresolved = UnresolvedInserts.inMemory();

    private final SinkSupervisor supervisor =
            new SinkSupervisor() {
                @Override
                public boolean abandonQueued() {
                    return abandon;
                }

                @Override
                public void fatal(SealedBatch batch, String message, Throwable cause) {
                    fatal.add(message);
                }
            };

    private final RejectedRows rejections =
            new RejectedRows() {
                @Override
                public boolean bisects() {
                    return bisect;
                }

                @Override
                public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
                    if (rejectedRows.size() >= stopAfterRejections) {
                        return "more than " + stopAfterRejections + " records were rejected";
                    }
                    rejectedRows.add(
                            source.partition()
                                    + "@"
                                    + source.position()
                                    + " "
                                    + new String(row, StandardCharsets.UTF_8)
                                    + " : "
                                    + reason);
                    return null;
                }
            };

    /** Rows (n, "v" + n) for {@code ns}, at positions 0, 10, 20, ...; partition "p". */
    private SealedBatch batch(boolean replayed, long... ns) {
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        BatchBuilder open =
                new BatchBuilder(
                        "p", new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
        for (int i = 0; i < ns.length; i++) {
            open.beginRow();
            open.block().column(0).appendLong(ns[i]);
            open.block().column(1).appendString("v" + ns[i]);
            open.commitRow(i * 10L);
        }
        long last = (ns.length - 1) * 10L;
        return new SealedBatch(
                b -> {},
                open,
                new LedgerEntry("p", 0, last, 0),
                replayed,
                "t/mem/p/0-" + last + "/0",
                replayed ? SealReason.REPLAY : SealReason.ROWS,
                0,
                1);
    }

    private static long[] upTo(int n) {
        return LongStream.range(0, n).toArray();
    }

    private BatchSender sender(
            FakeInserter a, RetrySpec retry, OutcomePolicy policy, SplitInserts splits) {
        return sender(a, retry, policy, splits, "n0nce");
    }

    /**
     * @param nonce the pipeline start's mark in query ids: a restart draws another
     */
    private BatchSender sender(
            FakeInserter a,
            RetrySpec retry,
            OutcomePolicy policy,
            SplitInserts splits,
            String nonce) {
        return new BatchSender(
                0,
                "db.t",
                Map.of(),
                new Replicas(List.of("clickhouse://replica0:9000/db"), url -> a, 0),
                new Backoff(retry, new Random(7)),
                clock,
                InsertPlan.of(table, a.server(), List.of("n", "s"), presort, split)
                        .newShaper(metrics),
                metrics.shard(0),
                supervisor,
                policy,
                (url, prefix, since, timeout, logging) -> a.trace(prefix),
                unresolved,
                new DeliveryNotes(),
                nonce,
                splits,
                rejections);
    }

    private BatchSender sender(FakeInserter a) {
        return sender(a, RETRY, OutcomePolicy.deduplicating(), SplitInserts.inMemory());
    }

    private static OutcomePolicy asking() {
        return new OutcomePolicy(
                false,
                OnUnknownOutcome.FAIL,
                new QueryLogging(
                        QueryLogging.Status.LOGGED,
                        true,
                        true,
                        QueryLogging.ProfileEvents.ARRAYS,
                        "the server logs sluice's queries"),
                Duration.ofSeconds(10));
    }

    private static ServerException throwIf(List<Object> row) {
        return BatchSenderTest.serverError(
                395, "Value passed to 'throwIf' function is non zero (n = " + row.get(0) + ")");
    }

    private static ServerException memory() {
        return BatchSenderTest.serverError(
                241, "Memory limit (for query) exceeded: would use 20.00 MiB, maximum: 19.07 MiB");
    }

    private static List<Long> ns(List<List<Object>> rows) {
        List<Long> out = new ArrayList<>();
        for (List<Object> r : rows) {
            out.add((Long) r.get(0));
        }
        return out;
    }

    private static List<String> tokens(FakeInserter a) {
        return a.inserts().stream()
                .map(i -> i.queryId().substring(0, i.queryId().indexOf('#')))
                .toList();
    }

    // --- content -----------------------------------------------------------------------------

    @Test
    void rowsRefusedForTheirContentAreBisectedOutAndTheRestIsWritten() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseRows(r -> (Long) r.get(0) == 3 || (Long) r.get(0) == 7, ServerErrorsTest::throwIf);

        assertThat(sender(a).send(batch(false, upTo(10)))).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(ns(a.rows())).containsExactly(0L, 1L, 2L, 4L, 5L, 6L, 8L, 9L);
        assertThat(a.rows()).contains(List.of(4L, "v4"), List.of(9L, "v9"));
        assertThat(rejectedRows)
                .containsExactly(
                        "p@30 {\"n\":3,\"s\":\"v3\"} : ClickHouse error 395: Value passed to"
                                + " 'throwIf' function is non zero (n = 3)",
                        "p@70 {\"n\":7,\"s\":\"v7\"} : ClickHouse error 395: Value passed to"
                                + " 'throwIf' function is non zero (n = 7)");
        // Every part has a sub-token of its rows in the batch's one INSERT.
        assertThat(tokens(a))
                .containsExactly(
                        TOKEN + "/r0-1",
                        TOKEN + "/r2-2",
                        TOKEN + "/r4-4",
                        TOKEN + "/r5-6",
                        TOKEN + "/r8-9");
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(8);
        assertThat(metrics.shard(0).rowsRejected.getLongValue()).isEqualTo(2);
        assertThat(metrics.shard(0).records.getLongValue() + rejectedRows.size()).isEqualTo(10);
        // The batch, 0-4, 2-4, 3-4, 5-9 and 7-9 were split; those and rows 3 and 7 were refused.
        assertThat(metrics.shard(0).contentSplits.getLongValue()).isEqualTo(6);
        assertThat(metrics.shard(0).sizeSplits.getLongValue()).isZero();
        assertThat(metrics.shard(0).errors(ErrorClass.CONTENT).getLongValue()).isEqualTo(8);
        assertThat(metrics.shard(0).retriesTotal()).isZero(); // a split is not a retry
        assertThat(metrics.shard(0).batches.getLongValue()).isEqualTo(1);
        assertThat(clock.nanoTime()).isZero(); // no backoff: nothing here passes with time
        assertThat(fatal).isEmpty();
    }

    @Test
    void aBatchOfSeveralInsertsBisectsOnlyTheRefusedOneAndMapsRowsBackThroughSortAndSplit() {
        presort = PresortMode.ON;
        split = true;
        FakeInserter a = new FakeInserter(FakeInserter.server(24, 8));
        a.refuseRows(r -> (Long) r.get(0) == 5, ServerErrorsTest::throwIf);

        // Sorted by n, split by n % 2: /p0 = 0 2 4 (written), /p1 = 1 3 5 (5 refused).
        assertThat(sender(a).send(batch(false, 5, 4, 3, 2, 1, 0)))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(ns(a.rows())).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
        // n = 5 was the batch's first row: position 0.
        assertThat(rejectedRows).singleElement().asString().startsWith("p@0 {\"n\":5,");
        assertThat(a.inserts())
                .extracting(i -> i.settings().get("insert_deduplication_token"))
                .containsExactly(TOKEN_6 + "/p0", TOKEN_6 + "/p1/r0-0", TOKEN_6 + "/p1/r1-1");
        assertThat(metrics.shard(0).inserts.getLongValue()).isEqualTo(3);
        assertThat(fatal).isEmpty();
    }

    private static final String TOKEN_6 = "t/mem/p/0-50/0";

    @Test
    void aBatchAutoLeftUnsortedIsHalvedInSortedOrderUnderTheSameSubTokensAsASortedOne() {
        // A replay may decide otherwise than the first run: halves named by row positions must
        // hold the same rows either way, or a server comparing tokens would drop the wrong ones.
        List<String> byRun = new ArrayList<>();
        for (boolean backlog : new boolean[] {true, false}) {
            presort = PresortMode.AUTO;
            FakeInserter a = new FakeInserter(FakeInserter.server(24, 8));
            a.refuseRows(r -> (Long) r.get(0) == 5, ServerErrorsTest::throwIf);
            assertThat(sender(a).send(batch(false, 5, 4, 3, 2, 1, 0), backlog))
                    .isEqualTo(SealedBatch.Outcome.WRITTEN);
            assertThat(ns(a.rows())).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
            StringBuilder run = new StringBuilder();
            for (FakeInserter.Insert i : a.inserts()) {
                run.append(i.settings().get("insert_deduplication_token"))
                        .append(ns(i.rows()))
                        .append(' ');
            }
            byRun.add(run.toString());
        }
        assertThat(byRun.get(0))
                .isEqualTo(
                        TOKEN_6
                                + "/r0-2[0, 1, 2] "
                                + TOKEN_6
                                + "/r3-3[3] "
                                + TOKEN_6
                                + "/r4-4[4] ");
        assertThat(byRun.get(1)).isEqualTo(byRun.get(0));
        assertThat(metrics.presortSkipped().getLongValue()).isEqualTo(1);
        assertThat(rejectedRows).hasSize(2).allSatisfy(r -> assertThat(r).startsWith("p@0 "));
    }

    @Test
    void underFailAContentRefusalStopsAtOnceNamingTheBatchAndHowToPassIt() {
        bisect = false;
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseRows(r -> (Long) r.get(0) == 3, ServerErrorsTest::throwIf);

        assertThat(sender(a).send(batch(false, upTo(10)))).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(a.attempts()).isEqualTo(1); // not bisected
        assertThat(a.inserts()).isEmpty();
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("shard 0 (clickhouse://replica0:9000/db)")
                .contains("the server rejected rows of p positions 0..90 (10 rows)")
                .contains("ClickHouse error 395")
                .contains("errors.policy dead-letter or skip");
        assertThat(rejectedRows).isEmpty();
    }

    @Test
    void moreRejectionsThanMaxErrorsStopThePipelineNamingTheRow() {
        stopAfterRejections = 1;
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseRows(r -> (Long) r.get(0) % 4 == 1, ServerErrorsTest::throwIf);

        assertThat(sender(a).send(batch(false, upTo(8)))).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(rejectedRows).hasSize(1);
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("more than 1 records were rejected")
                .contains("a row of p at position 50");
    }

    // --- size --------------------------------------------------------------------------------

    @Test
    void aBlockRefusedForItsSizeIsSentInHalvesUntilTheyPassAndTheSplitsAreRecorded()
            throws Exception {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseAbove(3, memory());
        SplitInserts splits = SplitInserts.open(dir);

        assertThat(
                        sender(a, RETRY, OutcomePolicy.deduplicating(), splits)
                                .send(batch(false, upTo(10))))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(ns(a.rows())).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(tokens(a))
                .containsExactly(
                        TOKEN + "/r0-1", TOKEN + "/r2-4", TOKEN + "/r5-6", TOKEN + "/r7-9");
        assertThat(Files.readAllLines(dir.resolve(SplitInserts.FILE)))
                .containsExactly(TOKEN, TOKEN + "/r0-4", TOKEN + "/r5-9");
        assertThat(metrics.shard(0).sizeSplits.getLongValue()).isEqualTo(3);
        assertThat(metrics.shard(0).errors(ErrorClass.SIZE).getLongValue()).isEqualTo(3);
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(10);
        assertThat(rejectedRows).isEmpty();
        assertThat(fatal).isEmpty();
    }

    @Test
    void aReplayAfterASplitSendsTheSameHalvesUnderTheSameTokensEvenWhenTheWholeWouldPass()
            throws Exception {
        FakeInserter first = new FakeInserter(FakeInserter.server(24, 8));
        first.refuseAbove(3, memory());
        sender(first, RETRY, OutcomePolicy.deduplicating(), SplitInserts.open(dir))
                .send(batch(false, upTo(10)));

        // After a restart the server has memory to spare; the replay still sends the recorded
        // halves, so a table that drops repeated tokens (or blocks) drops every one of them.
        FakeInserter again = new FakeInserter(FakeInserter.server(24, 8));
        assertThat(
                        sender(again, RETRY, OutcomePolicy.deduplicating(), SplitInserts.open(dir))
                                .send(batch(true, upTo(10))))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(again.inserts())
                .extracting(i -> i.settings().get("insert_deduplication_token"))
                .containsExactlyElementsOf(
                        first.inserts().stream()
                                .map(i -> i.settings().get("insert_deduplication_token"))
                                .toList());
        assertThat(again.inserts())
                .extracting(FakeInserter.Insert::rows)
                .containsExactlyElementsOf(
                        first.inserts().stream().map(FakeInserter.Insert::rows).toList());
        assertThat(again.attempts()).isEqualTo(4); // the whole was never sent
    }

    @Test
    void aReplayOfABatchStoppedMidSplitSkipsTheHalvesTheServersLogShowsWritten() throws Exception {
        // The table cannot deduplicate: replayed INSERTs are looked up in the query log.
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseAbove(5, memory());
        a.onInsert(
                i -> {
                    if (a.inserts().size() == 1) {
                        abandon = true; // stopped after the first half: the rest is abandoned
                        a.failNext(new ConnectionException("connection refused"));
                    }
                });
        assertThat(sender(a, RETRY, asking(), SplitInserts.open(dir)).send(batch(false, upTo(10))))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(ns(a.rows())).containsExactly(0L, 1L, 2L, 3L, 4L);

        abandon = false;
        a.onInsert(i -> {});
        assertThat(
                        sender(a, RETRY, asking(), SplitInserts.open(dir), "restart")
                                .send(batch(true, upTo(10))))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        // Every row once: the first half was found written and not sent again.
        assertThat(ns(a.rows())).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(metrics.shard(0).rowsAlreadyWritten.getLongValue()).isEqualTo(5);
        assertThat(fatal).isEmpty();
    }

    @Test
    void aSingleRowTooLargeForTheServerIsRejectedLikeRefusedContent() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.refuseAbove(0, memory());

        assertThat(sender(a).send(batch(false, 1, 2))).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).isEmpty();
        assertThat(rejectedRows)
                .hasSize(2)
                .allSatisfy(
                        r ->
                                assertThat(r)
                                        .contains("ClickHouse error 241")
                                        .endsWith(
                                                "(the row alone is too large for the server's"
                                                        + " limits)"));
        assertThat(metrics.shard(0).batches.getLongValue()).isZero(); // nothing of it written
    }

    // --- give_up_after -----------------------------------------------------------------------

    private static RetrySpec giveUpAfter(Duration d) {
        return new RetrySpec(Duration.ofSeconds(1), Duration.ofSeconds(8), 2.0, 0, 0, d);
    }

    @Test
    void aBatchThatKeepsFailingIsGivenUpAfterGiveUpAfterWithOneClearLine() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        for (int i = 0; i < 100; i++) {
            a.failNext(
                    BatchSenderTest.serverError(
                            252,
                            "Too many parts (300). Merges are processing significantly slower"
                                    + " than inserts."));
        }

        assertThat(
                        sender(
                                        a,
                                        giveUpAfter(Duration.ofMinutes(1)),
                                        OutcomePolicy.deduplicating(),
                                        SplitInserts.inMemory())
                                .send(batch(false, upTo(10))))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);

        // 1 + 2 + 4 + 8 + 8 ... s: the last pause is cut so that the last attempt is at 60 s.
        assertThat(clock.nanoTime()).isEqualTo(Duration.ofMinutes(1).toNanos());
        assertThat(a.attempts()).isEqualTo(11);
        assertThat(fatal)
                .singleElement()
                .asString()
                .startsWith("gave up on p positions 0..90 (10 rows): shard 0")
                .contains("(clickhouse://replica0:9000/db) kept failing for 1m (11 attempts")
                .contains("sink.clickhouse.retry.give_up_after")
                .contains("ClickHouse error 252")
                .contains("Too many parts (300)")
                .contains("slower than inserts. The server refuses INSERTs") // one full stop
                .contains("check its merges")
                .contains("parts_to_throw_insert")
                .contains("a resumed run sends it again");
        assertThat(metrics.shard(0).records.getLongValue()).isZero();
    }

    @Test
    void anInsertWrittenInBetweenStartsTheClockAgain() {
        presort = PresortMode.ON;
        split = true; // two INSERTs: each fails for 50 s, then passes
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        RetrySpec everyTenSeconds =
                new RetrySpec(
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10),
                        1.0,
                        0,
                        0,
                        Duration.ofMinutes(1));
        for (int i = 0; i < 5; i++) {
            a.failNext(new ConnectionException("refused"));
        }
        a.onInsert(
                i -> {
                    if (a.inserts().size() == 1) {
                        for (int k = 0; k < 5; k++) {
                            a.failNext(new ConnectionException("refused"));
                        }
                    }
                });

        assertThat(
                        sender(
                                        a,
                                        everyTenSeconds,
                                        OutcomePolicy.deduplicating(),
                                        SplitInserts.inMemory())
                                .send(batch(false, upTo(6))))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(clock.nanoTime()).isEqualTo(Duration.ofSeconds(100).toNanos());
        assertThat(a.inserts()).hasSize(2);
        assertThat(fatal).isEmpty();
    }

    @Test
    void zeroNeverGivesUp() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        for (int i = 0; i < 200; i++) {
            a.failNext(new ConnectionException("refused"));
        }
        assertThat(
                        sender(
                                        a,
                                        giveUpAfter(Duration.ZERO),
                                        OutcomePolicy.deduplicating(),
                                        SplitInserts.inMemory())
                                .send(batch(false, upTo(3))))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(clock.nanoTime()).isGreaterThan(Duration.ofMinutes(20).toNanos());
        assertThat(fatal).isEmpty();
    }

    @Test
    void theGiveUpHintFollowsTheLastError() {
        assertThat(
                        GiveUp.hint(
                                ErrorClass.CONNECTION,
                                new ConnectionException("connect timed out"),
                                "db.t"))
                .contains("server is up");
        assertThat(
                        GiveUp.hint(
                                ErrorClass.SERVER,
                                BatchSenderTest.serverError(242, "Table is in readonly mode"),
                                "db.t"))
                .contains("ZooKeeper");
        assertThat(
                        GiveUp.hint(
                                ErrorClass.SERVER,
                                BatchSenderTest.serverError(1002, "unknown"),
                                "db.t"))
                .contains("server's log")
                .contains("db.t");
        assertThat(GiveUp.duration(Duration.ofMinutes(10).toNanos())).isEqualTo("10m");
        assertThat(GiveUp.duration(Duration.ofSeconds(150).toNanos())).isEqualTo("2m 30s");
        assertThat(GiveUp.duration(Duration.ofMillis(4200).toNanos())).isEqualTo("4.2s");
        assertThat(GiveUp.duration(Duration.ofMinutes(62).toNanos())).isEqualTo("1h 2m");
    }
}
