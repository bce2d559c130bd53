package dev.sluice.clickhouse.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.expr.Expr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Key parsing, engine-clause fallbacks and deduplication without a server. */
class TableSchemaTest {

    private static TableSchema keys(String sortingKey, String partitionKey, String engine) {
        return new TableSchema("db", "t", List.of(), engine, sortingKey, partitionKey);
    }

    @Test
    void keyPartsAreParsedAndTuplesFlattened() {
        TableSchema t = keys("tenant, toStartOfHour(ts)", "(toYYYYMM(ts), kind)", "MergeTree");
        assertThat(t.sortingKeyExpressions())
                .extracting(Expr::toString)
                .containsExactly("tenant", "toStartOfHour(ts)");
        assertThat(t.partitionKeyExpressions())
                .extracting(Expr::toString)
                .containsExactly("toYYYYMM(ts)", "kind");
        assertThat(keys("", "", "Memory").sortingKeyExpressions()).isEmpty();
    }

    @Test
    void deduplicationFromTheEngineName() {
        assertThat(keys("", "", "ReplicatedMergeTree").deduplication().kind())
                .isEqualTo(Deduplication.Kind.REPLICATED);
        assertThat(keys("", "", "MergeTree").deduplication()).isEqualTo(Deduplication.NONE);
        assertThat(keys("", "", "MergeTree").deduplication().enabled()).isFalse();
    }

    @Test
    void keysFromNewAndOldEngineClauses() {
        assertThat(
                        SchemaDiscovery.keysFromEngineClause(
                                "MergeTree PARTITION BY toYYYYMM(d) ORDER BY (a, b) SETTINGS"
                                        + " index_granularity = 8192"))
                .containsExactly("a, b", "toYYYYMM(d)");
        assertThat(SchemaDiscovery.keysFromEngineClause("MergeTree(d, (a, b), 8192)"))
                .containsExactly("a, b", "toYYYYMM(d)");
        assertThat(
                        SchemaDiscovery.keysFromEngineClause(
                                "MergeTree(d, intHash32(a), (a, intHash32(a)), 8192)"))
                .containsExactly("a, intHash32(a)", "toYYYYMM(d)");
        assertThat(
                        SchemaDiscovery.keysFromEngineClause(
                                "ReplicatedMergeTree('/zk/t', '{replica}', d, x, 8192)"))
                .containsExactly("x", "toYYYYMM(d)");
        assertThat(SchemaDiscovery.keysFromEngineClause("Memory")).containsExactly("", "");
        assertThat(SchemaDiscovery.keysFromEngineClause("Log")).containsExactly("", "");
    }

    @Test
    void engineClauseAndTableSettings() {
        assertThat(
                        SchemaDiscovery.engineClause(
                                "CREATE TABLE db.t (a UInt8) ENGINE = MergeTree ORDER BY a"))
                .isEqualTo("MergeTree ORDER BY a");
        String full =
                "MergeTree ORDER BY a SETTINGS index_granularity = 8192,"
                        + " non_replicated_deduplication_window = 100";
        assertThat(SchemaDiscovery.tableSetting(full, "non_replicated_deduplication_window"))
                .isEqualTo(100);
        assertThat(SchemaDiscovery.tableSetting(full, "replicated_deduplication_window"))
                .isEqualTo(-1);
    }
}
