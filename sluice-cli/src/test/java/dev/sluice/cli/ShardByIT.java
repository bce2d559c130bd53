package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestCluster;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Key-based sharding ({@code sink.clickhouse.shard_by}) with the shards and weights of a cluster
 * read from {@code system.clusters} ({@code sink.clickhouse.cluster}): every row must land on the
 * shard where a Distributed table with the same sharding key puts it. The twin rows go through a
 * real Distributed table over the same two shards (weights 1 and 2), and each server's rows are
 * compared, row for row, with the twin's.
 */
class ShardByIT {
    private static final int ROWS = 30_000;
    private static final String CLUSTER = "two_shards";
    private static final String COLUMNS = "(tenant UInt32, id UInt64, v String)";

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    @ParameterizedTest(name = "shard_by {0}")
    @ValueSource(strings = {"intHash32(tenant)", "cityHash64(v)", "id"})
    void everyRowLandsWhereADistributedTableWouldPutIt(String key) throws Exception {
        TestCluster.require();
        String local = TestCluster.newTable("shard_by");
        String twin = TestCluster.newTable("shard_twin");
        String dist = TestCluster.newTable("shard_dist");
        TestCluster.createOnEach(local, COLUMNS + " ENGINE = MergeTree ORDER BY id");
        TestCluster.createOnEach(twin, COLUMNS + " ENGINE = MergeTree ORDER BY id");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + dist
                        + " "
                        + COLUMNS
                        + " ENGINE = Distributed("
                        + CLUSTER
                        + ", "
                        + TestCluster.DATABASE
                        + ", "
                        + twin.substring(twin.indexOf('.') + 1)
                        + ", "
                        + key
                        + ")");
        try (NativeConnection c = TestCluster.connect(1)) {
            c.query(
                    "INSERT INTO "
                            + dist
                            + " SELECT toUInt32(number % 1000) AS tenant, number AS id,"
                            + " concat('v', toString(number)) AS v FROM numbers("
                            + ROWS
                            + ")",
                    Map.of("insert_distributed_sync", "1"),
                    b -> {});
        }

        Path input = dir.resolve("rows.ndjson");
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int i = 0; i < ROWS; i++) {
                w.write("{\"tenant\":" + (i % 1000) + ",\"id\":" + i + ",\"v\":\"v" + i + "\"}\n");
            }
        }
        Path config = dir.resolve("pipeline.yaml");
        Files.writeString(
                config,
                """
                pipeline: {name: shard-by, threads: 2}
                source: {file: {paths: ["%s"]}}
                decode: json
                sink:
                  clickhouse:
                    url: %s
                    cluster: %s
                    table: %s
                    shard_by: "%s"
                    batch: {max_rows: 4000}
                checkpoint: {dir: "%s"}
                admin: {listen: "off"}
                """
                        .formatted(
                                input,
                                TestCluster.url(1),
                                CLUSTER,
                                local,
                                key,
                                dir.resolve("checkpoints")));
        SluiceProcess p = SluiceProcess.start(dir, Map.of(), "run", config.toString());
        processes.add(p);
        assertThat(p.waitFor(Duration.ofMinutes(2))).as(p.output()).isZero();
        assertThat(p.stderr()).contains("would pick, over 2 shards of weights [1, 2]");

        long total = 0;
        for (int n = 1; n <= 2; n++) {
            String sql = "SELECT count(), sum(cityHash64(tenant, id, v)) FROM ";
            List<Object> ours = TestCluster.query(n, sql + local).get(0);
            List<Object> theirs = TestCluster.query(n, sql + twin).get(0);
            System.out.printf(
                    Locale.ROOT,
                    "[ShardByIT] %s: server %d holds %s rows, the Distributed twin %s%n",
                    key,
                    n,
                    ours.get(0),
                    theirs.get(0));
            assertThat((Long) ours.get(0)).as("rows on server %d", n).isPositive();
            assertThat(ours).as("server %d: count and hash of every row", n).isEqualTo(theirs);
            total += (Long) ours.get(0);
        }
        assertThat(total).isEqualTo(ROWS);
        TestCluster.dropOnEach(local);
        TestCluster.dropOnEach(twin);
        TestCluster.execute(1, "DROP TABLE " + dist);
    }
}
