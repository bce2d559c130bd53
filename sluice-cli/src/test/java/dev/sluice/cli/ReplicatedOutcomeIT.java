package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.it.TestCluster;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code ReplicatedMergeTree} on 18.16 drops a block identical to a recent one, and sluice sends
 * a retry as the same blocks: start-up says so instead of warning, and an INSERT interrupted after
 * its data was sent is sent again without asking — the table still gets every row exactly once.
 * Runs on the two-server cluster of {@code scripts/clickhouse cluster} ({@link TestCluster}); the
 * replica is server 1, frozen with SIGSTOP through an {@link InsertTrap}.
 */
class ReplicatedOutcomeIT {
    private static final int ROWS = 60_000;
    private static final int BATCH = 10_000;

    @TempDir Path dir;

    @Test
    void startUpSaysAReplicatedTableDropsRepeatedBlocksAndAPlainOneCannot() throws Exception {
        String replicated = replicatedTable();
        Result check =
                sluice("load", input().toString(), "--into", replicated, "--url", url(), "--check");
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.stdout())
                .as(check.output())
                .contains(replicated + " (ReplicatedMergeTree) drops a block identical to one of")
                .contains("replicated_deduplication_window")
                .doesNotContain("warn ");

        String plain = TestCluster.newTable("outcome_plain");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + plain
                        + " (id UInt64, payload String) ENGINE = MergeTree ORDER BY id");
        Result warned =
                sluice("load", input().toString(), "--into", plain, "--url", url(), "--check");
        assertThat(warned.stdout())
                .as(warned.output())
                .contains("warn  ")
                .contains(plain + " (MergeTree) cannot deduplicate on ClickHouse 18.16");
    }

    @Test
    void anInsertInterruptedByAFrozenReplicaIsSentAgainAndWrittenOnce() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = replicatedTable();
                    int port = ConnectionConfig.parse(url()).port();
                    try (InsertTrap trap =
                            new InsertTrap(
                                    port,
                                    3,
                                    InsertTrap.Moment.HEADER,
                                    () -> TestCluster.pause(1),
                                    false)) {
                        SluiceProcess p =
                                SluiceProcess.start(
                                        dir,
                                        Map.of(),
                                        "load",
                                        input().toString(),
                                        "--into",
                                        table,
                                        "--url",
                                        trap.url() + "?read_timeout=1s",
                                        "--batch-rows",
                                        Integer.toString(BATCH),
                                        "--threads",
                                        "1");
                        try (p) {
                            while (!trap.sprung()) {
                                assertThat(p.waitFor(Duration.ofMillis(20)))
                                        .as("sluice ended before the trap sprang")
                                        .isNull();
                            }
                            Thread.sleep(2_000); // longer than the read timeout
                            TestCluster.resume(1);
                            Integer exit = p.waitFor(Duration.ofMinutes(2));
                            log("frozen replica: exit %s%n%s", exit, p.output());
                            assertThat(exit).as(p.output()).isZero();
                            assertThat(p.stdout())
                                    .containsPattern(
                                            "INSERTs? sent again \\([^)]*[1-9][0-9]* deduplicated")
                                    .doesNotContain("outcome checked")
                                    .doesNotContain("the table got");
                        }
                    }
                    TestCluster.syncReplica(1, table);
                    assertThat(TestCluster.single(1, "SELECT count() FROM " + table))
                            .isEqualTo(ROWS);
                    assertThat(TestCluster.single(1, "SELECT uniqExact(id) FROM " + table))
                            .isEqualTo(ROWS);
                });
    }

    private static String url() {
        return TestCluster.url(1);
    }

    private static String replicatedTable() {
        String table = TestCluster.newTable("outcome_replicated");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + table
                        + " (id UInt64, payload String) "
                        + TestCluster.replicatedEngine(table, "id"));
        return table;
    }

    private Result sluice(String... args) throws Exception {
        return SluiceCli.run(dir, args);
    }

    private Path input() throws Exception {
        Path file = dir.resolve("events.tsv");
        if (!Files.exists(file)) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                w.write("id\tpayload\n");
                for (int i = 0; i < ROWS; i++) {
                    w.write(i + "\tpayload " + i + "\n");
                }
            }
        }
        return file;
    }

    private static void log(String format, Object... args) {
        System.out.println("[ReplicatedOutcomeIT] " + String.format(Locale.ROOT, format, args));
    }
}
