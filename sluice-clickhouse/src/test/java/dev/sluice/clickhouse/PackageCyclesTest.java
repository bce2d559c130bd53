package dev.sluice.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ClickHouseClient;
import org.junit.jupiter.api.Test;

/**
 * The wire module's packages are layered: no two use each other, directly or around a cycle
 * (docs/adr/0012-table-module.md). Read by jdeps from the compiled main classes.
 */
class PackageCyclesTest {
    private static final String P = "dev.sluice.clickhouse.";

    @Test
    void theWirePackagesHaveNoCycle() {
        PackageGraph g = PackageGraph.of(ClickHouseClient.class);
        assertThat(g.packages())
                .contains(P + "client", P + "http", P + "format", P + "block", P + "protocol");
        assertThat(g.cycles()).isEmpty();
    }

    @Test
    void httpIsBuiltOnClientAndFormatNotTheOtherWayRound() {
        PackageGraph g = PackageGraph.of(ClickHouseClient.class);
        assertThat(g.uses(P + "http")).contains(P + "client", P + "format");
        assertThat(g.uses(P + "client")).doesNotContain(P + "http");
        assertThat(g.uses(P + "format")).doesNotContain(P + "http");
    }
}
