package dev.sluice.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.schema.TableSchema;
import org.junit.jupiter.api.Test;

/**
 * sluice-table's packages are layered among themselves (expr below schema, schema below sort and
 * defaults) and with the wire module below them (docs/adr/0012-table-module.md). Read by jdeps from
 * the compiled main classes.
 */
class TablePackagesTest {
    private static final String P = "dev.sluice.clickhouse.";

    @Test
    void theTablePackagesHaveNoCycle() {
        PackageGraph g = PackageGraph.of(TableSchema.class);
        assertThat(g.packages())
                .containsExactlyInAnyOrder(P + "schema", P + "expr", P + "sort", P + "defaults");
        assertThat(g.cycles()).isEmpty();
    }

    @Test
    void theExpressionEngineKnowsNoTable() {
        PackageGraph g = PackageGraph.of(TableSchema.class);
        assertThat(g.uses(P + "expr")).doesNotContain(P + "schema", P + "sort", P + "defaults");
    }
}
