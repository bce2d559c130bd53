package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Blocks built before the insert (the pipeline's path) and the schema they are built from. */
class BlockInsertIT {

    @Test
    void schemaDiscoveryAndPrebuiltBlockInsert() {
        String table = TestServer.newTable("blockins");
        try (NativeConnection c = TestServer.connect()) {
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

            // Only id and name: the server fills created (DEFAULT) and twice (MATERIALIZED).
            List<Column> cols = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (String name : List.of("id", "name")) {
                TableSchema.Column sc = schema.column(name);
                cols.add(ColumnFactory.create(sc.name(), sc.typeName()));
                types.add(sc.typeName());
            }
            Block block = new Block(cols, types);
            for (int i = 0; i < 3000; i++) {
                block.column(0).appendLong(i);
                block.column(1).appendString("n" + (i % 7));
            }
            InsertResult r = c.insert(table, block, Map.of(), "sluice-blockins-test");
            assertThat(r.rows()).isEqualTo(3000);
            assertThat(r.queryId()).isEqualTo("sluice-blockins-test");
            assertThat(
                            c.queryRows(
                                    "SELECT count(), sum(twice), countIf(created > 0),"
                                            + " any(label) LIKE '#n%' FROM "
                                            + table))
                    .containsExactly(List.of(3000L, 2L * 2999 * 3000 / 2, 3000L, 1L));

            // A block whose types do not match the table is refused, naming the column.
            Block wrong =
                    new Block(List.of(ColumnFactory.create("id", "UInt32")), List.of("UInt32"));
            wrong.column(0).appendLong(1);
            assertThatThrownBy(() -> c.insert(table, wrong, Map.of(), null))
                    .isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining("column id UInt32 does not match the table's id UInt64");
            assertThatThrownBy(() -> SchemaDiscovery.describe(c, TestServer.DATABASE + ".nope"))
                    .hasMessageContaining("does not exist");
        }
    }
}
