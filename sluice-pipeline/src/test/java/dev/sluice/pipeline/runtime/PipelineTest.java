package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Whole pipelines on real threads, with in-memory sources and fake replicas. */
@Timeout(60)
class PipelineTest {
    private static final List<ShardSpec> TWO_SHARDS =
            List.of(
                    new ShardSpec(List.of("clickhouse://s0:9000/db"), 1),
                    new ShardSpec(List.of("clickhouse://s1:9000/db"), 1));

    @TempDir Path dir;

    /** Row k of partition {@code part}: n = part × 1e6 + k. */
    private static String row(int part, long k) {
        return (part * 1_000_000L + k) + ",r" + k;
    }

    private static TestFactories factories(ServerInfoChoice server, TestFactories.SourceMaker s) {
        return new TestFactories(
                Tables.table("t", "n UInt64", "s String"), server.info, List.of("n", "s"), s);
    }

    private enum ServerInfoChoice {
        OLD(FakeInserter.server(18, 16)),
        MODERN(FakeInserter.server(24, 8));

        final ServerInfo info;

        ServerInfoChoice(ServerInfo info) {
            this.info = info;
        }
    }

    private static Set<Long> keys(List<List<Object>> rows) {
        Set<Long> keys = new HashSet<>();
        for (List<Object> r : rows) {
            assertThat(keys.add((Long) r.get(0))).as("row %s written once", r.get(0)).isTrue();
        }
        return keys;
    }

    @Test
    void loadsEveryRecordOnceThroughTwoShardsAndCommitsTheEnds() throws Exception {
        TestFactories f =
                factories(
                        ServerInfoChoice.MODERN,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition(
                                                "r" + reader + "a", 5_000, k -> row(reader * 2, k))
                                        .partition(
                                                "r" + reader + "b",
                                                3_333,
                                                k -> row(reader * 2 + 1, k)));
        PipelineSpec spec = new Specs.Builder().threads(2).shards(TWO_SHARDS).maxRows(700).build();

        Pipeline p = Pipeline.start(spec, f, Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        Set<Long> keys = keys(f.rows());
        assertThat(keys).hasSize(2 * (5_000 + 3_333));
        assertThat(f.replica("clickhouse://s0:9000/db").inserts()).isNotEmpty();
        assertThat(f.replica("clickhouse://s1:9000/db").inserts()).isNotEmpty();
        assertThat(r.committed())
                .containsEntry("r0a", 50_000L)
                .containsEntry("r0b", 33_330L)
                .containsEntry("r1a", 50_000L)
                .containsEntry("r1b", 33_330L);
        assertThat(r.stats().rowsWritten()).isEqualTo(keys.size());
        assertThat(r.stats().recordsRead()).isEqualTo(keys.size());
        assertThat(r.stats().inflightBytes()).isZero();
        assertThat(f.replica("clickhouse://s0:9000/db").inserts().get(0).settings())
                .containsKey("insert_deduplication_token");
        assertThat(r.message()).startsWith("done: 16666 records read, 16666 rows written");
    }

    @Test
    void batchesBecomeInsertsWithDefaultsFilledSortedAndSplitEachUnderItsOwnToken()
            throws Exception {
        TableSchema table =
                Tables.keyed(
                        "t",
                        "n",
                        "n % 2",
                        "n UInt64",
                        "s String",
                        "tag String DEFAULT concat(s, '!')",
                        "sign String DEFAULT reverse(s)");
        TestFactories f =
                new TestFactories(
                        table,
                        ServerInfoChoice.MODERN.info,
                        List.of("n", "s", "tag", "sign"),
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition(
                                                "a",
                                                40,
                                                k ->
                                                        (k * 7) % 40
                                                                + ",r"
                                                                + k
                                                                + ","
                                                                + (k % 3 == 0 ? "" : "t" + k)
                                                                + ","
                                                                + (k % 5 == 0 ? "" : "g" + k)));
        PipelineSpec spec =
                new Specs.Builder().maxRows(20).presort(true).partitionSplit(true).build();

        Pipeline p = Pipeline.start(spec, f, Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        List<FakeInserter.Insert> inserts = f.replica("clickhouse://a:9000/db").inserts();
        // Per batch: rows with and without sign (the server computes reverse(s)), each split
        // into even and odd n.
        assertThat(inserts).hasSize(8);
        Set<String> tokens = new HashSet<>();
        Set<Long> keys = new HashSet<>();
        for (FakeInserter.Insert i : inserts) {
            String token = i.settings().get("insert_deduplication_token");
            assertThat(token).matches(".*/0-190/0/g[01]/p[01]|.*/200-390/0/g[01]/p[01]");
            assertThat(tokens.add(token)).isTrue();
            long previous = -1;
            for (List<Object> row : i.rows()) {
                long n = (Long) row.get(0);
                assertThat(n).isGreaterThan(previous); // sorted by n
                assertThat(n % 2).isEqualTo((Long) i.rows().get(0).get(0) % 2); // one partition
                previous = n;
                assertThat(keys.add(n)).isTrue();
                String s = (String) row.get(1);
                long k = Long.parseLong(s.substring(1));
                assertThat(row.get(2)).isEqualTo(k % 3 == 0 ? s + "!" : "t" + k);
                assertThat(i.columns().contains("sign")).isEqualTo(k % 5 != 0);
            }
        }
        assertThat(keys).hasSize(40);
        assertThat(r.stats().rowsWritten()).isEqualTo(40);
        assertThat(r.stats().batchesWritten()).isEqualTo(2);
    }

    @Test
    void drainWritesWhatWasReadAndCommitsItAll() throws Exception {
        CountDownLatch inserts = new CountDownLatch(20);
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition("a", Long.MAX_VALUE, k -> row(0, k))
                                        .partition("b", Long.MAX_VALUE, k -> row(1, k)));
        f.replica("clickhouse://a:9000/db").onInsert(i -> inserts.countDown());
        PipelineSpec spec = new Specs.Builder().maxRows(500).linger(Duration.ofHours(1)).build();

        Pipeline p = Pipeline.start(spec, f, Clock.SYSTEM);
        assertThat(inserts.await(30, TimeUnit.SECONDS)).isTrue();
        p.drain(Duration.ofSeconds(30));
        PipelineResult r = p.awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.DRAINED);
        Map<Integer, Long> maxK = new HashMap<>();
        Set<Long> keys = keys(f.rows());
        for (long n : keys) {
            maxK.merge((int) (n / 1_000_000), n % 1_000_000, Math::max);
        }
        // Everything read was written, and the commit is right after the last row written.
        assertThat(r.committed().get("a")).isEqualTo((maxK.get(0) + 1) * MemorySource.STRIDE);
        assertThat(r.committed().get("b")).isEqualTo((maxK.get(1) + 1) * MemorySource.STRIDE);
        assertThat(keys).hasSize((int) (maxK.get(0) + 1 + maxK.get(1) + 1));
        assertThat(((MemorySource) f.made.get(0)).commits()).isEqualTo(r.committed());
        assertThat(r.stats().inflightBytes()).isZero();
    }

    @Test
    void onErrorFailStopsAtTheBadRecordAndSaysWhereToResume() throws Exception {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition(
                                                "p", 1_000, k -> k == 550 ? "!,bad" : row(0, k)));
        PipelineSpec spec = new Specs.Builder().maxRows(100).build();

        PipelineResult r = Pipeline.start(spec, f, Clock.SYSTEM).awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(r.message())
                .isEqualTo(
                        "stopped at p:551 (position 5500): column n: bad value '!';"
                                + " everything before position 5000 is written — resume from there");
        Set<Long> keys = keys(f.rows());
        assertThat(keys).hasSize(500).allMatch(n -> n < 500); // nothing from the failing batch on
        assertThat(r.committed()).containsEntry("p", 5000L);
    }

    @Test
    void aFatalServerErrorStopsWithTheServersMessage() throws Exception {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 10_000, k -> row(0, k)));
        FakeInserter replica = f.replica("clickhouse://a:9000/db");
        replica.onInsert(
                i -> {
                    if (replica.inserts().size() == 3) {
                        replica.failNext(
                                new ServerException(
                                        new ServerExceptionInfo(
                                                60,
                                                "DB::Exception",
                                                "DB::Exception: Table db.t doesn't exist.",
                                                "",
                                                null),
                                        null));
                    }
                });
        PipelineSpec spec = new Specs.Builder().maxRows(100).inflight(1).build();

        PipelineResult r = Pipeline.start(spec, f, Clock.SYSTEM).awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(r.message())
                .contains("ClickHouse error 60: Table db.t doesn't exist.")
                .contains("everything of p before position 3000 is written — resume from there");
        assertThat(keys(f.rows())).hasSize(300);
        assertThat(r.committed()).containsEntry("p", 3000L);
    }

    @Test
    void aRerunFromTheCheckpointDirectoryFinishesTheJobWithoutGapsOrDuplicates() throws Exception {
        Path cp = dir.resolve("cp");
        TestFactories first =
                factories(
                        ServerInfoChoice.MODERN,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition(
                                                "p", 2_000, k -> k == 1_234 ? "!,x" : row(0, k)));
        PipelineSpec spec =
                new Specs.Builder().maxRows(100).checkpoint(cp, Duration.ofSeconds(1)).build();
        PipelineResult r1 = Pipeline.start(spec, first, Clock.SYSTEM).awaitCompletion();
        assertThat(r1.status()).isEqualTo(PipelineResult.Status.FAILED);
        long resumeAt = r1.committed().get("p");

        TestFactories second =
                factories(
                        ServerInfoChoice.MODERN,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 2_000, k -> row(0, k)));
        PipelineResult r2 = Pipeline.start(spec, second, Clock.SYSTEM).awaitCompletion();

        assertThat(r2.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        List<List<Object>> all = new ArrayList<>(first.rows());
        all.addAll(second.rows());
        assertThat(keys(all)).hasSize(2_000);
        assertThat(resumeAt).isEqualTo(12_000L);
        assertThat(r2.committed()).containsEntry("p", 20_000L);
    }

    @Test
    void startupSaysWhenTheTargetCannotDeduplicate() throws Exception {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 1, k -> row(0, k)));
        Pipeline p = Pipeline.start(new Specs.Builder().build(), f, Clock.SYSTEM);
        assertThat(p.warnings())
                .singleElement()
                .asString()
                .contains("test.t (MergeTree) has non_replicated_deduplication_window = 0")
                .contains("on_unknown_outcome: fail");
        p.awaitCompletion();
    }

    @Test
    void startupFailsWithTheReasonWhenTheTableIsMissing() {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 1, k -> row(0, k)));
        f.describeFailure =
                new ClickHouseException("table db.t does not exist on ClickHouse 18.16.1");
        assertThatThrownBy(() -> Pipeline.start(new Specs.Builder().build(), f, Clock.SYSTEM))
                .isInstanceOf(PipelineException.class)
                .hasMessageContaining("shard 0")
                .hasMessageContaining("table db.t does not exist");
        assertThat(f.made).isEmpty();
    }

    @Test
    void nonsenseSettingsAreRefusedBeforeConnecting() {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 1, k -> row(0, k)));
        f.describeFailure = new ClickHouseException("the server must not be asked");
        assertThatThrownBy(
                        () ->
                                Pipeline.start(
                                        new Specs.Builder().budget(0, 0.5, 0.8).build(),
                                        f,
                                        Clock.SYSTEM))
                .isInstanceOf(PipelineException.class)
                .hasMessageContaining("0 < low < high");
    }

    @Test
    void reservedSettingsAreRefused() {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem").partition("p", 1, k -> row(0, k)));
        PipelineSpec spec =
                new Specs.Builder().settings(Map.of("wait_for_async_insert", "0")).build();
        assertThatThrownBy(() -> Pipeline.start(spec, f, Clock.SYSTEM))
                .hasMessageContaining("wait_for_async_insert=0");
    }

    @Test
    void deadLettersAreFlushedAndClosedAndCounted() throws Exception {
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition("p", 100, k -> k % 10 == 3 ? "!,x" : row(0, k)));
        PipelineSpec spec = new Specs.Builder().policy(ErrorPolicy.DEAD_LETTER).build();
        PipelineResult r = Pipeline.start(spec, f, Clock.SYSTEM).awaitCompletion();

        assertThat(r.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(f.deadLetters.letters()).hasSize(10);
        assertThat(f.deadLetters.closed()).isTrue();
        assertThat(f.events).contains("flush");
        assertThat(r.stats().recordsDeadLettered()).isEqualTo(10);
        assertThat(keys(f.rows())).hasSize(90);
    }

    @Test
    void theAdminServerServesMetricsAndProbes() throws Exception {
        CountDownLatch inserts = new CountDownLatch(5);
        TestFactories f =
                factories(
                        ServerInfoChoice.OLD,
                        (reader, checkpoints) ->
                                new MemorySource("mem")
                                        .partition("p", Long.MAX_VALUE, k -> row(0, k)));
        f.replica("clickhouse://a:9000/db").onInsert(i -> inserts.countDown());
        PipelineSpec spec = new Specs.Builder().maxRows(100).admin("127.0.0.1:0").build();
        Pipeline p = Pipeline.start(spec, f, Clock.SYSTEM);
        try {
            assertThat(inserts.await(30, TimeUnit.SECONDS)).isTrue();
            String base = "http://127.0.0.1:" + p.adminAddress().getPort();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> metrics =
                    http.send(
                            HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body())
                    .contains("etl_sink_records_total{pipeline=\"test\",shard=\"0\"}")
                    .contains("etl_inflight_bytes{pipeline=\"test\"}")
                    .contains("etl_sink_insert_duration_seconds_bucket");
            assertThat(
                            http.send(
                                            HttpRequest.newBuilder(URI.create(base + "/healthz"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode())
                    .isEqualTo(200);
            assertThat(
                            http.send(
                                            HttpRequest.newBuilder(URI.create(base + "/readyz"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode())
                    .isEqualTo(200);
        } finally {
            p.drain();
            p.awaitCompletion();
        }
    }
}
