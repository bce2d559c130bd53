package dev.sluice.pipeline.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer against the real server: many threads submitting at once land every row once, value by
 * value; a completion completes only after the server acknowledged; the in-flight limit holds while
 * the server does not answer; close() sends what is gathered; a failing server fails the completion
 * with its reason; a row the server rejects fails its batch with nothing written, or, with a
 * bisecting handler, is handed to it while the rest is written. Also runs the Javadoc's example, as
 * written there.
 */
@Timeout(300)
class ClickHouseWriterIT {

    private static String createTable(String prefix) {
        String table = TestServer.newTable(prefix);
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, thread UInt32, name String, ts DateTime,"
                        + " tag String DEFAULT concat('t', toString(thread)))"
                        + " ENGINE = MergeTree ORDER BY id");
        return table;
    }

    private static List<List<Object>> readBack(String table) {
        try (NativeConnection c = TestServer.connect()) {
            return c.queryRows("SELECT id, thread, name, ts, tag FROM " + table + " ORDER BY id");
        }
    }

    private static long count(String table) {
        return TestServer.single("SELECT count() FROM " + table);
    }

    /** The expected row for id {@code id} written by {@code thread}; every 3rd row lacks tag. */
    private static List<Object> expected(long id, int thread) {
        return List.of(
                id,
                (long) thread,
                "name-" + id,
                1_700_000_000L + id,
                id % 3 == 0 ? "t" + thread : "tag-" + id);
    }

    private static void fill(Rows rows, long from, int n, int thread) {
        for (long id = from; id < from + n; id++) {
            rows.set("id", id).set("thread", thread).set("name", "name-" + id);
            rows.set("ts", Instant.ofEpochSecond(1_700_000_000L + id));
            if (id % 3 != 0) {
                rows.set("tag", "tag-" + id);
            }
            rows.endRow();
        }
    }

    @Test
    void manyThreadsSubmittingAtOnceLandEveryRowOnceValueByValue() throws Exception {
        String table = createTable("writer_threads");
        int threads = 8;
        int submissions = 25;
        int perSubmission = 400;
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url(), table)
                        .batch(3_000, 64 << 20, Duration.ofMillis(200))
                        .inflightPerShard(3)
                        .maxInflightBytes(4 << 20)
                        .build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<List<CompletableFuture<Written>>>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                work.add(
                        pool.submit(
                                () -> {
                                    List<CompletableFuture<Written>> done = new ArrayList<>();
                                    for (int s = 0; s < submissions; s++) {
                                        long from =
                                                ((long) thread * submissions + s) * perSubmission;
                                        Rows rows = w.newRows();
                                        fill(rows, from, perSubmission, thread);
                                        // even submissions are batches of their own, odd ones
                                        // are gathered with other threads' rows
                                        done.add(
                                                s % 2 == 0
                                                        ? w.submit(rows, table + "/" + from)
                                                        : w.submit(rows));
                                    }
                                    return done;
                                }));
            }
            long acknowledged = 0;
            for (Future<List<CompletableFuture<Written>>> f : work) {
                for (CompletableFuture<Written> c : f.get(120, TimeUnit.SECONDS)) {
                    acknowledged += c.get(120, TimeUnit.SECONDS).rows();
                }
            }
            pool.shutdown();
            long total = (long) threads * submissions * perSubmission;
            assertThat(acknowledged).isEqualTo(total);
            assertThat(w.stats().rowsWritten()).isEqualTo(total);
        }
        List<List<Object>> rows = readBack(table);
        assertThat(rows).hasSize(threads * submissions * perSubmission);
        for (List<Object> row : rows) {
            long id = (Long) row.get(0);
            int thread = (int) (id / (submissions * perSubmission));
            assertThat(row).as("row %d", id).isEqualTo(expected(id, thread));
        }
    }

    @Test
    void aCompletionCompletesOnlyAfterTheServerAcknowledged() throws Exception {
        String table = createTable("writer_ack");
        // Over HTTP the whole block goes out before the server answers (a native INSERT waits
        // for the table's header first), so holding back the answers holds back only the
        // acknowledgement.
        String http = TestServer.env("CLICKHOUSE_HTTP_URL");
        assertThat(http).as("the private server's HTTP URL").isNotNull();
        ConnectionConfig c = ConnectionConfig.parse(http);
        try (StallingProxy proxy = new StallingProxy(c.host(), c.port());
                ClickHouseWriter w =
                        ClickHouseWriter.builder(
                                        http.replace(
                                                c.host() + ":" + c.port(),
                                                "127.0.0.1:" + proxy.port()),
                                        table)
                                .inflightPerShard(1)
                                .build()) {
            Rows warmUp = w.newRows(); // opens the writer's connection before the stall
            fill(warmUp, 1_000, 1, 1);
            w.submit(warmUp, table + "/warm-up").get(60, TimeUnit.SECONDS);
            Rows rows = w.newRows();
            fill(rows, 0, 1_000, 1);
            proxy.stall();
            try {
                CompletableFuture<Written> done = w.submit(rows, table + "/ack");
                // what the table holds when the completion fires (on the writer's thread)
                CompletableFuture<Long> atCompletion = done.thenApply(x -> count(table));
                // the server gets the block and writes it; its answer is held back
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (count(table) < 1_001 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(count(table)).isEqualTo(1_001);
                Thread.sleep(300);
                assertThat(done).as("no acknowledgement has reached the writer").isNotDone();
                proxy.resume();
                assertThat(done.get(60, TimeUnit.SECONDS))
                        .isEqualTo(new Written(1_000, table + "/ack"));
                assertThat(atCompletion.get(60, TimeUnit.SECONDS)).isEqualTo(1_001);
            } finally {
                proxy.resume();
            }
        }
        assertThat(readBack(table)).hasSize(1_001);
    }

    @Test
    void whileTheServerDoesNotAnswerTheInFlightLimitRefusesOrWaits() throws Exception {
        String table = createTable("writer_limit");
        ConnectionConfig c = TestServer.config();
        try (StallingProxy proxy = new StallingProxy(c.host(), c.port());
                ClickHouseWriter failing =
                        ClickHouseWriter.builder(via(proxy), table)
                                .maxInflightBytes(20_000)
                                .whenFull(WhenFull.FAIL)
                                .build();
                ClickHouseWriter waiting =
                        ClickHouseWriter.builder(via(proxy), table)
                                .maxInflightBytes(20_000)
                                .whenFull(WhenFull.WAIT)
                                .maxWait(Duration.ofMillis(500))
                                .build()) {
            proxy.stall();
            Rows a = failing.newRows();
            fill(a, 0, 1_000, 1); // ~ 30 kB: more than the limit, alone in flight
            CompletableFuture<Written> first = failing.submit(a, table + "/a");
            Rows b = failing.newRows();
            fill(b, 1_000, 10, 1);
            assertThatThrownBy(() -> failing.submit(b, table + "/b"))
                    .isInstanceOf(WriterFullException.class)
                    .hasMessageContaining("in-flight limit is reached");
            Rows d = waiting.newRows();
            fill(d, 2_000, 1_000, 2);
            CompletableFuture<Written> second = waiting.submit(d, table + "/d");
            Rows e = waiting.newRows();
            fill(e, 3_000, 10, 2);
            long start = System.nanoTime();
            assertThatThrownBy(() -> waiting.submit(e, table + "/e"))
                    .isInstanceOf(WriterFullException.class)
                    .hasMessageContaining("after waiting 500 ms");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(400_000_000L);
            assertThat(first).isNotDone();
            assertThat(second).isNotDone();
            proxy.resume();
            first.get(60, TimeUnit.SECONDS);
            second.get(60, TimeUnit.SECONDS);
            failing.submit(b, table + "/b").get(60, TimeUnit.SECONDS);
            waiting.submit(e, table + "/e").get(60, TimeUnit.SECONDS);
        }
        assertThat(count(table)).isEqualTo(2_020);
    }

    @Test
    void closeSendsWhatIsGatheredAndEveryCompletionIsDone() throws Exception {
        String table = createTable("writer_close");
        List<CompletableFuture<Written>> done = new ArrayList<>();
        ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url(), table)
                        .batch(1_000_000, 64 << 20, Duration.ofHours(1))
                        .build();
        for (int s = 0; s < 10; s++) {
            Rows rows = w.newRows();
            fill(rows, s * 100L, 100, 3);
            done.add(w.submit(rows));
        }
        assertThat(count(table)).isZero(); // gathered, not sealed: nothing sent yet
        w.close();
        for (CompletableFuture<Written> d : done) {
            assertThat(d).isCompleted();
            assertThat(d.get().rows()).isEqualTo(100);
        }
        List<List<Object>> rows = readBack(table);
        assertThat(rows).hasSize(1_000);
        for (List<Object> row : rows) {
            assertThat(row).isEqualTo(expected((Long) row.get(0), 3));
        }
    }

    @Test
    void aServerErrorFailsTheCompletionWithTheServersReason() throws Exception {
        String table = createTable("writer_dropped");
        try (ClickHouseWriter w = ClickHouseWriter.builder(TestServer.url(), table).build()) {
            TestServer.execute("DROP TABLE " + table);
            Rows rows = w.newRows();
            fill(rows, 0, 10, 1);
            CompletableFuture<Written> done =
                    w.submit(rows, WriteOptions.token(table + "/x").describedAs("test rows 0..9"));
            assertThatThrownBy(() -> done.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("failed on test rows 0..9")
                    .hasMessageContaining("doesn't exist");
        }
    }

    /** A table whose MATERIALIZED column refuses the row of id 7 (throwIf, code 395). */
    private static String refusingTable(String prefix) {
        String table = TestServer.newTable(prefix);
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, name String, v UInt8 MATERIALIZED throwIf(id = 7))"
                        + " ENGINE = MergeTree ORDER BY id");
        return table;
    }

    private static Rows numbered(ClickHouseWriter w, int n) {
        Rows rows = w.newRows();
        for (long id = 0; id < n; id++) {
            rows.set("id", id).set("name", "name-" + id).endRow();
        }
        return rows;
    }

    @Test
    void byDefaultARowTheServerRejectsFailsItsBatchAndNothingOfItIsWritten() throws Exception {
        String table = refusingTable("writer_rejected");
        try (ClickHouseWriter w = ClickHouseWriter.builder(TestServer.url(), table).build()) {
            CompletableFuture<Written> done =
                    w.submit(
                            numbered(w, 10),
                            WriteOptions.token(table + "/a").describedAs("rows 0..9"));
            assertThatThrownBy(() -> done.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("the server rejected rows of rows 0..9")
                    .hasMessageContaining("throwIf")
                    .hasMessageContaining("nothing of it was written");
        }
        assertThat(count(table)).isZero();
    }

    @Test
    void aBisectingHandlerGetsTheRejectedRowAndEveryOtherRowIsWritten() throws Exception {
        String table = refusingTable("writer_bisected");
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
                                        + new String(row, StandardCharsets.UTF_8));
                        assertThat(reason).contains("throwIf");
                        return null;
                    }
                };
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url(), table).rejectedRows(handler).build()) {
            Written written =
                    w.submit(
                                    numbered(w, 10),
                                    WriteOptions.token(table + "/b").describedAs("rows 0..9"))
                            .get(60, TimeUnit.SECONDS);
            assertThat(written.rows()).isEqualTo(10);
        }
        assertThat(rejected).containsExactly("rows 0..9 @7 {\"id\":7,\"name\":\"name-7\"}");
        List<List<Object>> back;
        try (NativeConnection c = TestServer.connect()) {
            back = c.queryRows("SELECT id, name FROM " + table + " ORDER BY id");
        }
        List<List<Object>> want = new ArrayList<>();
        for (long id = 0; id < 10; id++) {
            if (id != 7) {
                want.add(List.of(id, "name-" + id));
            }
        }
        assertThat(back).isEqualTo(want);
    }

    @Test
    void aServerThatIsGoneFailsTheCompletionOnceTheAttemptsRunOut() throws Exception {
        String table = createTable("writer_gone");
        ConnectionConfig c = TestServer.config();
        try (StallingProxy proxy = new StallingProxy(c.host(), c.port());
                ClickHouseWriter w =
                        ClickHouseWriter.builder(via(proxy), table)
                                .retry(
                                        new RetrySpec(
                                                Duration.ofMillis(10),
                                                Duration.ofMillis(50),
                                                2.0,
                                                0,
                                                3))
                                .build()) {
            proxy.refuse();
            Rows rows = w.newRows();
            fill(rows, 0, 10, 1);
            CompletableFuture<Written> done = w.submit(rows, table + "/gone");
            assertThatThrownBy(() -> done.get(60, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("gave up after 3 attempts")
                    .hasMessageContaining("127.0.0.1:" + proxy.port());
        }
        assertThat(count(table)).isZero();
    }

    /** The class Javadoc's example, as written there. */
    record Event(Instant time, String kind) {}

    @Test
    void theJavadocExampleRunsAsWritten() throws Exception {
        String table = TestServer.newTable("writer_example");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (ts DateTime, kind String, n UInt32 DEFAULT 7)"
                        + " ENGINE = MergeTree ORDER BY ts");
        List<Event> events =
                List.of(
                        new Event(Instant.ofEpochSecond(1_714_550_400L), "open"),
                        new Event(Instant.ofEpochSecond(1_714_550_401L), "close"));
        String url = TestServer.url();
        Written w = example(url, table, events);
        assertThat(w.rows()).isEqualTo(2);
        try (NativeConnection conn = TestServer.connect()) {
            assertThat(conn.queryRows("SELECT ts, kind, n FROM " + table + " ORDER BY ts"))
                    .containsExactly(
                            List.of(1_714_550_400L, "open", 7L),
                            List.of(1_714_550_401L, "close", 7L));
        }
    }

    private static Written example(String url, String table, List<Event> events) {
        // --- as in ClickHouseWriter's Javadoc (url and table given) ---
        try (ClickHouseWriter writer =
                ClickHouseWriter.builder(url, table).maxInflightBytes(256L << 20).build()) {
            Rows rows = writer.newRows();
            for (Event e : events) {
                rows.set("ts", e.time()).set("kind", e.kind()).endRow(); // others get DEFAULT
            }
            CompletableFuture<Written> done =
                    writer.submit(rows, WriteOptions.token("events-2024-05-01-7"));
            return done.join(); // acknowledged by the server: the rows are in the table
        }
    }

    private static String via(StallingProxy proxy) {
        ConnectionConfig c = TestServer.config();
        return TestServer.url().replace(c.host() + ":" + c.port(), "127.0.0.1:" + proxy.port());
    }
}
