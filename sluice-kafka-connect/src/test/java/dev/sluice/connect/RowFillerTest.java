package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Connections;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.TargetTable;
import dev.sluice.pipeline.writer.ValueException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RowFiller} against the writer's own path ({@code Rows.add}): the same values give the same
 * rows, value by value, and the same errors — whichever way a value goes in. The writer describes a
 * table given in code; nothing is sent.
 */
class RowFillerTest {
    private static final List<String> COLUMNS =
            List.of(
                    "id UInt64",
                    "name String",
                    "amount Float64",
                    "ts DateTime('UTC')",
                    "note String",
                    "n Nullable(Int32)",
                    "small UInt8",
                    "tag LowCardinality(String)",
                    "day Date",
                    "price Decimal(9, 2)");

    private final ClickHouseWriter writer = writer();

    @AfterEach
    void close() {
        writer.close();
    }

    private static ClickHouseWriter writer() {
        List<TableSchema.Column> columns = new ArrayList<>();
        for (String c : COLUMNS) {
            int space = c.indexOf(' ');
            String type = c.substring(space + 1);
            columns.add(
                    new TableSchema.Column(
                            c.substring(0, space),
                            type,
                            TypeParser.parse(type),
                            TableSchema.DefaultKind.NONE,
                            ""));
        }
        TableSchema table = new TableSchema("test", "t", columns, "MergeTree", "id", "");
        ServerInfo server = new ServerInfo("ClickHouse", 18, 16, 1, 54412, 54412, "UTC", "test");
        return ClickHouseWriter.builder("clickhouse://nowhere:9000/test", "test.t")
                .connections(
                        new Connections() {
                            @Override
                            public BlockInserter inserter(String url) {
                                throw new AssertionError("nothing is sent");
                            }

                            @Override
                            public TargetTable describe(String url) {
                                return new TargetTable(table, server);
                            }

                            @Override
                            public List<List<Object>> clusterRows(String url, String cluster) {
                                return List.of();
                            }

                            @Override
                            public QueryTrace trace(
                                    String url,
                                    String prefix,
                                    LocalDate since,
                                    Duration timeout,
                                    QueryLogging logging) {
                                throw new AssertionError("nothing is looked up");
                            }
                        })
                .build();
    }

    /** Every column's values, row by row. */
    private static List<List<Object>> contents(Rows rows) {
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < rows.columnNames().size(); c++) {
                row.add(rows.column(c).getObject(r));
            }
            out.add(row);
        }
        return out;
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Values of every kind the fast paths take, and some they leave to the writer. */
    private static List<Map<String, Object>> values() {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(
                map(
                        "id",
                        1L,
                        "name",
                        "plain ascii",
                        "amount",
                        0.25,
                        "ts",
                        1_700_000_000L,
                        "note",
                        "é and 中 and 😀",
                        "n",
                        7,
                        "small",
                        200L,
                        "tag",
                        "a",
                        "day",
                        "2024-05-01",
                        "price",
                        new BigDecimal("12.34")));
        out.add(
                map(
                        "id",
                        2,
                        "name",
                        "\ud800 lone",
                        "amount",
                        3L,
                        "ts",
                        "2023-11-14 22:13:20",
                        "n",
                        null,
                        "small",
                        0,
                        "tag",
                        "",
                        "day",
                        19_000L,
                        "price",
                        1.5));
        out.add(map("id", Long.MAX_VALUE, "name", "x".repeat(5000), "amount", 2, "note", null));
        out.add(map("id", 4L, "name", "", "amount", -0.0, "ts", 0L, "n", Integer.MIN_VALUE));
        out.add(map("id", 5L, "name", "tab\tand \"quote\"", "amount", Double.NaN));
        return out;
    }

    @Test
    void mapsFillTheSameRowsAsTheWritersOwnPath() {
        Rows fast = writer.newRows();
        Rows slow = writer.newRows();
        RowFiller filler = new RowFiller(fast, false);
        for (Map<String, Object> v : values()) {
            filler.add(fast, v);
            slow.add(v);
        }
        assertThat(fast.size()).isEqualTo(values().size());
        assertThat(contents(fast)).isEqualTo(contents(slow));
        assertThat(fast.dataBytes()).isEqualTo(slow.dataBytes());
        assertThat(contents(fast).get(1).get(1))
                .as("a lone surrogate as the writer writes it")
                .isEqualTo("? lone");
    }

    @Test
    void structsFillTheSameRowsAsTheirFieldsWould() {
        Schema schema =
                SchemaBuilder.struct()
                        .field("id", Schema.INT64_SCHEMA)
                        .field("name", Schema.STRING_SCHEMA)
                        .field("amount", Schema.FLOAT64_SCHEMA)
                        .field("n", Schema.OPTIONAL_INT32_SCHEMA)
                        .field("note", Schema.OPTIONAL_STRING_SCHEMA)
                        .build();
        Rows fast = writer.newRows();
        Rows slow = writer.newRows();
        RowFiller filler = new RowFiller(fast, false);
        for (int i = 0; i < 3; i++) {
            Struct s =
                    new Struct(schema)
                            .put("id", (long) i)
                            .put("name", "name " + i)
                            .put("amount", i * 1.5)
                            .put("n", i == 1 ? null : i)
                            .put("note", i == 2 ? "ü" : null);
            filler.add(fast, s);
            slow.add(RecordValues.fields(s));
        }
        assertThat(contents(fast)).isEqualTo(contents(slow));
    }

    @Test
    void aValueAColumnRefusesIsTheWritersErrorAndLeavesNoPartOfTheRow() {
        Rows rows = writer.newRows();
        RowFiller filler = new RowFiller(rows, false);
        filler.add(rows, map("id", 1L, "name", "kept"));
        for (Map<String, Object> bad :
                List.of(
                        map("id", 2L, "name", "x", "small", 256L),
                        map("id", 3L, "name", "x", "small", -1),
                        map("id", 4L, "name", "x", "amount", "not a number"),
                        map("id", -5L, "name", "x"))) {
            Rows slow = writer.newRows();
            slow.add(map("id", 1L, "name", "kept")); // the same row number in the message
            Throwable expected = catchThrowable(() -> slow.add(bad));
            assertThat(expected)
                    .as("the writer refuses %s", bad)
                    .isInstanceOf(ValueException.class);
            assertThatThrownBy(() -> filler.add(rows, bad))
                    .isInstanceOf(ValueException.class)
                    .hasMessage(expected.getMessage());
            assertThat(rows.size()).isEqualTo(1);
        }
        filler.add(rows, map("id", 6L, "name", "after"));
        assertThat(contents(rows)).extracting(r -> r.get(1)).containsExactly("kept", "after");
    }

    private static Throwable catchThrowable(Runnable r) {
        try {
            r.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @Test
    void aFieldWithoutAColumnIsRefusedNamingItOrDroppedWhenIgnored() {
        Rows rows = writer.newRows();
        Map<String, Object> v = map("id", 1L, "colour", "red");
        assertThatThrownBy(() -> new RowFiller(rows, false).add(rows, v))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("colour")
                .hasMessageContaining("test.t");
        assertThat(rows.size()).isZero();
        new RowFiller(rows, true).add(rows, v);
        assertThat(contents(rows).get(0).get(0)).isEqualTo(1L);

        Schema schema =
                SchemaBuilder.struct()
                        .field("id", Schema.INT64_SCHEMA)
                        .field("colour", Schema.STRING_SCHEMA)
                        .build();
        Struct s = new Struct(schema).put("id", 2L).put("colour", "blue");
        assertThatThrownBy(() -> new RowFiller(rows, false).add(rows, s))
                .hasMessageContaining("colour");
        new RowFiller(rows, true).add(rows, s);
        assertThat(rows.size()).isEqualTo(2);
    }

    @Test
    void valuesThatAreNoRowAreRefusedSayingWhatTheyAre() {
        Rows rows = writer.newRows();
        RowFiller filler = new RowFiller(rows, true);
        assertThatThrownBy(() -> filler.add(rows, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tombstone");
        assertThatThrownBy(() -> filler.add(rows, "text"))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("not a String");
        Map<Object, Object> numbered = new LinkedHashMap<>();
        numbered.put(1, "x");
        assertThatThrownBy(() -> filler.add(rows, numbered))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("keys must be field names");
        Map<Integer, String> sorted = new TreeMap<>(Map.of(1, "x"));
        assertThatThrownBy(() -> filler.add(rows, sorted))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("keys must be field names");
        assertThat(rows.size()).isZero();
    }

    @Test
    void valuesLookedUpAheadFillTheSameRowsAndFailTheSameWay() {
        Schema schema = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
        Map<Object, Object> numbered = new LinkedHashMap<>();
        numbered.put(1, "x");
        List<Object> chunk = new ArrayList<>(values());
        chunk.add(map("id", 2L, "name", "x", "small", 256L)); // refused by its column
        chunk.add(map("id", 3L, "colour", "red")); // a field without a column
        chunk.add(map("id", 4L, "n", null)); // null for a Nullable column
        chunk.add(new Struct(schema).put("id", 5L));
        chunk.add("text");
        chunk.add(null);
        chunk.add(numbered);
        chunk.add(new TreeMap<>(Map.of(1, "x"))); // its look-ups throw
        chunk.add(map("id", 6L, "name", "after them"));
        for (boolean ignoreUnknown : new boolean[] {false, true}) {
            Rows ahead = writer.newRows();
            Rows asItGoes = writer.newRows();
            RowFiller filler = new RowFiller(ahead, ignoreUnknown);
            int w = filler.width();
            Object[] staged = new Object[chunk.size() * w];
            // twice: the second time over the slots of the first, as a task's next chunk is
            for (List<Object> part : List.of(chunk, chunk.subList(5, chunk.size()))) {
                Object[] values = part.toArray();
                filler.lookUp(values, values.length, staged);
                for (int k = 0; k < values.length; k++) {
                    Object v = values[k];
                    int at = k * w;
                    Throwable expected = catchThrowable(() -> filler.add(asItGoes, v));
                    Throwable actual = catchThrowable(() -> filler.add(ahead, v, staged, at));
                    if (expected == null) {
                        assertThat(actual).as("value %d: %s", k, v).isNull();
                    } else {
                        assertThat(actual)
                                .as("value %d: %s", k, v)
                                .isInstanceOf(expected.getClass())
                                .hasMessage(expected.getMessage());
                    }
                    assertThat(ahead.size()).isEqualTo(asItGoes.size());
                }
            }
            assertThat(contents(ahead)).isEqualTo(contents(asItGoes));
            // five good maps, a null for a Nullable, a struct, the last map (and the unknown field
            // when ignored); the second time without the five
            assertThat(ahead.size()).isEqualTo(ignoreUnknown ? 13 : 11);
        }
    }

    /** A map with a value for every column, each of a type {@link RowFiller#plain} takes. */
    private static Map<String, Object> plainMap(long id, String name, Object small) {
        return map(
                "id",
                id,
                "name",
                name,
                "amount",
                id * 0.5,
                "ts",
                1_700_000_000L + id,
                "note",
                "note " + id,
                "n",
                (int) id,
                "small",
                small,
                "tag",
                3L,
                "day",
                19_000L + id,
                "price",
                2.5);
    }

    @Test
    void plainValuesAreTheMapsWithEveryColumnAndOnlyValuesOfTheDirectTypes() {
        Rows rows = writer.newRows();
        RowFiller filler = new RowFiller(rows, false);
        Map<String, Object> extra = plainMap(4, "x", 1L);
        extra.put("colour", "red");
        Map<String, Object> missing = plainMap(5, "x", 1L);
        missing.remove("note");
        Map<String, Object> withNull = plainMap(6, "x", 1L);
        withNull.put("n", null);
        Map<String, Object> textForLowCardinality = plainMap(7, "x", 1L);
        textForLowCardinality.put("tag", "a");
        Map<String, Object> decimal = plainMap(8, "x", 1L);
        decimal.put("price", new BigDecimal("1.25"));
        Object[] values = {
            plainMap(1, "plain", 1L),
            plainMap(2, "é and 😀", 7), // an Integer; text that is not ASCII
            plainMap(3, "x", 300L), // its column refuses it: still plain
            extra,
            missing,
            withNull,
            textForLowCardinality,
            decimal,
            new Struct(SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build())
                    .put("id", 9L),
            "text",
            null,
            new TreeMap<>(Map.of(1, "x")),
        };
        Object[] staged = new Object[values.length * filler.width()];
        filler.lookUp(values, values.length, staged);
        List<Boolean> plain = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            plain.add(filler.plain(values, staged, k));
        }
        assertThat(plain)
                .containsExactly(
                        true, true, true, false, false, false, false, false, false, false, false,
                        false);
    }

    @Test
    void plainValuesAddedColumnByColumnFillTheSameRowsAsOneByOne() {
        List<Object> chunk = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            chunk.add(
                    plainMap(
                            i,
                            i % 3 == 0
                                    ? "name " + i
                                    : i % 3 == 1 ? "naïve " + i : "x".repeat(i * 7),
                            i % 2 == 0 ? (Object) (long) i : (Object) i));
        }
        Object[] values = chunk.toArray();
        Rows byColumn = writer.newRows();
        Rows oneByOne = writer.newRows();
        RowFiller filler = new RowFiller(byColumn, false);
        byColumn.set("id", 100L).endRow(); // a row before them, kept
        oneByOne.set("id", 100L).endRow();
        Object[] staged = new Object[values.length * filler.width()];
        filler.lookUp(values, values.length, staged);
        assertThat(filler.addPlain(byColumn, staged, 0, 25)).isTrue();
        assertThat(filler.addPlain(byColumn, staged, 25, 15)).isTrue();
        for (Object v : values) {
            filler.add(oneByOne, v);
        }
        assertThat(byColumn.size()).isEqualTo(41);
        assertThat(contents(byColumn)).isEqualTo(contents(oneByOne));
    }

    @Test
    void aPlainValueItsColumnRefusesLeavesNothingOfItsRunAndOneByOneNamesIt() {
        Object[] values = {
            plainMap(1, "a", 1L),
            plainMap(2, "\ud800 lone", 2L),
            plainMap(3, "c", 300L),
            plainMap(4, "d", 4L)
        };
        Rows rows = writer.newRows();
        RowFiller filler = new RowFiller(rows, false);
        rows.set("id", 100L).endRow();
        List<List<Object>> before = contents(rows);
        Object[] staged = new Object[values.length * filler.width()];
        filler.lookUp(values, values.length, staged);
        assertThat(filler.addPlain(rows, staged, 0, values.length)).isFalse();
        assertThat(rows.size()).isEqualTo(1);
        for (int c = 0; c < rows.columnNames().size(); c++) {
            assertThat(rows.column(c).rows()).as("column %d taken back", c).isEqualTo(1);
        }
        assertThat(contents(rows)).isEqualTo(before);
        // one by one: the lone surrogate goes the writer's way, 300 is refused naming its column
        Rows expected = writer.newRows();
        expected.set("id", 100L).endRow();
        for (int k = 0; k < values.length; k++) {
            int at = k * filler.width();
            Object v = values[k];
            Throwable e = catchThrowable(() -> filler.add(rows, v, staged, at));
            Throwable writers = catchThrowable(() -> expected.add(castMap(v)));
            if (k == 2) {
                assertThat(e).isInstanceOf(ValueException.class).hasMessageContaining("small");
                assertThat(writers).isInstanceOf(ValueException.class);
            } else {
                assertThat(e).isNull();
                assertThat(writers).isNull();
            }
        }
        assertThat(contents(rows)).isEqualTo(contents(expected));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> castMap(Object v) {
        return (Map<String, ?>) v;
    }

    @Test
    void thePoolHandsBackEmptiedRowsWithinItsBytes() {
        RowsPool pool = new RowsPool(writer, 1_000);
        Rows a = pool.take();
        a.set("id", 1L).set("name", "x".repeat(100)).endRow();
        pool.giveBack(a);
        Rows b = pool.take();
        assertThat(b).as("reused").isSameAs(a);
        assertThat(b.size()).isZero();
        b.set("id", 1L).set("name", "x".repeat(2_000)).endRow();
        pool.giveBack(b); // more than the pool keeps
        assertThat(pool.take()).isNotSameAs(b);
    }

    @Test
    void newRowsFromThePoolHaveRoomForTheLargestBatchSoFar() {
        RowsPool pool = new RowsPool(writer, 0); // keeps none
        Rows a = pool.take();
        for (int i = 0; i < 1_000; i++) {
            a.set("id", (long) i).set("name", "name number " + i).endRow();
        }
        pool.sealed(a); // as the task seals a batch, then gives it back once written
        pool.giveBack(a);
        Rows b = pool.take();
        assertThat(b).isNotSameAs(a);
        assertThat(b.size()).isZero();
        int name = b.columnIndex("name");
        int id = b.columnIndex("id");
        assertThat(b.column(name).capacityBytes())
                .isGreaterThanOrEqualTo(a.column(name).dataBytes());
        assertThat(b.column(id).capacityBytes()).isGreaterThanOrEqualTo(8L * 1_000);
        assertThat(writer.newRows().column(id).capacityBytes())
                .as("a fresh one from the writer, for comparison")
                .isLessThan(8L * 1_000);
    }

    @Test
    void newRowsHaveRoomForABatchSealedAndNotYetBack() {
        RowsPool pool = new RowsPool(writer, 1 << 20);
        Rows inFlight = pool.take();
        for (int i = 0; i < 1_000; i++) {
            inFlight.set("id", (long) i).set("name", "name number " + i).endRow();
        }
        pool.sealed(inFlight); // still the writer's: a new task's first batches
        Rows next = pool.take();
        assertThat(next).isNotSameAs(inFlight);
        int name = next.columnIndex("name");
        assertThat(next.column(name).capacityBytes())
                .isGreaterThanOrEqualTo(inFlight.column(name).dataBytes());
        assertThat(next.column(next.columnIndex("id")).capacityBytes())
                .isGreaterThanOrEqualTo(8L * 1_000);
    }
}
