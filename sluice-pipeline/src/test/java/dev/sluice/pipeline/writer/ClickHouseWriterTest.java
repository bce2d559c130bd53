package dev.sluice.pipeline.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer over a fake replica: what reaches the replica for each kind of submission, when
 * completions complete, the in-flight limit, flush and close. What the real server does with it is
 * {@code ClickHouseWriterIT}'s.
 */
@Timeout(60)
class ClickHouseWriterTest {
    private static final ServerInfo SERVER = FakeInserter.server(18, 16);
    private static final TableSchema TABLE =
            Tables.table("t", "id UInt64", "name String", "tag String DEFAULT 'x'");

    private final FakeInserter replica = new FakeInserter(SERVER);

    /** Connections to one fake replica that holds {@link #TABLE}. */
    private Connections connections(FakeInserter inserter) {
        return new Connections() {
            @Override
            public BlockInserter inserter(String url) {
                return inserter;
            }

            @Override
            public TargetTable describe(String url) {
                return new TargetTable(TABLE, SERVER);
            }

            @Override
            public List<List<Object>> clusterRows(String url, String cluster) {
                return List.of();
            }

            @Override
            public QueryTrace trace(
                    String url,
                    String prefix,
                    LocalDate since,
                    Duration timeout,
                    QueryLogging logging) {
                return inserter.trace(prefix);
            }
        };
    }

    private ClickHouseWriter.Builder builder() {
        return ClickHouseWriter.builder("clickhouse://replica:9000/test", "test.t")
                .connections(connections(replica));
    }

    private static Rows rows(ClickHouseWriter w, long from, int n) {
        Rows rows = w.newRows();
        for (long i = from; i < from + n; i++) {
            rows.set("id", i).set("name", "n" + i).endRow();
        }
        return rows;
    }

    @Test
    void aSubmissionWithATokenIsOneInsertCarryingItAndCompletesWithItsRows() throws Exception {
        try (ClickHouseWriter w = builder().build()) {
            Written written = w.submit(rows(w, 0, 3), "job/part-0/0-2").get(10, TimeUnit.SECONDS);
            assertThat(written).isEqualTo(new Written(3, "job/part-0/0-2"));
            assertThat(replica.inserts()).hasSize(1);
            FakeInserter.Insert insert = replica.inserts().get(0);
            assertThat(insert.table()).isEqualTo("test.t");
            assertThat(insert.queryId()).startsWith("job/part-0/0-2#");
            // tag was given in no row: left out, so the server fills its DEFAULT
            assertThat(insert.columns()).containsExactly("id", "name");
            assertThat(insert.rows())
                    .containsExactly(List.of(0L, "n0"), List.of(1L, "n1"), List.of(2L, "n2"));
        }
    }

    @Test
    void submissionsWithoutATokenAreGatheredIntoOneBatchAndAllCompleteWhenItIsWritten()
            throws Exception {
        try (ClickHouseWriter w = builder().batch(1000, 1 << 20, Duration.ofHours(1)).build()) {
            List<CompletableFuture<Written>> done = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                done.add(w.submit(rows(w, i * 10L, 10)));
            }
            assertThat(replica.inserts()).isEmpty(); // still gathering: nothing is sealed
            assertThat(done).noneMatch(CompletableFuture::isDone);
            w.flush();
            assertThat(replica.inserts()).hasSize(1);
            assertThat(replica.rows()).hasSize(50);
            for (int i = 0; i < 5; i++) {
                assertThat(done.get(i).get().rows()).isEqualTo(10);
            }
            assertThat(done.get(0).get().token()).startsWith("writer@").contains("/c1");
        }
    }

    @Test
    void aGatheredBatchIsSealedAtItsRowLimit() throws Exception {
        try (ClickHouseWriter w = builder().batch(20, 1 << 20, Duration.ofHours(1)).build()) {
            CompletableFuture<Written> a = w.submit(rows(w, 0, 10));
            CompletableFuture<Written> b = w.submit(rows(w, 10, 10));
            b.get(10, TimeUnit.SECONDS);
            assertThat(a).isCompleted();
            assertThat(replica.inserts()).hasSize(1);
        }
    }

    @Test
    void aGatheredBatchIsSealedByLinger() throws Exception {
        try (ClickHouseWriter w = builder().batch(1000, 1 << 20, Duration.ofMillis(50)).build()) {
            assertThat(w.submit(rows(w, 0, 3)).get(10, TimeUnit.SECONDS).rows()).isEqualTo(3);
        }
    }

    @Test
    void aFieldMissingFromSomeRowsGetsItsDefaultComputedByTheWriter() throws Exception {
        try (ClickHouseWriter w = builder().build()) {
            Rows rows = w.newRows();
            rows.add(Map.of("id", 1L, "name", "a", "tag", "given"));
            rows.add(Map.of("id", 2L, "name", "b"));
            w.submit(rows, "t-1").get(10, TimeUnit.SECONDS);
            assertThat(replica.rows())
                    .containsExactly(List.of(1L, "a", "given"), List.of(2L, "b", "x"));
        }
    }

    @Test
    void theCompletionWaitsForTheAcknowledgement() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        replica.onInsert(
                i -> {
                    inside.countDown();
                    await(release);
                });
        try (ClickHouseWriter w = builder().build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 2), "t-2");
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100);
            assertThat(done).isNotDone(); // the replica has the rows but has not answered
            release.countDown();
            assertThat(done.get(10, TimeUnit.SECONDS).rows()).isEqualTo(2);
        }
    }

    @Test
    void pastTheInFlightLimitASubmissionFailsAtOnceUnderFail() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        replica.onInsert(i -> await(release));
        try (ClickHouseWriter w = builder().maxInflightBytes(100).whenFull(WhenFull.FAIL).build()) {
            Rows first = rows(w, 0, 20); // 20 × (8 + 3..4) bytes: more than the limit alone
            CompletableFuture<Written> a = w.submit(first, "t-a");
            Rows second = rows(w, 20, 1);
            assertThatThrownBy(() -> w.submit(second, "t-b"))
                    .isInstanceOf(WriterFullException.class)
                    .hasMessageContaining("in-flight limit")
                    .hasMessageContaining("100 bytes");
            assertThat(w.inFlightBytes()).isEqualTo(first.dataBytes());
            release.countDown();
            a.get(10, TimeUnit.SECONDS);
            assertThat(w.inFlightBytes()).isZero();
            assertThat(w.submit(second, "t-b").get(10, TimeUnit.SECONDS).rows()).isEqualTo(1);
        }
    }

    @Test
    void pastTheInFlightLimitASubmissionWaitsUnderWaitThenGoesOn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        replica.onInsert(i -> await(release));
        try (ClickHouseWriter w =
                builder().maxInflightBytes(100).maxWait(Duration.ofMillis(200)).build()) {
            CompletableFuture<Written> a = w.submit(rows(w, 0, 20), "t-a");
            long start = System.nanoTime();
            assertThatThrownBy(() -> w.submit(rows(w, 20, 1), "t-b"))
                    .isInstanceOf(WriterFullException.class)
                    .hasMessageContaining("after waiting 200 ms");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(150_000_000L);
            CompletableFuture<CompletableFuture<Written>> waiting =
                    CompletableFuture.supplyAsync(() -> w.submit(rows(w, 20, 1), "t-c"));
            Thread.sleep(50);
            assertThat(waiting).isNotDone();
            release.countDown();
            assertThat(waiting.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS).rows())
                    .isEqualTo(1);
            assertThat(a).isCompleted();
        }
    }

    @Test
    void aServerErrorThatWouldRecurFailsTheCompletionWithTheServersMessage() {
        replica.failNext(serverError(60, "Table test.t doesn't exist."));
        try (ClickHouseWriter w = builder().build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 2), "t-3");
            assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("Table test.t doesn't exist")
                    .hasMessageContaining("rows submitted with token t-3");
            // the writer goes on: another submission is written
            assertThat(w.submit(rows(w, 2, 1), "t-4").join().rows()).isEqualTo(1);
        }
    }

    @Test
    void byDefaultARowRefusedForItsContentFailsItsBatchAndNothingOfItIsWritten() {
        replica.refuseRows(r -> (Long) r.get(0) == 2, ClickHouseWriterTest::throwIf);
        try (ClickHouseWriter w = builder().build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 4), "t-content");
            assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("rows submitted with token t-content")
                    .hasMessageContaining("ClickHouse error 395")
                    .hasMessageContaining("nothing of it was written")
                    .hasMessageNotContaining("errors.policy");
            assertThat(replica.attempts()).isEqualTo(1); // not bisected
            assertThat(replica.inserts()).isEmpty();
        }
    }

    @Test
    void aSingleRowTooLargeForTheServerFailsTheCompletionNamingItsIndex() {
        replica.refuseAbove(1, memory());
        // the row of index 1 cannot pass alone: the server's limit stands below it
        replica.refuseRows(r -> ((String) r.get(1)).length() > 10, r -> memory());
        try (ClickHouseWriter w = builder().build()) {
            Rows rows = w.newRows();
            rows.set("id", 0L).set("name", "n0").endRow();
            rows.set("id", 1L).set("name", "x".repeat(100)).endRow();
            CompletableFuture<Written> done = w.submit(rows, "t-size");
            assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining(
                            "the server refused a single row (rows submitted with token t-size"
                                    + " position 1)")
                    .hasMessageContaining("Memory limit (for query)");
            // the half that passed was written under a sub-token of its own (in its query id, and
            // its deduplication token on 22.2+), so the same submission sent again is dropped or
            // looked up half by half
            assertThat(replica.rows()).containsExactly(List.of(0L, "n0"));
            assertThat(replica.inserts())
                    .singleElement()
                    .satisfies(i -> assertThat(i.queryId()).startsWith("t-size/r0-0#"));
        }
    }

    @Test
    void aRejectedRowsHandlerThatBisectsGetsEachRejectedRowAndTheRestIsWritten() throws Exception {
        replica.refuseRows(r -> (Long) r.get(0) % 3 == 1, ClickHouseWriterTest::throwIf);
        List<String> rejected = new CopyOnWriteArrayList<>();
        RejectedRows handler =
                new RejectedRows() {
                    @Override
                    public boolean bisects() {
                        return true;
                    }

                    @Override
                    public String reject(SealedBatch.RowSource at, byte[] row, String reason) {
                        rejected.add(
                                at.partition()
                                        + " @"
                                        + at.position()
                                        + " "
                                        + new String(row, StandardCharsets.UTF_8)
                                        + " : "
                                        + reason);
                        return null;
                    }
                };
        try (ClickHouseWriter w = builder().rejectedRows(handler).build()) {
            Written written = w.submit(rows(w, 0, 6), "t-bisect").get(10, TimeUnit.SECONDS);
            assertThat(written.rows()).isEqualTo(6); // submitted; two of them rejected
            assertThat(replica.rows())
                    .containsExactly(
                            List.of(0L, "n0"),
                            List.of(2L, "n2"),
                            List.of(3L, "n3"),
                            List.of(5L, "n5"));
            assertThat(rejected)
                    .containsExactly(
                            "rows submitted with token t-bisect @1 {\"id\":1,\"name\":\"n1\"} :"
                                    + " ClickHouse error 395: Value passed to 'throwIf' function"
                                    + " is non zero (id = 1)",
                            "rows submitted with token t-bisect @4 {\"id\":4,\"name\":\"n4\"} :"
                                    + " ClickHouse error 395: Value passed to 'throwIf' function"
                                    + " is non zero (id = 4)");
        }
    }

    @Test
    void aRejectedRowsHandlerMayStillFailTheBatch() {
        replica.refuseRows(r -> (Long) r.get(0) == 1, ClickHouseWriterTest::throwIf);
        RejectedRows refuse =
                new RejectedRows() {
                    @Override
                    public boolean bisects() {
                        return true;
                    }

                    @Override
                    public String reject(SealedBatch.RowSource at, byte[] row, String reason) {
                        return "no room for row " + at.position();
                    }
                };
        try (ClickHouseWriter w = builder().rejectedRows(refuse).build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 2), "t-refuse");
            assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("no room for row 1")
                    .hasMessageContaining("rows submitted with token t-refuse at position 1");
        }
    }

    @Test
    void runningOutOfAttemptsFailsTheCompletionAndFlushSaysSo() throws Exception {
        for (int i = 0; i < 2; i++) {
            replica.failNext(serverError(252, "Too many parts (300)."));
        }
        try (ClickHouseWriter w =
                builder().retry(new RetrySpec(Duration.ZERO, Duration.ZERO, 1.0, 0, 2)).build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 2));
            assertThatThrownBy(w::flush)
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("a submission failed since the last flush")
                    .hasMessageContaining("gave up after 2 attempts")
                    .hasMessageContaining("Too many parts");
            assertThat(done).isCompletedExceptionally();
            w.flush(); // reported once: nothing failed since
        }
    }

    @Test
    void aFailureSettledBeforeFlushIsCalledIsStillReportedByIt() throws Exception {
        replica.failNext(serverError(60, "Table test.t doesn't exist."));
        try (ClickHouseWriter w = builder().build()) {
            CompletableFuture<Written> done = w.submit(rows(w, 0, 2), "t-early");
            assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(w.submit(rows(w, 2, 1), "t-late").get(10, TimeUnit.SECONDS).rows())
                    .isEqualTo(1);
            assertThatThrownBy(w::flush)
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("a submission failed since the last flush")
                    .hasMessageContaining("doesn't exist");
        }
    }

    @Test
    void closeSendsWhatIsGatheredAndWaitsForIt() throws Exception {
        ClickHouseWriter w = builder().batch(1000, 1 << 20, Duration.ofHours(1)).build();
        CompletableFuture<Written> done = w.submit(rows(w, 0, 7));
        w.close();
        assertThat(done).isCompleted();
        assertThat(replica.rows()).hasSize(7);
        assertThatThrownBy(() -> w.submit(rows(w, 7, 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void abortFailsWhatIsQueuedWithAClearReason() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        replica.onInsert(
                i -> {
                    inside.countDown();
                    await(release);
                });
        ClickHouseWriter w = builder().inflightPerShard(1).build();
        CompletableFuture<Written> first = w.submit(rows(w, 0, 1), "t-first");
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Written> queued = w.submit(rows(w, 1, 1), "t-queued");
        w.abort();
        release.countDown();
        w.close();
        assertThat(first.get(10, TimeUnit.SECONDS).rows()).isEqualTo(1);
        assertThatThrownBy(() -> queued.get(10, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(WriterException.class)
                .hasMessageContaining(
                        "closed or aborted before rows submitted with token t-queued");
    }

    @Test
    void rowsOfAnotherWriterOrWithARowLeftOpenAreRefused() {
        try (ClickHouseWriter a = builder().build();
                ClickHouseWriter b = builder().build()) {
            Rows rows = rows(a, 0, 1);
            assertThatThrownBy(() -> b.submit(rows))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("another writer");
            rows.set("id", 5L);
            assertThatThrownBy(() -> a.submit(rows))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("row 1 was begun but not ended");
        }
    }

    @Test
    void aTokenWithCharactersQueryIdsCannotCarryIsRefused() {
        assertThatThrownBy(() -> WriteOptions.token("a#b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a#b'");
        assertThatThrownBy(() -> WriteOptions.token(""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namedColumnsMustBeInTheTable() {
        assertThatThrownBy(() -> builder().columns(List.of("id", "nope")).build())
                .isInstanceOf(WriterException.class)
                .hasMessageContaining("column nope is not in test.t");
    }

    private static ServerException serverError(int code, String message) {
        return new ServerException(
                new ServerExceptionInfo(
                        code, "DB::Exception", "DB::Exception: " + message, "", null),
                null);
    }

    private static ServerException throwIf(List<Object> row) {
        return serverError(
                395, "Value passed to 'throwIf' function is non zero (id = " + row.get(0) + ")");
    }

    private static ServerException memory() {
        return serverError(
                241, "Memory limit (for query) exceeded: would use 20.00 MiB, maximum: 19.07 MiB");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
