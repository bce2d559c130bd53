package dev.sluice.clickhouse.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.it.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Schema discovery against the server: the TableColumns packet (native) and {@code system.columns}
 * (HTTP) describe a table identically; keys parsed from the engine clause (the path for servers
 * without {@code system.tables.sorting_key}) equal the server's own, in both engine syntaxes;
 * deduplication follows the engine; each kind of column (DEFAULT, MATERIALIZED, ALIAS) is told
 * apart, and a missing table is named.
 */
class SchemaDiscoveryIT {
    private static final String COLUMNS =
            "(id UInt64, `weird name` String DEFAULT 'q' COMMENT 'a comment', ts DateTime,"
                    + " d Date DEFAULT toDate(ts), n Nullable(Int32), e Enum8('a' = 1, 'b' = 2),"
                    + " twice UInt64 MATERIALIZED id * 2, label String ALIAS concat('#', `weird name`),"
                    + " lc LowCardinality(String) DEFAULT 'x')";

    private static String httpUrl() {
        TestServer.url();
        String port = TestServer.env("CLICKHOUSE_HTTP_PORT");
        assumeTrue(port != null && !port.isBlank(), "the server has no HTTP port in its env");
        return "http://default@127.0.0.1:" + port + "/default";
    }

    private static String create(NativeConnection c, String prefix, String engine) {
        String table = TestServer.newTable(prefix);
        c.execute(
                "CREATE TABLE " + table + " " + COLUMNS + " ENGINE = " + engine,
                Map.of("allow_experimental_low_cardinality_type", "1"));
        return table;
    }

    @Test
    void nativeAndHttpDescribeTheSameTable() {
        try (NativeConnection c = TestServer.connect();
                ClickHouseClient http = ClickHouseClient.open(httpUrl())) {
            String table =
                    create(
                            c,
                            "schema_same",
                            "MergeTree PARTITION BY toYYYYMM(d) ORDER BY (id, intHash32(id))"
                                    + " SAMPLE BY intHash32(id)");
            // The native path reads the TableColumns packet; check it is the one used.
            assertThat(SchemaDiscovery.columnsFromInsertHeader(c, table)).isNotNull();
            TableSchema viaNative = SchemaDiscovery.describe(c, table);
            TableSchema viaHttp = SchemaDiscovery.describe(http, table);
            assertThat(viaNative).isEqualTo(viaHttp);
            assertThat(viaNative.columns())
                    .extracting(TableSchema.Column::name)
                    .containsExactly(
                            "id", "weird name", "ts", "d", "n", "e", "lc", "twice", "label");
            assertThat(viaNative.column("d").defaultExpression()).isEqualTo("toDate(ts)");
            assertThat(viaNative.column("label").defaultKind())
                    .isEqualTo(TableSchema.DefaultKind.ALIAS);
            assertThat(viaNative.sortingKey()).isEqualTo("id, intHash32(id)");
            assertThat(viaNative.sortingKeyExpressions())
                    .extracting(Expr::toString)
                    .containsExactly("id", "intHash32(id)");
            assertThat(viaNative.partitionKeyExpressions())
                    .extracting(Expr::toString)
                    .containsExactly("toYYYYMM(d)");
            assertThat(viaNative.engineFull()).startsWith("MergeTree PARTITION BY toYYYYMM(d)");
            // 18.16 has no non_replicated_deduplication_window (-1): a MergeTree does not dedupe.
            assertThat(viaNative.deduplication())
                    .isEqualTo(new Deduplication(Deduplication.Kind.NONE, -1));
        }
    }

    @Test
    void keysFromTheEngineClauseEqualTheServers() {
        try (NativeConnection c = TestServer.connect()) {
            List<String> engines =
                    List.of(
                            "MergeTree ORDER BY id",
                            "MergeTree ORDER BY (id, `weird name`) SETTINGS index_granularity = 1024",
                            "MergeTree PARTITION BY (toMonday(d), e) ORDER BY (e, -id)",
                            "MergeTree PARTITION BY d ORDER BY tuple()",
                            "MergeTree(d, (id, ts), 8192)",
                            "MergeTree(d, intHash32(id), (id, intHash32(id)), 8192)",
                            "ReplacingMergeTree(d, (ts, id), 8192, id)");
            for (String engine : engines) {
                String table = create(c, "schema_keys", engine);
                List<Object> row =
                        c.queryRows(
                                        "SELECT sorting_key, partition_key, engine_full FROM"
                                                + " system.tables WHERE database = '"
                                                + TestServer.DATABASE
                                                + "' AND name = '"
                                                + table.substring(table.indexOf('.') + 1)
                                                + "'")
                                .get(0);
                String[] parsed = SchemaDiscovery.keysFromEngineClause((String) row.get(2));
                // Compared as parsed key parts: the server prints operators, we print calls.
                TableSchema server = keys((String) row.get(0), (String) row.get(1));
                TableSchema ours = keys(parsed[0], parsed[1]);
                assertThat(ours.sortingKeyExpressions())
                        .as(engine)
                        .isEqualTo(server.sortingKeyExpressions());
                assertThat(ours.partitionKeyExpressions())
                        .as(engine)
                        .isEqualTo(server.partitionKeyExpressions());
            }
        }
    }

    private static TableSchema keys(String sortingKey, String partitionKey) {
        return new TableSchema("db", "t", List.of(), "MergeTree", sortingKey, partitionKey);
    }

    @Test
    void kindsOfColumnsKeysAndAMissingTable() {
        try (NativeConnection c = TestServer.connect()) {
            String table = TestServer.newTable("schema_kinds");
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt64, name String, created DateTime DEFAULT now(),"
                            + " twice UInt64 MATERIALIZED id * 2, label String ALIAS"
                            + " concat('#', name)) ENGINE = MergeTree PARTITION BY intDiv(id,"
                            + " 1000) ORDER BY (name, id)");
            TableSchema schema = SchemaDiscovery.describe(c, table);
            assertThat(schema.engine()).isEqualTo("MergeTree");
            assertThat(schema.sortingKey()).isEqualTo("name, id");
            assertThat(schema.partitionKey()).isEqualTo("intDiv(id, 1000)");
            assertThat(schema.columns())
                    .extracting(TableSchema.Column::name)
                    .containsExactly("id", "name", "created", "twice", "label");
            assertThat(schema.column("created").defaultKind())
                    .isEqualTo(TableSchema.DefaultKind.DEFAULT);
            assertThat(schema.column("twice").insertable()).isFalse();
            assertThat(schema.column("label").defaultKind())
                    .isEqualTo(TableSchema.DefaultKind.ALIAS);
            assertThat(schema.insertableColumns())
                    .extracting(TableSchema.Column::name)
                    .containsExactly("id", "name", "created");
            assertThatThrownBy(() -> SchemaDiscovery.describe(c, TestServer.DATABASE + ".nope"))
                    .hasMessageContaining("does not exist");
        }
    }

    @Test
    void memoryTablesHaveNoKeysAndNoDeduplication() {
        try (NativeConnection c = TestServer.connect()) {
            String table = create(c, "schema_memory", "Memory");
            TableSchema s = SchemaDiscovery.describe(c, table);
            assertThat(s.sortingKey()).isEmpty();
            assertThat(s.sortingKeyExpressions()).isEmpty();
            assertThat(s.deduplication().enabled()).isFalse();
            assertThat(s.insertableColumns()).hasSize(7);
        }
    }
}
