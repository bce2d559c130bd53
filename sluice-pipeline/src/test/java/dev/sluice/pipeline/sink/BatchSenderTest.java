package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.ManualClock;
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
    private final List<Batch> settled = new ArrayList<>();
    private boolean abandon;
    private final Metrics metrics = new Metrics("t", 1, new NoProbes());
    private final SinkSupervisor supervisor =
            new SinkSupervisor() {
                @Override
                public boolean abandonQueued() {
                    return abandon;
                }

                @Override
                public void fatal(Batch batch, String message, Throwable cause) {
                    fatal.add(message);
                }
            };

    static ServerException serverError(int code, String message) {
        return new ServerException(
                new ServerExceptionInfo(
                        code, "DB::Exception", "DB::Exception: " + message, "", null),
                null);
    }

    private TableSchema table = Tables.table("t", "n UInt64", "s String");
    private boolean presort;
    private boolean split;

    private Batch batch() {
        return batch(0, 1, 2);
    }

    /** A batch of rows (n, "v" + n), at positions 0, 10, 20, ... */
    private Batch batch(long... ns) {
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        OpenBatch open =
                new OpenBatch(
                        "p", new BatchBuffers(columns.newBlock(), new AbsentRows(columns.size())));
        for (int i = 0; i < ns.length; i++) {
            open.beginRow();
            open.block().column(0).appendLong(ns[i]);
            open.block().column(1).appendString("v" + ns[i]);
            open.commitRow(i * 10L);
        }
        long last = (ns.length - 1) * 10L;
        return new Batch(
                settled::add,
                open,
                new LedgerEntry("p", 0, last, 0),
                false,
                "t/mem/p/0-" + last + "/0",
                SealReason.ROWS,
                0,
                1);
    }

    private BatchSender sender(List<FakeInserter> replicas, RetrySpec retry) {
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
                supervisor);
    }

    @Test
    void aRetryableErrorMovesToTheNextReplicaAtOnceAndSucceedsThere() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(new ConnectionException("connection reset"));
        BatchSender sender = sender(List.of(a, b), RETRY);

        assertThat(sender.send(batch())).isEqualTo(Batch.Outcome.WRITTEN);

        assertThat(a.inserts()).isEmpty();
        assertThat(a.isOpen()).isFalse(); // the broken connection was dropped
        assertThat(b.inserts()).hasSize(1);
        assertThat(b.rows())
                .containsExactly(List.of(0L, "v0"), List.of(1L, "v1"), List.of(2L, "v2"));
        assertThat(clock.nanoTime()).isZero(); // no backoff before the first round is through
        assertThat(metrics.shard(0).retries.getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).errors(ErrorClass.CONNECTION).getLongValue()).isEqualTo(1);
        assertThat(metrics.shard(0).records.getLongValue()).isEqualTo(3);
        assertThat(fatal).isEmpty();
    }

    @Test
    void oneReplicaBacksOffExponentiallyWithJitterBetweenAttempts() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(serverError(252, "Too many parts (300)"))
                .failNext(serverError(241, "Memory limit exceeded"))
                .failNext(new ConnectionException("timed out"));
        BatchSender sender = sender(List.of(a), RETRY);

        assertThat(sender.send(batch())).isEqualTo(Batch.Outcome.WRITTEN);

        // 100 + 200 + 400 ms, each ±20 %.
        assertThat(clock.nanoTime()).isBetween(560_000_000L, 840_000_000L);
        assertThat(a.attempts()).isEqualTo(4);
        assertThat(metrics.shard(0).retries.getLongValue()).isEqualTo(3);
    }

    @Test
    void aFatalServerErrorStopsWithTheServersMessage() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        FakeInserter b = new FakeInserter(FakeInserter.server(18, 16));
        a.failNext(serverError(60, "Table db.t doesn't exist."));
        BatchSender sender = sender(List.of(a, b), RETRY);

        assertThat(sender.send(batch())).isEqualTo(Batch.Outcome.ABANDONED);

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
        assertThat(sender(List.of(a), RETRY).send(batch())).isEqualTo(Batch.Outcome.ABANDONED);
        assertThat(fatal).singleElement().asString().contains("does not match");
    }

    @Test
    void runningOutOfAttemptsIsFatalWithTheLastError() {
        FakeInserter a = new FakeInserter(FakeInserter.server(18, 16));
        for (int i = 0; i < 3; i++) {
            a.failNext(new ConnectionException("refused " + i));
        }
        RetrySpec three = new RetrySpec(Duration.ofMillis(10), Duration.ofSeconds(1), 2.0, 0, 3);
        assertThat(sender(List.of(a), three).send(batch())).isEqualTo(Batch.Outcome.ABANDONED);
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
        assertThat(sender(List.of(a), RETRY).send(batch())).isEqualTo(Batch.Outcome.ABANDONED);
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
                .isEqualTo(Batch.Outcome.WRITTEN);

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
}
