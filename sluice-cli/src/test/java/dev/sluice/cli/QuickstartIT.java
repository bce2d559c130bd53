package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shaded jar, run as users run it, against the real server. */
class QuickstartIT {

    @TempDir Path dir;

    /**
     * The test server's URL (skip, or fail under SLUICE_REQUIRE_CLICKHOUSE=1, when none answers);
     * other ITs of this module call it too.
     */
    static String url() {
        return TestServer.url();
    }

    private Result sluice(String... args) throws Exception {
        return SluiceCli.run(dir, args);
    }

    @Test
    void quickstartLoadsTheDemoTableAndSaysWhatToTryNext() throws Exception {
        String url = url();
        Result run =
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
        Result run = sluice("ping", "--url", "clickhouse://default@127.0.0.1:1/default");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr().strip())
                .startsWith("sluice ping: cannot connect to ClickHouse at 127.0.0.1:1")
                .doesNotContain("\n\tat ");
        Result bad = sluice("ping", "--url", "postgres://nope");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.stderr())
                .contains("the scheme must be clickhouse://")
                .contains("http(s)://");
    }

    @Test
    void pingReportsTheServer() throws Exception {
        Result run = sluice("ping", "--url", url());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("server     ClickHouse").contains("revision");
    }
}
