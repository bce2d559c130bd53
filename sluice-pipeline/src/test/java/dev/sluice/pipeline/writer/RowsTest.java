package dev.sluice.pipeline.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.Tables;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Java values into columns: what each kind of value means, DEFAULTs, and bad values by name. */
class RowsTest {
    private static final ServerInfo SERVER = FakeInserter.server(18, 16);
    private static final TableSchema TABLE =
            Tables.table(
                    "t",
                    "id UInt64",
                    "ts DateTime",
                    "ms DateTime64(3)",
                    "day Date",
                    "price Decimal(9, 2)",
                    "note Nullable(String)",
                    "tags Array(String)",
                    "doc String",
                    "kind Enum8('a' = 1, 'b' = 2)");

    private final ClickHouseWriter writer =
            ClickHouseWriter.builder("clickhouse://r:9000/test", "test.t")
                    .connections(
                            new Connections() {
                                @Override
                                public BlockInserter inserter(String url) {
                                    return new FakeInserter(SERVER);
                                }

                                @Override
                                public TargetTable describe(String url) {
                                    return new TargetTable(TABLE, SERVER);
                                }

                                @Override
                                public List<List<Object>> clusterRows(String url, String c) {
                                    return List.of();
                                }

                                @Override
                                public QueryTrace trace(
                                        String url,
                                        String prefix,
                                        LocalDate since,
                                        Duration timeout,
                                        QueryLogging logging) {
                                    return new QueryTrace(List.of(), List.of(), true);
                                }
                            })
                    .build();

    @AfterEach
    void close() {
        writer.close();
    }

    private static Object value(Rows rows, String column, int row) {
        return rows.column(rows.columnIndex(column)).getObject(row);
    }

    @Test
    void javaValuesMeanWhatTheSameJsonValuesMean() {
        Rows rows = writer.newRows();
        Instant moment = Instant.parse("2024-05-01T10:20:30.456Z");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", 7);
        row.put("ts", moment);
        row.put("ms", Date.from(moment));
        row.put("day", "2024-05-01");
        row.put("price", new BigDecimal("12.50"));
        row.put("note", null);
        row.put("tags", List.of("x", "y"));
        row.put("doc", Map.of("k", 1));
        row.put("kind", "b");
        rows.add(row);
        rows.set("id", 8L).set("ts", 1_714_558_830L).set("ms", "2024-05-01 10:20:30.456");
        rows.set("day", LocalDate.of(2024, 5, 2)).set("note", "n").endRow();

        assertThat(rows.size()).isEqualTo(2);
        assertThat(value(rows, "id", 0)).isEqualTo(7L);
        assertThat(((Number) value(rows, "ts", 0)).longValue()).isEqualTo(1_714_558_830L);
        assertThat(value(rows, "ts", 0)).isEqualTo(value(rows, "ts", 1));
        assertThat(value(rows, "ms", 0)).isEqualTo(value(rows, "ms", 1));
        assertThat(((Number) value(rows, "day", 0)).longValue())
                .isEqualTo(LocalDate.of(2024, 5, 1).toEpochDay());
        assertThat(((Number) value(rows, "day", 1)).longValue())
                .isEqualTo(LocalDate.of(2024, 5, 2).toEpochDay());
        assertThat(value(rows, "price", 0)).isEqualTo(new BigDecimal("12.50"));
        assertThat(value(rows, "note", 0)).isNull();
        assertThat(value(rows, "note", 1)).isEqualTo("n");
        assertThat(value(rows, "tags", 0)).isEqualTo(List.of("x", "y"));
        assertThat(value(rows, "doc", 0)).isEqualTo("{\"k\":1}");
        assertThat(rows.absent().isAbsent(rows.columnIndex("price"), 1)).isTrue();
        assertThat(rows.absent().isAbsent(rows.columnIndex("price"), 0)).isFalse();
    }

    @Test
    void nullIsTheDefaultForAColumnThatIsNotNullable() {
        Rows rows = writer.newRows();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", null);
        rows.add(row);
        assertThat(rows.absent().isAbsent(rows.columnIndex("id"), 0)).isTrue();
    }

    @Test
    void aBadValueNamesItsColumnAndLeavesNothingOfTheRow() {
        Rows rows = writer.newRows();
        rows.add(Map.of("id", 1L));
        Map<String, Object> bad = new LinkedHashMap<>();
        bad.put("id", 2L);
        bad.put("ts", "yesterday");
        assertThatThrownBy(() -> rows.add(bad))
                .isInstanceOf(ValueException.class)
                .hasMessageContaining("column ts (DateTime): cannot take 'yesterday'")
                .extracting(e -> ((ValueException) e).column())
                .isEqualTo("ts");
        assertThat(rows.size()).isEqualTo(1);
        assertThat(rows.column(rows.columnIndex("id")).rows()).isEqualTo(1);
        assertThatThrownBy(() -> rows.set("id", -1L))
                .isInstanceOf(ValueException.class)
                .hasMessageContaining("column id (UInt64)");
        assertThatThrownBy(() -> rows.set("kind", "c"))
                .isInstanceOf(ValueException.class)
                .hasMessageContaining("column kind");
        assertThatThrownBy(() -> rows.set("nope", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column nope is not among the columns written to test.t");
        rows.set("id", 3L);
        assertThatThrownBy(() -> rows.set("id", 4L))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already has a value");
        rows.abortRow();
        assertThat(rows.column(rows.columnIndex("id")).rows()).isEqualTo(1);
    }

    @Test
    void typedAppendsAndSetsMixInOneRow() {
        Rows rows = writer.newRows();
        rows.column(rows.columnIndex("id")).appendLong(42);
        rows.set("doc", "d").endRow();
        assertThat(value(rows, "id", 0)).isEqualTo(42L);
        assertThat(rows.absent().isAbsent(rows.columnIndex("ts"), 0)).isTrue();
        rows.clear();
        assertThat(rows.size()).isZero();
        assertThat(rows.dataBytes()).isZero();
    }

    @Test
    void manyRowsAppendedColumnByColumnEndAtOnceOnlyWhenEveryColumnHasThemAll() {
        Rows rows = writer.newRows();
        rows.set("id", 1L).set("doc", "first").endRow();
        for (int i = 0; i < rows.columnNames().size(); i++) {
            for (int r = 0; r < 3; r++) {
                rows.column(i).appendDefault();
            }
        }
        rows.endRows(3);
        assertThat(rows.size()).isEqualTo(4);
        assertThat(value(rows, "doc", 0)).isEqualTo("first");
        assertThat(rows.absent().isAbsent(rows.columnIndex("doc"), 1)).isFalse();

        for (int i = 0; i < rows.columnNames().size(); i++) {
            int values = rows.columnNames().get(i).equals("doc") ? 1 : 2; // doc is one short
            for (int r = 0; r < values; r++) {
                rows.column(i).appendDefault();
            }
        }
        assertThatThrownBy(() -> rows.endRows(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("column doc got 1 values for 2 rows");
        assertThat(rows.size()).isEqualTo(4);
        for (int i = 0; i < rows.columnNames().size(); i++) {
            assertThat(rows.column(i).rows()).as("taken back").isEqualTo(4);
        }
        rows.set("id", 5L).endRow();
        assertThat(value(rows, "id", 4)).isEqualTo(5L);
    }
}
