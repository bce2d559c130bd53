package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped in the middle of a batch it was sending in halves (the server refused its size),
 * then resumed from the same checkpoint directory on a server that would now take the whole batch:
 * the replay sends the recorded halves, so the half written before the stop is not written again —
 * found in the query log on a MergeTree (18.16 cannot deduplicate it), dropped as an identical
 * block by a ReplicatedMergeTree. Every row once, value by value.
 */
@Timeout(600)
class SplitReplayIT {
    private static final long ROWS = 60_000; // ~30 MB: over an INSERT's 20 MB memory limit

    @TempDir Path dir;

    private static String wide(long k) {
        return k + "," + k + "-" + "y".repeat(470 + (int) (k % 29));
    }

    /**
     * The sources, and — when {@code written} is given — connections that let the first part of a
     * split batch through, count its rows, and then refuse to connect (as a server that went away).
     */
    private static Factories factories(AtomicLong written) {
        return new Factories() {
            @Override
            public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
                return new MemorySource("mem")
                        .checkpoints(checkpoints)
                        .partition("p", ROWS, SplitReplayIT::wide);
            }

            @Override
            public Decoder decoder(TargetColumns columns) {
                return new TestDecoder(columns, List.of("n", "s"));
            }

            @Override
            public List<Transform> transforms(TargetColumns columns) {
                return List.of();
            }

            @Override
            public DeadLetters deadLetters() {
                throw new UnsupportedOperationException();
            }

            @Override
            public BlockInserter inserter(String url, SinkSpec sink) {
                BlockInserter real = Factories.super.inserter(url, sink);
                if (written == null) {
                    return real;
                }
                return new BlockInserter() {
                    @Override
                    public InsertResult insert(
                            String table, Block block, Map<String, String> settings, String id) {
                        if (written.get() > 0) {
                            throw new ConnectionException("connection refused (the test)");
                        }
                        InsertResult r = real.insert(table, block, settings, id);
                        if (id.contains("/r")) {
                            written.set(block.rows()); // the first part is in
                        }
                        return r;
                    }

                    @Override
                    public ServerInfo server() {
                        return real.server();
                    }

                    @Override
                    public boolean isOpen() {
                        return real.isOpen();
                    }

                    @Override
                    public void close() {
                        real.close();
                    }
                };
            }
        };
    }

    private PipelineSpec spec(String url, String table, Map<String, String> settings) {
        return new PipelineSpec(
                "split-replay",
                1,
                new PipelineSpec.StdinSource(1 << 20),
                new PipelineSpec.DecodeSpec(
                        PipelineSpec.Format.CSV, List.of(), false, Map.of(), false, ','),
                List.of(),
                new SinkSpec(
                        List.of(new ShardSpec(List.of(url), 1)),
                        table,
                        new PipelineSpec.BatchSpec((int) ROWS, 256 << 20, Duration.ofMinutes(5)),
                        1,
                        "lz4",
                        false,
                        settings,
                        new RetrySpec(Duration.ofMillis(20), Duration.ofMillis(200), 2.0, 0.2, 0)),
                new PipelineSpec.ErrorsSpec(ErrorPolicy.FAIL, null, -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), dir.resolve("state")),
                new PipelineSpec.AdminSpec(null));
    }

    /**
     * Runs the load with the memory limit until the first part is written, stops it, and runs it
     * again without the limit; returns the rows the first run wrote and the second run's result.
     */
    private record Runs(long firstPart, PipelineResult second) {}

    private Runs stopMidSplitAndResume(String url, String table) throws Exception {
        AtomicLong firstPart = new AtomicLong();
        Pipeline first =
                Pipeline.start(
                        spec(url, table, Map.of("max_memory_usage", "20000000")),
                        factories(firstPart),
                        Clock.SYSTEM);
        while (firstPart.get() == 0) {
            assertThat(first.isDone()).as("the first run is still sending").isFalse();
            Thread.sleep(10);
        }
        first.stop();
        PipelineResult stopped = first.awaitCompletion();
        assertThat(stopped.status()).as(stopped.message()).isEqualTo(PipelineResult.Status.STOPPED);
        assertThat(Files.readAllLines(dir.resolve("state/split-inserts.txt"))).isNotEmpty();

        PipelineResult second =
                Pipeline.start(spec(url, table, Map.of()), factories(null), Clock.SYSTEM)
                        .awaitCompletion();
        assertThat(second.status()).as(second.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        return new Runs(firstPart.get(), second);
    }

    private static void assertEveryRowOnce(List<List<Object>> got) {
        assertThat(got).hasSize((int) ROWS);
        for (int k = 0; k < ROWS; k++) {
            assertThat(got.get(k))
                    .as("row %d", k)
                    .isEqualTo(List.of((long) k, wide(k).split(",", 2)[1]));
        }
    }

    @Test
    void onAMergeTreeTheHalfWrittenBeforeTheStopIsFoundInTheLogAndNotSentAgain() throws Exception {
        String table = TestServer.newTable("split_replay");
        TestServer.execute(
                "CREATE TABLE " + table + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n");

        Runs runs = stopMidSplitAndResume(TestServer.url(), table);

        assertThat(runs.firstPart()).isPositive().isLessThan(ROWS);
        try (NativeConnection c = TestServer.connect()) {
            assertEveryRowOnce(c.queryRows("SELECT n, s FROM " + table + " ORDER BY n"));
        }
        assertThat(runs.second().stats().delivery().rowsAlreadyWritten())
                .isEqualTo(runs.firstPart());
        assertThat(runs.second().stats().rowsWritten()).isEqualTo(ROWS - runs.firstPart());
        TestServer.execute("DROP TABLE " + table);
    }

    @Test
    void onAReplicatedMergeTreeTheHalfWrittenBeforeTheStopIsDroppedAsARepeatedBlock()
            throws Exception {
        String table = TestCluster.newTable("split_replay_replicated");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + table
                        + " (n UInt64, s String) "
                        + TestCluster.replicatedEngine(table, "n"));

        Runs runs = stopMidSplitAndResume(TestCluster.url(1), table);

        assertThat(runs.firstPart()).isPositive().isLessThan(ROWS);
        // Sent again (the table deduplicates, so nothing is looked up) and dropped by the server.
        assertEveryRowOnce(TestCluster.query(1, "SELECT n, s FROM " + table + " ORDER BY n"));
        TestCluster.execute(1, "DROP TABLE " + table);
    }
}
