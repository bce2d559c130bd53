package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.NativeConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shaded jar, run as users run it, against the real server. */
class QuickstartIT {

    /** CLICKHOUSE_URL from the environment or the private server's env file. */
    static String url() {
        String url = System.getenv("CLICKHOUSE_URL");
        if (url == null || url.isBlank()) {
            for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
                Path env = p.resolve(".sluice/clickhouse/env");
                if (Files.isReadable(env)) {
                    try {
                        for (String line : Files.readAllLines(env)) {
                            if (line.startsWith("CLICKHOUSE_URL=")) {
                                url = line.substring("CLICKHOUSE_URL=".length());
                            }
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    break;
                }
            }
        }
        if (url == null || url.isBlank()) {
            String problem = "no ClickHouse: set CLICKHOUSE_URL or run scripts/clickhouse start";
            if ("1".equals(System.getenv("SLUICE_REQUIRE_CLICKHOUSE"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        return url;
    }

    record Run(int exitCode, String stdout, String stderr) {}

    static Run sluice(String... args) throws Exception {
        String jar = System.getProperty("sluice.cli.jar");
        assertThat(jar).as("sluice.cli.jar system property").isNotNull();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-jar");
        cmd.add(jar);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("CLICKHOUSE_URL");
        Path err = Files.createTempFile("sluice-err", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("sluice " + String.join(" ", args) + " did not finish");
        }
        String stderr = Files.readString(err);
        Files.delete(err);
        return new Run(p.exitValue(), out, stderr);
    }

    @Test
    void quickstartLoadsTheDemoTableAndSaysWhatToTryNext() throws Exception {
        String url = url();
        Run run =
                sluice(
                        "quickstart",
                        "--url",
                        url,
                        "--rows",
                        "200000",
                        "--batch-rows",
                        "65536",
                        "--table",
                        "sluice_test.quickstart_it");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout())
                .contains("200,000 events into sluice_test.quickstart_it")
                .contains("200,000 rows written")
                .contains("in 4 batches")
                .contains("The table now holds 200,000 rows")
                .contains("SELECT kind, count()");
        try (NativeConnection c = NativeConnection.open(url)) {
            assertThat(
                            c.queryRows(
                                    "SELECT count(), uniqExact(kind), uniqExact(id), min(id),"
                                            + " max(id) FROM sluice_test.quickstart_it"))
                    .containsExactly(List.of(200_000L, 20L, 200_000L, 0L, 199_999L));
        }
    }

    @Test
    void aWrongUrlIsOneClearLineAndANonZeroExit() throws Exception {
        Run run = sluice("ping", "--url", "clickhouse://default@127.0.0.1:1/default");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr().strip())
                .startsWith("sluice ping: cannot connect to ClickHouse at 127.0.0.1:1")
                .doesNotContain("\n\tat ");
        Run bad = sluice("ping", "--url", "postgres://nope");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.stderr())
                .contains("the scheme must be clickhouse://")
                .contains("http(s)://");
    }

    @Test
    void pingReportsTheServer() throws Exception {
        Run run = sluice("ping", "--url", url());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("server     ClickHouse").contains("revision");
    }
}
