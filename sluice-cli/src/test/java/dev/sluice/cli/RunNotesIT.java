package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.it.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice run} says at start-up what it decided about the table, as {@code sluice check}
 * does: pre-sorting and the DEFAULTs it computes; and the rows then agree with those decisions.
 */
class RunNotesIT {
    @TempDir Path dir;

    @Test
    void runPrintsItsStartupDecisionsAndActsOnThem() throws Exception {
        String table = TestServer.newTable("run_notes");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (k UInt32, v String, d String DEFAULT concat('d-', v))"
                        + " ENGINE = MergeTree ORDER BY k");
        Files.writeString(
                dir.resolve("in.ndjson"),
                """
                {"k": 3, "v": "c"}
                {"k": 1, "v": "a", "d": "given"}
                {"k": 2, "v": "b"}
                """);
        Path config = dir.resolve("pipeline.yaml");
        Files.writeString(
                config,
                """
                pipeline:
                  name: notes
                source:
                  file:
                    paths: %s
                decode:
                  json: {}
                sink:
                  clickhouse:
                    url: %s
                    table: %s
                    presort: true
                checkpoint:
                  dir: %s
                admin:
                  listen: off
                """
                        .formatted(
                                dir.resolve("in.ndjson"),
                                TestServer.url(),
                                table,
                                dir.resolve("checkpoints")));

        Result r = SluiceCli.run(dir, "run", config.toString());

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stderr())
                .as(r.output())
                .contains("note: batches are pre-sorted by the sorting key (k)")
                .contains(
                        "note: records lacking these fields get the DEFAULT computed by sluice: d"
                                + " DEFAULT concat('d-', v)");
        assertThat(TestServer.clickhouseClient("SELECT k, v, d FROM " + table + " ORDER BY k"))
                .isEqualTo("1\ta\tgiven\n2\tb\td-b\n3\tc\td-c\n");
    }
}
