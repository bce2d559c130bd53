package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Blocks at the sizes real loads use: a million rows, a hundred columns, huge dictionaries. */
class LargeBlocksIT {

    @Test
    void oneMillionRowsInOneBlock() {
        String table = TestServer.newTable("million");
        int rows = 1_000_000;
        try (NativeConnection c = TestServer.connect()) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (ts DateTime, tenant UInt32, kind String, id UInt64, payload"
                            + " String) ENGINE = MergeTree ORDER BY (tenant, ts)");
            InsertResult result;
            long expectedIdSum = 0;
            long expectedPayloadBytes = 0;
            try (Insert insert =
                    c.insert(
                            table,
                            List.of(),
                            Map.of(),
                            InsertOptions.DEFAULTS.withMaxBlockRows(rows))) {
                Column ts = insert.column("ts");
                Column tenant = insert.column("tenant");
                Column kind = insert.column("kind");
                Column id = insert.column("id");
                Column payload = insert.column("payload");
                for (int i = 0; i < rows; i++) {
                    ts.appendLong(1_700_000_000L + i / 100);
                    tenant.appendLong(i % 97);
                    kind.appendString("kind-" + (i % 20));
                    id.appendLong(i * 3L);
                    String p = "p" + i + "-" + "x".repeat(i % 50);
                    payload.appendString(p);
                    expectedIdSum += i * 3L;
                    expectedPayloadBytes += p.length();
                    insert.endRow();
                }
                result = insert.finish();
            }
            assertThat(result.rows()).isEqualTo(rows);
            assertThat(result.blocks()).isEqualTo(1);
            assertThat(result.wireBytes()).isLessThan(result.uncompressedBytes());

            List<Object> agg =
                    c.queryRows(
                                    "SELECT count(), sum(id), sum(length(payload)),"
                                            + " uniqExact(kind), min(ts), max(ts), uniqExact(tenant)"
                                            + " FROM "
                                            + table)
                            .get(0);
            assertThat(agg)
                    .containsExactly(
                            (long) rows,
                            expectedIdSum,
                            expectedPayloadBytes,
                            20L,
                            1_700_000_000L,
                            1_700_000_000L + (rows - 1) / 100,
                            97L);
            // Every 997th row compared value by value.
            List<List<Object>> sample =
                    c.queryRows(
                            "SELECT id, tenant, kind, payload FROM "
                                    + table
                                    + " WHERE id % (997 * 3) = 0 ORDER BY id");
            assertThat(sample).hasSize((rows + 996) / 997);
            for (List<Object> row : sample) {
                long i = (Long) row.get(0) / 3;
                assertThat(row.get(1)).isEqualTo(i % 97);
                assertThat(row.get(2)).isEqualTo("kind-" + (i % 20));
                assertThat(row.get(3)).isEqualTo("p" + i + "-" + "x".repeat((int) (i % 50)));
            }
        }
    }

    @Test
    void oneHundredColumns() {
        String table = TestServer.newTable("wide");
        String[] types = {"UInt8", "Int64", "String", "Nullable(Float64)", "Array(UInt16)"};
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (k UInt32");
        for (int i = 0; i < 99; i++) {
            ddl.append(", c").append(i).append(' ').append(types[i % types.length]);
        }
        ddl.append(") ENGINE = MergeTree ORDER BY k");
        int rows = 5000;
        SplittableRandom random = new SplittableRandom(42);
        List<List<Object>> expected = new ArrayList<>();
        try (NativeConnection c = TestServer.connect()) {
            c.execute(ddl.toString());
            try (Insert insert = c.insert(table, List.of(), Map.of())) {
                assertThat(insert.block().columnCount()).isEqualTo(100);
                for (int r = 0; r < rows; r++) {
                    List<Object> row = new ArrayList<>();
                    row.add((long) r);
                    for (int i = 0; i < 99; i++) {
                        row.add(randomValue(types[i % types.length], random));
                    }
                    for (int i = 0; i < 100; i++) {
                        ColumnValues.append(insert.column(i), row.get(i));
                    }
                    insert.endRow();
                    expected.add(row);
                }
                insert.finish();
            }
            List<List<Object>> actual = c.queryRows("SELECT * FROM " + table + " ORDER BY k");
            assertThat(actual).isEqualTo(expected);
        }
    }

    private static Object randomValue(String type, SplittableRandom random) {
        return switch (type) {
            case "UInt8" -> (long) random.nextInt(256);
            case "Int64" -> random.nextLong();
            case "String" -> Long.toString(random.nextLong(), 36);
            case "Nullable(Float64)" -> random.nextInt(5) == 0 ? null : random.nextDouble();
            default -> {
                List<Object> a = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.add((long) random.nextInt(65536));
                }
                yield a;
            }
        };
    }

    @Test
    void lowCardinalityWithMoreThan65536DistinctValuesAndNulls() {
        String table = TestServer.newTable("lc_big");
        int rows = 150_000;
        try (NativeConnection c = TestServer.connect()) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (k UInt32, small LowCardinality(String), wide"
                            + " LowCardinality(String), n LowCardinality(Nullable(String)))"
                            + " ENGINE = MergeTree ORDER BY k",
                    Map.of("allow_experimental_low_cardinality_type", "1"));
            try (Insert insert =
                    c.insert(
                            table,
                            List.of(),
                            Map.of(),
                            InsertOptions.DEFAULTS.withMaxBlockRows(rows + 1))) {
                for (int r = 0; r < rows; r++) {
                    insert.column("k").appendLong(r);
                    insert.column("small").appendString("s" + (r % 300)); // > 256: UInt16 keys
                    insert.column("wide").appendString("w" + (r % 70_000)); // > 65536: UInt32 keys
                    Column n = insert.column("n");
                    if (r % 7 == 0 || r == rows - 1) {
                        n.appendNull();
                    } else {
                        n.appendString("n" + (r % 1000));
                    }
                    insert.endRow();
                }
                Block block = insert.block();
                assertThat(((LowCardinalityColumn) block.column("wide")).dictionary().rows())
                        .isEqualTo(70_000);
                insert.finish();
            }
            List<Object> agg =
                    c.queryRows(
                                    "SELECT count(), uniqExact(small), uniqExact(wide),"
                                            + " countIf(isNull(n)), (SELECT count() FROM (SELECT"
                                            + " DISTINCT n FROM "
                                            + table
                                            + ")) FROM "
                                            + table)
                            .get(0);
            long nulls = 0;
            for (int r = 0; r < rows; r++) {
                if (r % 7 == 0 || r == rows - 1) {
                    nulls++;
                }
            }
            // 1000 distinct strings plus NULL. (uniqExact would do, but 18.16 counts NULL in it
            // for LowCardinality(Nullable) columns, whoever inserted them.)
            assertThat(agg).containsExactly((long) rows, 300L, 70_000L, nulls, 1001L);

            // Value by value through clickhouse-client's text output.
            String tsv =
                    TestServer.clickhouseClient(
                            "SELECT k, small, wide, n FROM " + table + " ORDER BY k FORMAT TSV");
            List<String[]> lines = Tsv.parse(tsv);
            assertThat(lines).hasSize(rows);
            for (int r = 0; r < rows; r++) {
                String[] f = lines.get(r);
                String n = (r % 7 == 0 || r == rows - 1) ? "\\N" : "n" + (r % 1000);
                assertThat(f)
                        .containsExactly(
                                Integer.toString(r), "s" + (r % 300), "w" + (r % 70_000), n);
            }
        }
    }
}
