package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.metrics.ShardMetrics;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.ManualClock;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchSenderTest {
    private static final RetrySpec RETRY =
            new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.2, 0);

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock();
    private final List<String> fatal = new CopyOnWriteArrayList<>();
    private final List<SealedBatch> settled = new ArrayList<>();
    private boolean abandon;
    private final Metrics metrics = new Metrics("t", 1, new NoProbes());
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

    static ServerException serverError(int code, String message) {
        return new ServerException(
                new ServerExceptionInfo(
                        code, "DB::Exception", "DB::Exception: " + message, "", null),
                null);
    }

    private final List<String> lookups = new CopyOnWriteArrayList<>();
    private int unreachableLookups;
    private final UnresolvedInserts unresolved = UnresolvedInserts.inMemory();
    private final DeliveryNotes notes = new DeliveryNotes();

    private TableSchema table = Tables.table("t", "n UInt64", "s String");
    private boolean presort;
    private boolean split;

    private SealedBatch batch() {
        return batch(0, 1, 2);
    }

    /** A batch of rows (n, "v" + n), at positions 0, 10, 20, ... */
    private SealedBatch batch(long... ns) {
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
                settled::add,
                open,
                new LedgerEntry("p", 0, last, 0),
                false,
                "t/mem/p/0-" + last + "/0",
                SealReason.ROWS,
                0,
                1);
    }

    /** The batch of {@link #batch()} as a restart replays it from the ledger. */
    private SealedBatch replayed() {
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        BatchBuilder open =
                new BatchBuilder(
                        "p", new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
        for (int i = 0; i < 3; i++) {
            open.beginRow();
            open.block().column(0).appendLong(i);
            open.block().column(1).appendString("v" + i);
            open.commitRow(i * 10L);
        }
        return new SealedBatch(
                settled::add,
                open,
                new LedgerEntry("p", 0, 20, 0),
                true,
                "t/mem/p/0-20/0",
                SealReason.REPLAY,
                0,
                1);
    }

    private static final String TOKEN = "t/mem/p/0-20/0";

    private static OutcomePolicy asking(OnUnknownOutcome onUnknown) {
        return new OutcomePolicy(
                false,
                onUnknown,
                new QueryLogging(
                        QueryLogging.Status.LOGGED,
                        true,
                        true,
                        QueryLogging.ProfileEvents.ARRAYS,
                        "the server logs sluice's queries"),
                Duration.ofSeconds(10));
    }

    private long count(java.util.function.Function<ShardMetrics, CounterDataPoint> c) {
        return c.apply(metrics.shard(0)).getLongValue();
    }

    private BatchSender sender(List<FakeInserter> replicas, RetrySpec retry) {
        return sender(replicas, retry, OutcomePolicy.deduplicating());
    }

    private BatchSender sender(List<FakeInserter> replicas, RetrySpec retry, OutcomePolicy policy) {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            urls.add("clickhouse://replica" + i + ":9000/db");
        }
        return new BatchSender(
                0,
                "db.t",
                Map.of("max_insert_threads", "2"),
                new Replicas(urls, url -> replicas.get(urls.indexOf(url)), 0),
                new Backoff(retry, new Random(7)),
                clock,
                InsertPlan.of(table, FakeInserter.server(18, 16), List.of("n", "s"), presort, split)
                        .newShaper(metrics),
                metrics.shard(0),
                supervisor,
                policy,
                (url, prefix, since, timeout, logging) -> {
                    lookups.add(prefix);
                    if (unreachableLookups > 0) {
                        unreachableLookups--;
                        throw new ConnectionException("connect timed out");
                    }
                    return replicas.get(urls.indexOf(url)).trace(prefix);
                },
                unresolved,
                notes,
                "n0nce",
                SplitInserts.inMemory(),
                RejectedRows.failing());
    }

    @Test
    void aRetryableErrorMovesToTheNextReplicaAtOnceAndSucceedsThere() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(new ConnectionException("connection reset"));
        BatchSender sender = sender(List.of(a, b), RETRY);

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).isEmpty();
        assertThat(a.isOpen()).isFalse(); // the broken connection was dropped
        assertThat(b.inserts()).hasSize(1);
        assertThat(b.rows())
                .containsExactly(List.of(0L, "v0"), List.of(1L, "v1"), List.of(2L, "v2"));
        assertThat(clock.nanoTime()).isZero(); // no backoff before the first round is through
        assertThat(metrics.shard(0).retries(RetryReason.CONNECTION).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).errors(ErrorClass.CONNECTION).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(3);
        assertThat(fatal).isEmpty();
    }

    @Test
    void oneReplicaBacksOffExponentiallyWithJitterBetweenAttempts() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(serverError(252, "Too many parts (300)"))
                .failNext(serverError(202, "Too many simultaneous queries. Maximum: 100"))
                .failNext(new ConnectionException("timed out"));
        BatchSender sender = sender(List.of(a), RETRY);

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.WRITTEN);

        // 100 + 200 + 400 ms, each ±20 %.
        assertThat(clock.nanoTime()).isBetween(560_000_000L, 840_000_000L);
        assertThat(a.attempts()).isEqualTo(4);
        assertThat(metrics.shard(0).retriesTotal()).isEqualTo(3);
        assertThat(metrics.shard(0).retries(RetryReason.SERVER).getLongValue()).isEqualTo(2);
        assertThat(metrics.shard(0).retries(RetryReason.CONNECTION).getLongValue()).isEqualTo(1);
    }

    @Test
    void aFatalServerErrorStopsWithTheServersMessage() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(serverError(60, "Table db.t doesn't exist."));
        BatchSender sender = sender(List.of(a, b), RETRY);

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(b.attempts()).isZero(); // fatal: no other replica is tried
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("shard 0")
                .contains("replica0")
                .contains("ClickHouse error 60")
                .contains("Table db.t doesn't exist.");
        assertThat(metrics.shard(0).errors(ErrorClass.FATAL).getLongValue()).isEqualTo(1);
    }

    @Test
    void aBlockThatDoesNotMatchTheTableIsFatal() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(new ClickHouseException("INSERT INTO db.t: column n UInt64 does not match"));
        assertThat(sender(List.of(a), RETRY).send(batch()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(fatal).singleElement().asString().contains("does not match");
    }

    @Test
    void runningOutOfAttemptsIsFatalWithTheLastError() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        for (int i = 0; i < 3; i++) {
            a.failNext(new ConnectionException("refused " + i));
        }
        RetrySpec three = new RetrySpec(Duration.ofMillis(10), Duration.ofSeconds(1), 2.0, 0, 3);
        assertThat(sender(List.of(a), three).send(batch()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("gave up after 3 attempts")
                .contains("refused 2");
        assertThat(clock.nanoTime()).isEqualTo(30_000_000L); // 10 + 20 ms, no jitter
    }

    @Test
    void aBatchBeingRetriedIsAbandonedWhenThePipelineStops() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(new ConnectionException("refused"));
        abandon = true;
        assertThat(sender(List.of(a), RETRY).send(batch()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(a.attempts()).isEqualTo(1);
        assertThat(fatal).isEmpty();
    }

    @Test
    void theTokenIsSentOnlyToServersThatTakeIt() {
        FakeInserter old = new FakeInserter(FakeInserter.server(18, 16));
        sender(List.of(old), RETRY).send(batch());
        assertThat(old.inserts().get(0).settings())
                .containsEntry("max_insert_threads", "2")
                .doesNotContainKeys(
                        "insert_deduplication_token", "insert_deduplicate", "async_insert");

        FakeInserter modern = new FakeInserter(FakeInserter.server(24, 8));
        sender(List.of(modern), RETRY).send(batch());
        assertThat(modern.inserts().get(0).settings())
                .containsEntry("insert_deduplication_token", "t/mem/p/0-20/0")
                .containsEntry("insert_deduplicate", "1")
                .containsEntry("async_insert", "0");
    }

    @Test
    void aBatchOfSeveralInsertsSendsEachOnceUnderItsOwnTokenAndARetryResumesAtTheFailedOne() {
        table = Tables.keyed("t", "n", "n % 2", "n UInt64", "s String");
        presort = true;
        split = true;
        FakeInserter a = new FakeInserter(FakeInserter.server(24, 8));
        a.onInsert(
                i -> {
                    if (a.inserts().size() == 1) {
                        a.failNext(new ConnectionException("reset after the first part"));
                    }
                });

        assertThat(sender(List.of(a), RETRY).send(batch(5, 4, 3, 2, 1, 0)))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        // Sorted by n, then split by n % 2 in order of first appearance: the even part first.
        assertThat(a.inserts()).hasSize(2);
        assertThat(a.inserts().get(0).rows())
                .containsExactly(List.of(0L, "v0"), List.of(2L, "v2"), List.of(4L, "v4"));
        assertThat(a.inserts().get(1).rows())
                .containsExactly(List.of(1L, "v1"), List.of(3L, "v3"), List.of(5L, "v5"));
        assertThat(a.inserts())
                .extracting(i -> i.settings().get("insert_deduplication_token"))
                .containsExactly("t/mem/p/0-50/0/p0", "t/mem/p/0-50/0/p1");
        assertThat(a.attempts()).isEqualTo(3); // the first part was not sent again
        assertThat(metrics.shard(0).inserts.getLongValue()).isEqualTo(2);
        assertThat(metrics.shard(0).batches.getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(6);
        assertThat(fatal).isEmpty();
    }

    @Test
    void everyAttemptCarriesItsOwnQueryIdDerivedFromTheToken() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(new ConnectionException("refused"));
        sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(batch());
        assertThat(a.inserts())
                .singleElement()
                .extracting(FakeInserter.Insert::queryId)
                .isEqualTo(TOKEN + "#n0nce.2");
        // A connection refused before the data went out needs no look-up.
        assertThat(lookups).isEmpty();
        assertThat(a.inserts().get(0).settings()).containsEntry("log_queries", "1");
    }

    @Test
    void anInterruptedInsertTheServerWroteIsNotSentAgain() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);

        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(batch()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).hasSize(1); // written once, by the interrupted attempt
        assertThat(a.attempts()).isEqualTo(1);
        assertThat(lookups).containsExactly(TOKEN + "#");
        assertThat(metrics.shard(0).checks(OutcomeCheck.WRITTEN).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).retriesTotal()).isZero();
        assertThat(metrics.shard(0).errors(ErrorClass.INTERRUPTED).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.records)).isEqualTo(3);
        assertThat(count(m -> m.batches)).isEqualTo(1);
        assertThat(count(m -> m.rowsDuplicated)).isZero();
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isZero();
        assertThat(notes.lines()).isEmpty();
        assertThat(fatal).isEmpty();
    }

    @Test
    void anInterruptedInsertTheServerDidNotWriteIsSentAgain() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(false);

        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(batch()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts())
                .singleElement()
                .extracting(FakeInserter.Insert::queryId)
                .isEqualTo(TOKEN + "#n0nce.2");
        assertThat(metrics.shard(0).checks(OutcomeCheck.NOT_WRITTEN).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).retries(RetryReason.NOT_WRITTEN).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.records)).isEqualTo(3);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isZero();
        assertThat(fatal).isEmpty();
    }

    @Test
    void aStillRunningInsertIsWaitedForNotSentAgain() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);
        a.markRunning(TOKEN + "#n0nce.1");
        a.onInsert(i -> {});
        // The server is still applying it for the first four looks; then it is done.
        java.util.concurrent.atomic.AtomicInteger looks =
                new java.util.concurrent.atomic.AtomicInteger();
        BatchSender sender =
                senderWithLookup(
                        a,
                        asking(OnUnknownOutcome.FAIL),
                        prefix -> {
                            if (looks.incrementAndGet() == 5) {
                                a.finish(TOKEN + "#n0nce.1");
                            }
                            return a.trace(prefix);
                        });

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(looks.get()).isEqualTo(5);
        assertThat(clock.nanoTime()).isEqualTo(4 * OutcomeResolver.POLL_NANOS);
        assertThat(a.inserts()).hasSize(1);
        assertThat(metrics.shard(0).checks(OutcomeCheck.WRITTEN).getLongValue()).isEqualTo(1);
    }

    @Test
    void anUnknownOutcomeUnderFailStopsNamingTheBatchAndItsQueryIdAndRecordsIt() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);
        a.onInsert(i -> {});
        BatchSender sender =
                senderWithLookup(
                        a,
                        asking(OnUnknownOutcome.FAIL),
                        prefix -> {
                            a.loseLog(); // killed before it flushed its log
                            return a.trace(prefix);
                        });

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(a.attempts()).isEqualTo(1); // never sent again
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("the outcome of an INSERT is unknown")
                .contains("p positions 0..20 (3 rows)")
                .contains("query_id '" + TOKEN + "#n0nce.1'")
                .contains("no answer within 2000 ms")
                .contains("the server's query log has no entry for it")
                .contains("startsWith(query_id, '" + TOKEN + "#')");
        assertThat(metrics.shard(0).checks(OutcomeCheck.UNKNOWN).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.rowsUnresolved)).isEqualTo(3);
        assertThat(count(m -> m.records)).isZero();
        assertThat(unresolved.tokens()).containsExactly(TOKEN);
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("p positions 0..20 (3 rows): outcome unknown, not sent again");
    }

    @Test
    void anUnknownOutcomeUnderResendIsSentAgainAndCountedAsPossiblyDuplicated() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);
        BatchSender sender =
                senderWithLookup(
                        a,
                        asking(OnUnknownOutcome.RESEND),
                        prefix -> {
                            a.loseLog();
                            return a.trace(prefix);
                        });

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).hasSize(2); // the server has both copies
        assertThat(metrics.shard(0).retries(RetryReason.UNKNOWN).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.records)).isEqualTo(3);
        assertThat(count(m -> m.rowsDuplicated)).isZero();
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isEqualTo(3);
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("p positions 0..20 (3 rows): may be in the table twice")
                .contains("'" + TOKEN + "#n0nce.1'");
        assertThat(fatal).isEmpty();
    }

    @Test
    void aServerThatAnswersOnlyAfterTheResendShowsBothCopies() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);
        // Unreachable for the whole look-up (10 s at 0.5 s a look: 21 looks), then back.
        unreachableLookups = 21;

        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.RESEND)).send(batch()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).hasSize(2);
        assertThat(metrics.shard(0).checks(OutcomeCheck.UNKNOWN).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.rowsDuplicated)).isEqualTo(3); // known now
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isZero();
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("p positions 0..20 (3 rows): written twice");
    }

    @Test
    void anUnreachableServerMakesTheOutcomeUnknownAfterTheTimeout() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(false);
        unreachableLookups = Integer.MAX_VALUE;

        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(batch()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(clock.nanoTime()).isEqualTo(Duration.ofSeconds(10).toNanos());
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("the server did not answer (connect timed out) for 10.0 s");
    }

    @Test
    void withoutAQueryLogTheOutcomeIsUnknownAtOnce() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(false);
        OutcomePolicy noLog =
                new OutcomePolicy(
                        false,
                        OnUnknownOutcome.FAIL,
                        QueryLogging.notLogged("the server has no system.query_log"),
                        Duration.ofSeconds(10));

        assertThat(sender(List.of(a), RETRY, noLog).send(batch()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(lookups).isEmpty();
        assertThat(clock.nanoTime()).isZero();
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("the server has no system.query_log")
                .contains("Check whether these rows are in db.t")
                .contains("--on-unknown-outcome resend");
    }

    @Test
    void aTableThatDeduplicatesGetsTheInsertAgainWithoutAsking() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);

        assertThat(sender(List.of(a), RETRY).send(batch())).isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(lookups).isEmpty();
        assertThat(metrics.shard(0).retries(RetryReason.DEDUPLICATED).getLongValue()).isEqualTo(1);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isZero();
        assertThat(a.inserts().get(0).settings()).doesNotContainKey("log_queries");
    }

    @Test
    void aReplayAnEarlierRunWroteIsNotSentAgain() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.logEarlier(TOKEN + "#0ld.1", -1);
        a.logEarlier(TOKEN + "#0ld.2", 3);

        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.attempts()).isZero();
        assertThat(metrics.shard(0).checks(OutcomeCheck.WRITTEN).getLongValue()).isEqualTo(1);
        // That run put the rows in the table: they are counted apart, not as this run's.
        assertThat(count(m -> m.rowsAlreadyWritten)).isEqualTo(3);
        assertThat(count(m -> m.records)).isZero();
        assertThat(count(m -> m.batches)).isZero();
    }

    @Test
    void aReplayWhereNothingCanBeLookedUpIsSentAndCountedAsPossiblyTwice() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        OutcomePolicy noLog =
                new OutcomePolicy(
                        false,
                        OnUnknownOutcome.FAIL,
                        QueryLogging.notLogged("the server keeps no log of sluice's queries"),
                        Duration.ofSeconds(10));
        assertThat(sender(List.of(a), RETRY, noLog).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(a.inserts()).hasSize(1);
        assertThat(lookups).isEmpty();
        assertThat(count(m -> m.records)).isEqualTo(3);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isEqualTo(3);
        assertThat(metrics.shard(0).retries(RetryReason.UNKNOWN).getLongValue()).isEqualTo(1);
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("may be in the table twice")
                .contains("an earlier run may have written it");
        assertThat(fatal).isEmpty();
    }

    @Test
    void aReplayTheServerNeverSawIsSentAndOneItFailedIsSentAgain() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(a.inserts()).hasSize(1);
        assertThat(metrics.shard(0).checks(OutcomeCheck.NOT_WRITTEN).getLongValue()).isZero();

        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        b.logEarlier(TOKEN + "#0ld.1", -1);
        sender(List.of(b), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed());
        assertThat(b.inserts()).hasSize(1);
        assertThat(metrics.shard(0).checks(OutcomeCheck.NOT_WRITTEN).getLongValue()).isEqualTo(1);
        assertThat(fatal).isEmpty();
    }

    @Test
    void aReplayAnEarlierRunLeftUnknownStopsAgainUnlessTheServerNowKnows() {
        unresolved.add(TOKEN);
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(a.attempts()).isZero();
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("in an earlier run, as query_ids starting '" + TOKEN + "#'")
                .contains("that run left its outcome unknown");

        // The server's log now says: not written. It is sent, and leaves the record.
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        b.logEarlier(TOKEN + "#0ld.1", -1);
        assertThat(sender(List.of(b), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(b.inserts()).hasSize(1);
        assertThat(unresolved.tokens()).isEmpty();
    }

    @Test
    void aReplayLeftUnknownIsSentUnderResendAndCountedAsPossiblyDuplicated() {
        unresolved.add(TOKEN);
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.RESEND)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(a.inserts()).hasSize(1);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isEqualTo(3);
        assertThat(unresolved.tokens()).isEmpty();
    }

    @Test
    void aReplayIsLookedUpAgainWhenTheServerDidNotAnswer() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.logEarlier(TOKEN + "#0ld.1", 3);
        unreachableLookups = 2;
        assertThat(sender(List.of(a), RETRY, asking(OnUnknownOutcome.FAIL)).send(replayed()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(lookups).hasSize(3);
        assertThat(a.attempts()).isZero();
        assertThat(metrics.shard(0).retries(RetryReason.CONNECTION).getLongValue()).isEqualTo(2);
    }

    private static final String GROUP = "t/mem/g00000000000000ab.2/0";

    /** A Replicated table on a server that logs sluice's queries once asked to. */
    private static OutcomePolicy replicatedLogged(OnUnknownOutcome onUnknown) {
        return new OutcomePolicy(
                true, onUnknown, asking(onUnknown).logging(), Duration.ofSeconds(30));
    }

    /** Partition p's member (positions 0..20) of the group {@link #GROUP}, replayed alone. */
    private SealedBatch member() {
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        BatchBuilder open =
                new BatchBuilder(
                        "p", new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
        for (int i = 0; i < 3; i++) {
            open.beginRow();
            open.block().column(0).appendLong(i);
            open.block().column(1).appendString("v" + i);
            open.commitRow(i * 10L);
        }
        return SealedBatch.memberAlone(
                settled::add,
                open,
                new LedgerEntry("p", 0, 20, 0, 0, "00000000000000ab.2"),
                true,
                TOKEN,
                GROUP,
                SealReason.REPLAY,
                0,
                1);
    }

    @Test
    void aMemberReplayedAloneIsNotSentWhenItsGroupIsWrittenOnAnyReplica() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        b.logEarlier(GROUP + "#0ld.1", -1);
        b.logEarlier(GROUP + "#0ld.2", 7); // the whole group's rows, more than the member's
        b.logEarlier(GROUP + "0#0ld.1", 5); // another group's (shard 10): not this one

        assertThat(
                        sender(List.of(a, b), RETRY, replicatedLogged(OnUnknownOutcome.RESEND))
                                .send(member()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.attempts() + b.attempts()).isZero();
        assertThat(lookups).containsExactly(GROUP, GROUP); // each replica, by the group's token
        assertThat(count(m -> m.rowsAlreadyWritten)).isEqualTo(3);
        assertThat(count(m -> m.records)).isZero();
        assertThat(metrics.shard(0).checks(OutcomeCheck.WRITTEN).getLongValue()).isEqualTo(1);
    }

    @Test
    void aMemberWhoseGroupNoReplicaSawIsSentAloneUnderItsOwnToken() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        b.logEarlier(GROUP + "0#0ld.1", 5); // shard 10's group, not this one
        long before = clock.nanoTime();

        assertThat(
                        sender(List.of(a, b), RETRY, replicatedLogged(OnUnknownOutcome.RESEND))
                                .send(member()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);

        assertThat(a.inserts()).hasSize(1);
        assertThat(a.inserts().get(0).queryId()).startsWith(TOKEN + "#n0nce.1");
        assertThat(count(m -> m.records)).isEqualTo(3);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isZero();
        // Looked for a little longer, in case the dead run's INSERT was still on its way to a log.
        assertThat(clock.nanoTime() - before)
                .isGreaterThanOrEqualTo(OutcomeResolver.REPLAY_SETTLE_NANOS);
    }

    @Test
    void aMemberWhoseGroupFailedIsSentAndOneStillRunningIsWaitedFor() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.logEarlier(GROUP + "#0ld.1", -1);
        assertThat(
                        sender(List.of(a), RETRY, replicatedLogged(OnUnknownOutcome.RESEND))
                                .send(member()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(a.inserts()).hasSize(1);
        assertThat(metrics.shard(0).checks(OutcomeCheck.NOT_WRITTEN).getLongValue()).isEqualTo(1);

        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        b.markRunning(GROUP + "#0ld.1");
        BatchSender sender =
                senderWithLookup(
                        b,
                        replicatedLogged(OnUnknownOutcome.RESEND),
                        prefix -> {
                            if (lookups.size() == 3) {
                                b.finish(GROUP + "#0ld.1");
                                b.logEarlier(GROUP + "#0ld.1", 7);
                            }
                            lookups.add(prefix);
                            return b.trace(prefix);
                        });
        lookups.clear();
        assertThat(sender.send(member())).isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(b.attempts()).isZero();
        assertThat(lookups).hasSize(4);
    }

    @Test
    void aMemberWhoseGroupWasPartlyWrittenStopsUnderFailAndIsCountedUnderResend() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.logEarlier(GROUP + "/g0#0ld.1/2", 4); // the first of its two INSERTs; none of the other
        assertThat(
                        sender(List.of(a), RETRY, replicatedLogged(OnUnknownOutcome.FAIL))
                                .send(member()))
                .isEqualTo(SealedBatch.Outcome.ABANDONED);
        assertThat(a.attempts()).isZero();
        assertThat(fatal)
                .singleElement()
                .asString()
                .contains("p positions 0..20 was part of a batch of several partitions")
                .contains("query_ids starting '" + GROUP + "'")
                .contains("1 of its 2 INSERTs were written");

        fatal.clear();
        assertThat(
                        sender(List.of(a), RETRY, replicatedLogged(OnUnknownOutcome.RESEND))
                                .send(member()))
                .isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(a.inserts()).hasSize(1);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isEqualTo(3);
        assertThat(notes.lines())
                .singleElement()
                .asString()
                .contains("may be in the table twice")
                .contains(GROUP);
        assertThat(fatal).isEmpty();
    }

    @Test
    void aMemberIsSentAndCountedAsPossiblyTwiceWhereNothingCanBeLookedUp() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        assertThat(sender(List.of(a), RETRY).send(member())).isEqualTo(SealedBatch.Outcome.WRITTEN);
        assertThat(lookups).isEmpty();
        assertThat(a.inserts()).hasSize(1);
        assertThat(count(m -> m.rowsPossiblyDuplicated)).isEqualTo(3);
    }

    @Test
    void aGroupsInsertsAreLoggedOnATableThatDeduplicates() {
        OutcomePolicy dedupLogged = replicatedLogged(OnUnknownOutcome.RESEND);
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        List<SealedBatch.Segment> segments = new ArrayList<>();
        for (String p : List.of("p", "q")) {
            BatchBuilder open =
                    new BatchBuilder(
                            p, new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
            open.beginRow();
            open.block().column(0).appendLong(1);
            open.block().column(1).appendString(p);
            open.commitRow(0);
            segments.add(new SealedBatch.Segment(open, new LedgerEntry(p, 0, 0, 0, 0, "ab.2"), 1));
        }
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        sender(List.of(a), RETRY, dedupLogged)
                .send(new SealedBatch(settled::add, segments, 0, false, GROUP, SealReason.ROWS, 0));
        sender(List.of(a), RETRY, dedupLogged).send(batch());
        assertThat(a.inserts()).hasSize(2);
        assertThat(a.inserts().get(0).settings()).containsEntry("log_queries", "1");
        assertThat(a.inserts().get(1).settings()).doesNotContainKey("log_queries");
    }

    @Test
    void aBatchAbandonedWhileItsOutcomeIsUnknownIsRecordedForTheNextRun() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.interruptNext(true);
        BatchSender sender =
                senderWithLookup(
                        a,
                        asking(OnUnknownOutcome.RESEND),
                        prefix -> {
                            a.loseLog();
                            abandon = true; // the pipeline stops meanwhile
                            return a.trace(prefix);
                        });

        assertThat(sender.send(batch())).isEqualTo(SealedBatch.Outcome.ABANDONED);

        assertThat(a.attempts()).isEqualTo(1);
        assertThat(unresolved.tokens()).containsExactly(TOKEN);
        assertThat(count(m -> m.rowsUnresolved)).isEqualTo(3);
        assertThat(fatal).isEmpty();
    }

    private BatchSender senderWithLookup(
            FakeInserter a,
            OutcomePolicy policy,
            java.util.function.Function<String, dev.sluice.clickhouse.status.QueryTrace> trace) {
        return new BatchSender(
                0,
                "db.t",
                Map.of(),
                new Replicas(List.of("clickhouse://replica0:9000/db"), url -> a, 0),
                new Backoff(RETRY, new Random(7)),
                clock,
                InsertPlan.of(table, FakeInserter.server(18, 16), List.of("n", "s"), presort, split)
                        .newShaper(metrics),
                metrics.shard(0),
                supervisor,
                policy,
                (url, prefix, since, timeout, logging) -> trace.apply(prefix),
                unresolved,
                notes,
                "n0nce",
                SplitInserts.inMemory(),
                RejectedRows.failing());
    }
}
