package dev.sluice.clickhouse.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pre-sorted batches against the server: the same random rows go into two identical tables, once
 * pre-sorted by {@link Presorter} and once as generated. Both tables must hold the same rows, the
 * pre-sorted insert must be one the server found already sorted ({@code
 * MergeTreeDataWriterBlocksAlreadySorted} in its query log), and the single part each table has
 * must list its rows in the same physical order: the server's own stable sort of the unsorted batch
 * gives exactly our order, ties included.
 */
class PresortIT {
    private static final String COLUMNS =
            "id UInt64, tenant UInt32, ts DateTime, day Date, kind String, lc LowCardinality(String),"
                    + " i8 Int8, i64 Int64, f Float64, f32 Float32, fs FixedString(3),"
                    + " tz DateTime('Asia/Kolkata'), seq UInt32";
    private static final int ROWS = 20_000;
    private static NativeConnection connection;

    @BeforeAll
    static void connect() {
        connection = TestServer.connect();
    }

    @AfterAll
    static void close() {
        if (connection != null) {
            connection.close();
        }
    }

    static Stream<Arguments> keys() {
        return Stream.of(
                Arguments.of("tenant, ts", ""),
                Arguments.of("kind, id", ""),
                Arguments.of("lc, i8, seq", ""),
                Arguments.of("f, seq", ""),
                Arguments.of("f32", ""),
                Arguments.of("i64, i8", ""),
                Arguments.of("fs, day", "toYYYYMM(day)"),
                Arguments.of("toStartOfHour(ts), intHash32(id)", "toYYYYMM(ts)"),
                Arguments.of("intHash32(tenant), ts", ""),
                Arguments.of("cityHash64(kind), i8", ""),
                Arguments.of("toDate(tz), kind", "toMonday(tz)"),
                Arguments.of("substring(kind, 2, 3), -i8, tenant % 7", "tenant % 4"),
                Arguments.of("toString(f32), lower(kind)", ""),
                Arguments.of("cityHash64(kind, tenant, f)", "intDiv(tenant, 100)"));
    }

    @ParameterizedTest
    @MethodSource("keys")
    void presortedInsertEqualsServerSort(String orderBy, String partitionBy) {
        String sorted = create("presort_a", orderBy, partitionBy);
        String unsorted = create("presort_b", orderBy, partitionBy);
        TableSchema schema = SchemaDiscovery.describe(connection, sorted);
        Block batch = randomRows(new Random(orderBy.hashCode()), ROWS);
        Presorter presorter = Presorter.of(schema, names(batch), zone());
        assertThat(presorter.supported()).as(presorter.unsupportedReason()).isTrue();

        Block out = presorter.sort(batch, Presorter.emptyLike(batch), 0);
        assertThat(presorter.lastOutcome()).isEqualTo(Presorter.Outcome.SORTED);
        String queryId = "presort-it-" + Long.toHexString(new Random().nextLong());
        connection.insert(sorted, out, Map.of("log_queries", "1"), queryId);
        connection.insert(unsorted, batch, Map.of(), null);
        connection.execute(
                "OPTIMIZE TABLE " + sorted + " FINAL"); // no-op for one part per partition

        String all = "SELECT * FROM %s ORDER BY id, seq";
        assertThat(rows(String.format(all, sorted))).isEqualTo(rows(String.format(all, unsorted)));
        // Physical order: one part per partition, read sequentially by a single thread.
        assertThat(physical(sorted)).isEqualTo(physical(unsorted));
        assertThat(alreadySorted(queryId)).as("blocks the server found sorted").isPositive();
        assertThat(alreadySorted(queryId)).isEqualTo(writerBlocks(queryId));
    }

    @Test
    void partitionsSplitIntoOneBlockEach() {
        String table = create("presort_split", "tenant, ts", "toYYYYMM(ts)");
        TableSchema schema = SchemaDiscovery.describe(connection, table);
        Block batch = randomRows(new Random(11), ROWS);
        Presorter presorter = Presorter.of(schema, names(batch), zone());
        PartitionSplitter splitter = PartitionSplitter.of(schema, names(batch), zone());
        Block sorted = presorter.sort(batch, Presorter.emptyLike(batch), 0);
        List<Block> parts = splitter.split(sorted, 0);
        long months = months(batch);
        assertThat(parts).hasSize((int) months);
        String queryIdPrefix = "presort-split-" + Long.toHexString(new Random().nextLong());
        int total = 0;
        for (int i = 0; i < parts.size(); i++) {
            total += parts.get(i).rows();
            connection.insert(table, parts.get(i), Map.of("log_queries", "1"), queryIdPrefix + i);
        }
        assertThat(total).isEqualTo(ROWS);
        for (int i = 0; i < parts.size(); i++) {
            // One partition per insert: one block written, found sorted.
            assertThat(writerBlocks(queryIdPrefix + i)).isEqualTo(1);
            assertThat(alreadySorted(queryIdPrefix + i)).isEqualTo(1);
        }
        assertThat(connection.queryRows("SELECT count(), uniqExact(_part) FROM " + table).get(0))
                .containsExactly((long) ROWS, months);
    }

    /** Distinct months of the ts column in the server's zone, by java.time. */
    private static long months(Block b) {
        java.util.Set<java.time.YearMonth> months = new java.util.HashSet<>();
        Column ts = b.column("ts");
        for (int r = 0; r < b.rows(); r++) {
            months.add(
                    java.time.YearMonth.from(
                            java.time.Instant.ofEpochSecond(ts.getLong(r)).atZone(zone())));
        }
        return months.size();
    }

    private static java.time.ZoneId zone() {
        return Bindings.zone(connection.server().timezone());
    }

    private static String create(String prefix, String orderBy, String partitionBy) {
        String table = TestServer.newTable(prefix);
        connection.execute(
                "CREATE TABLE "
                        + table
                        + " ("
                        + COLUMNS
                        + ") ENGINE = MergeTree"
                        + (partitionBy.isEmpty() ? "" : " PARTITION BY " + partitionBy)
                        + " ORDER BY ("
                        + orderBy
                        + ")",
                Map.of("allow_experimental_low_cardinality_type", "1"));
        return table;
    }

    private static List<String> names(Block b) {
        List<String> n = new ArrayList<>();
        for (Column c : b.columns()) {
            n.add(c.name());
        }
        return n;
    }

    /** Rows with many ties (small value pools) so that stability matters. */
    static Block randomRows(Random rnd, int rows) {
        String[] defs = COLUMNS.split(",\\s*(?=[a-z0-9]+ )");
        List<Column> cols = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (String d : defs) {
            int sp = d.indexOf(' ');
            types.add(d.substring(sp + 1).trim());
            cols.add(ColumnFactory.create(d.substring(0, sp).trim(), d.substring(sp + 1).trim()));
        }
        Block b = new Block(cols, types);
        String[] kinds = {"click", "view", "", "Ärger", "buy", "click2", "zz", "a\u0000b"};
        String[] fixed = {"ab", "", "abc", "a\u0000", "b", "ÿ"};
        double[] floats = {0.0, -0.0, 1.5, Double.NaN, -3, Double.POSITIVE_INFINITY, 1e-300};
        for (int r = 0; r < rows; r++) {
            b.column("id")
                    .appendUnsignedLong(
                            rnd.nextInt(50) == 0 ? -1 - rnd.nextInt(5) : rnd.nextInt(5000));
            b.column("tenant").appendLong(rnd.nextInt(300));
            long ts = 1_600_000_000L + rnd.nextInt(90 * 86400);
            b.column("ts").appendLong(rnd.nextInt(100) == 0 ? 1_600_000_000L : ts);
            b.column("day").appendLong(18000 + rnd.nextInt(100));
            b.column("kind").appendString(kinds[rnd.nextInt(kinds.length)]);
            b.column("lc").appendString(kinds[rnd.nextInt(kinds.length)]);
            b.column("i8").appendLong(rnd.nextInt(256) - 128);
            b.column("i64").appendLong(rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(10) - 5);
            b.column("f").appendDouble(floats[rnd.nextInt(floats.length)]);
            b.column("f32")
                    .appendDouble(rnd.nextInt(5) == 0 ? Float.NaN : rnd.nextInt(20) / 4.0 - 2);
            b.column("fs").appendString(fixed[rnd.nextInt(fixed.length)]);
            b.column("tz").appendLong(ts + rnd.nextInt(7200));
            b.column("seq").appendLong(r);
        }
        return b;
    }

    /** Each partition's rows in the order its part stores them. */
    private static Map<String, List<String>> physical(String table) {
        Map<String, List<String>> parts = new java.util.TreeMap<>();
        connection.query(
                "SELECT _part, * FROM " + table,
                Map.of("max_threads", "1"),
                b -> {
                    for (int r = 0; r < b.rows(); r++) {
                        String part = b.column(0).getString(r);
                        StringBuilder sb = new StringBuilder();
                        for (int c = 1; c < b.columnCount(); c++) {
                            sb.append(text(b.column(c).getObject(r))).append('|');
                        }
                        parts.computeIfAbsent(
                                        part.substring(0, part.indexOf('_')),
                                        k -> new ArrayList<>())
                                .add(sb.toString());
                    }
                });
        return parts;
    }

    private static List<String> rows(String sql) {
        List<String> out = new ArrayList<>();
        connection.query(
                sql,
                Map.of(),
                b -> {
                    for (int r = 0; r < b.rows(); r++) {
                        StringBuilder sb = new StringBuilder();
                        for (int c = 0; c < b.columnCount(); c++) {
                            sb.append(text(b.column(c).getObject(r))).append('|');
                        }
                        out.add(sb.toString());
                    }
                });
        return out;
    }

    private static String text(Object v) {
        return v instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(v);
    }

    /** The server writes the QueryFinish row just after answering: poll for it. */
    private static long profileEvent(String queryId, String event) {
        for (int attempt = 0; attempt < 50; attempt++) {
            connection.execute("SYSTEM FLUSH LOGS");
            List<List<Object>> r =
                    connection.queryRows(
                            "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names, '"
                                    + event
                                    + "')] FROM system.query_log WHERE query_id = '"
                                    + queryId
                                    + "' AND type = 2");
            if (!r.isEmpty()) {
                return (Long) r.get(0).get(0);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("no query_log row for " + queryId);
    }

    private static long alreadySorted(String queryId) {
        return profileEvent(queryId, "MergeTreeDataWriterBlocksAlreadySorted");
    }

    private static long writerBlocks(String queryId) {
        return profileEvent(queryId, "MergeTreeDataWriterBlocks");
    }
}
