package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rows the cluster tests insert and read back ({@code id, tenant, s}): the same rows for the
 * same ids, so what a server holds can be compared with what was sent, value by value.
 */
public final class ClusterRows {
    /** The test tables' columns, for a CREATE TABLE. */
    public static final String COLUMNS = "(id UInt64, tenant UInt32, s String)";

    private ClusterRows() {}

    /** One row of the test tables. */
    public record Row(long id, long tenant, String s) {}

    public static Row row(long id) {
        return new Row(id, (id * 7919) % 1000, "row " + id + " " + "x".repeat((int) (id % 13)));
    }

    /** The rows of ids {@code from} (inclusive) to {@code to} (exclusive). */
    public static List<Row> rows(long from, long to) {
        List<Row> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(row(id));
        }
        return rows;
    }

    public static Block block(List<Row> rows) {
        Column id = ColumnFactory.create("id", "UInt64");
        Column tenant = ColumnFactory.create("tenant", "UInt32");
        Column s = ColumnFactory.create("s", "String");
        for (Row r : rows) {
            id.appendLong(r.id());
            tenant.appendLong(r.tenant());
            s.appendString(r.s());
        }
        return new Block(List.of(id, tenant, s), List.of("UInt64", "UInt32", "String"));
    }

    /** Inserts {@code rows} as one block on cluster server {@code server} (1 or 2). */
    public static void insert(int server, String table, List<Row> rows) {
        insert(server, table, block(rows), Map.of());
    }

    /** Inserts {@code block} on cluster server {@code server}, checking every row was taken. */
    public static void insert(int server, String table, Block block, Map<String, String> settings) {
        try (NativeConnection c = TestCluster.connect(server)) {
            assertThat(c.insert(table, block, settings, null).rows()).isEqualTo(block.rows());
        }
    }

    /** The table's rows on one server, by id. */
    public static List<Row> readBack(int server, String table) {
        List<Row> rows = new ArrayList<>();
        for (List<Object> r :
                TestCluster.query(server, "SELECT id, tenant, s FROM " + table + " ORDER BY id")) {
            rows.add(
                    new Row(
                            ((Number) r.get(0)).longValue(),
                            ((Number) r.get(1)).longValue(),
                            (String) r.get(2)));
        }
        return rows;
    }
}
