package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Blocks built before the insert (the pipeline's path): the server fills what the block leaves out
 * and refuses a column of another type, naming it. (How the pipeline learns the table's columns is
 * sluice-table's SchemaDiscoveryIT.)
 */
class BlockInsertIT {

    @Test
    void aPrebuiltBlockOfSomeColumnsIsInserted() {
        String table = TestServer.newTable("blockins");
        try (NativeConnection c = TestServer.connect()) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt64, name String, created DateTime DEFAULT now(),"
                            + " twice UInt64 MATERIALIZED id * 2, label String ALIAS"
                            + " concat('#', name)) ENGINE = MergeTree PARTITION BY intDiv(id,"
                            + " 1000) ORDER BY (name, id)");

            // Only id and name: the server fills created (DEFAULT) and twice (MATERIALIZED).
            List<String> types = List.of("UInt64", "String");
            List<Column> cols =
                    List.of(
                            ColumnFactory.create("id", types.get(0)),
                            ColumnFactory.create("name", types.get(1)));
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
        }
    }
}
