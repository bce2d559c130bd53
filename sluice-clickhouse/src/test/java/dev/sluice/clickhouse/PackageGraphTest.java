package dev.sluice.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cycle finder of the package checks, on graphs whose cycles are known. */
class PackageGraphTest {
    @Test
    void aLayeredGraphHasNoCycle() {
        PackageGraph g =
                PackageGraph.ofUses(
                        Map.of("a", Set.of("b", "c"), "b", Set.of("c"), "c", Set.of("x.outside")));
        assertThat(g.cycles()).isEmpty();
    }

    @Test
    void twoPackagesUsingEachOtherAreACycle() {
        PackageGraph g =
                PackageGraph.ofUses(Map.of("a", Set.of("b"), "b", Set.of("a", "c"), "c", Set.of()));
        assertThat(g.cycles()).containsExactly("a -> b -> a");
    }

    @Test
    void aLongerCycleIsReportedAlongItsPathOnce() {
        PackageGraph g =
                PackageGraph.ofUses(
                        Map.of(
                                "a", Set.of("b"),
                                "b", Set.of("c"),
                                "c", Set.of("a"),
                                "d", Set.of("e"),
                                "e", Set.of("d")));
        assertThat(g.cycles()).containsExactly("a -> b -> c -> a", "d -> e -> d");
    }

    @Test
    void jdepsReadsThisModulesOwnClasses() {
        PackageGraph g = PackageGraph.of(PackageGraph.class);
        assertThat(g.packages()).contains("dev.sluice.clickhouse", "dev.sluice.clickhouse.it");
        assertThat(g.uses("dev.sluice.clickhouse.it")).contains("dev.sluice.clickhouse.client");
    }
}
