package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.testing.Tables;
import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReencodingTest {

    private static Block block(TableSchema t) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (TableSchema.Column c : t.insertableColumns()) {
            names.add(c.name());
            types.add(c.typeName());
        }
        return Block.forHeader(names, types);
    }

    private static List<List<Object>> rows(Block b) {
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < b.rows(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < b.columnCount(); c++) {
                row.add(b.column(c).getObject(r));
            }
            out.add(row);
        }
        return out;
    }

    @Test
    void aBatchInTheTablesColumnsIsLeftAsItIs() {
        TableSchema t = Tables.table("t", "id UInt64", "s String");
        Block b = block(t);
        b.column(0).appendLong(1);
        b.column(1).appendString("x");
        assertThat(
                        Reencoding.toColumns(
                                b, new AbsentRows(2), t.insertableColumns(), ZoneOffset.UTC))
                .isNull();
        assertThat(Reencoding.forTable(b, t, ZoneOffset.UTC)).isNull();
    }

    @Test
    void droppedColumnsGoAddedOnesAreAbsentAndChangedTypesAreCastRowByRowKeepingMarks() {
        TableSchema before = Tables.table("t", "id UInt64", "n UInt32", "gone String", "s String");
        TableSchema after =
                Tables.table("t", "id UInt64", "n String", "s String", "added String DEFAULT 'd'");
        Block b = block(before);
        AbsentRows absent = new AbsentRows(4);
        for (int r = 0; r < 4; r++) {
            b.column(0).appendLong(r);
            b.column(1).appendLong(r * 1000);
            b.column(2).appendString("g" + r);
            if (r == 2) {
                b.column(3).appendDefault(); // a field the record lacked
                absent.markAbsent(3, r);
            } else {
                b.column(3).appendString("s" + r);
            }
        }
        Reencoding.Result re =
                Reencoding.toColumns(b, absent, after.insertableColumns(), ZoneOffset.UTC);
        assertThat(re.refused()).isEmpty();
        assertThat(re.kept()).containsExactly(0, 1, 2, 3);
        assertThat(re.block().typeNames()).containsExactly("UInt64", "String", "String", "String");
        assertThat(rows(re.block()))
                .containsExactly(
                        List.of(0L, "0", "s0", ""),
                        List.of(1L, "1000", "s1", ""),
                        List.of(2L, "2000", "", ""),
                        List.of(3L, "3000", "s3", ""));
        // the added column is absent from every row, and the absent field stays absent
        assertThat(re.absent().count(3)).isEqualTo(4);
        assertThat(re.absent().isAbsent(2, 2)).isTrue();
        assertThat(re.absent().count(2)).isEqualTo(1);
    }

    @Test
    void valuesTheNewTypeCannotTakeRefuseTheirRowsWithTheReasonNeverAZeroOrANull() {
        TableSchema before = Tables.table("t", "id UInt64", "v String", "n Nullable(UInt8)");
        TableSchema after = Tables.table("t", "id UInt64", "v UInt32", "n UInt8");
        Block b = block(before);
        String[] vs = {"12", "twelve", "7", "8"};
        for (int r = 0; r < 4; r++) {
            b.column(0).appendLong(r);
            b.column(1).appendString(vs[r]);
            if (r == 3) {
                b.column(2).appendNull();
            } else {
                b.column(2).appendLong(r);
            }
        }
        Reencoding.Result re = Reencoding.forTable(b, after, ZoneOffset.UTC);
        assertThat(re.kept()).containsExactly(0, 2);
        assertThat(rows(re.block())).containsExactly(List.of(0L, 12L, 0L), List.of(2L, 7L, 2L));
        assertThat(re.refused()).extracting(Reencoding.Refused::row).containsExactly(1, 3);
        assertThat(re.refused().get(0).reason())
                .startsWith(
                        "column v changed from String to UInt32 while the row was in flight, and"
                                + " its value 'twelve' cannot be converted: ");
        assertThat(re.refused().get(1).reason())
                .contains("column n changed from Nullable(UInt8) to UInt8")
                .contains("value NULL cannot be converted")
                .contains("NULL");
    }

    @Test
    void typesTheEngineDoesNotProduceGoThroughTheColumnsConverter() {
        TableSchema before = Tables.table("t", "id UInt64", "price String");
        TableSchema after = Tables.table("t", "id UInt64", "price Decimal(10, 2)");
        Block b = block(before);
        b.column(0).appendLong(1);
        b.column(1).appendString("12.34");
        b.column(0).appendLong(2);
        b.column(1).appendString("cheap");
        Reencoding.Result re = Reencoding.forTable(b, after, ZoneOffset.UTC);
        assertThat(rows(re.block())).containsExactly(List.of(1L, new BigDecimal("12.34")));
        assertThat(re.refused())
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.row()).isEqualTo(1);
                            assertThat(f.reason()).contains("'cheap' cannot be converted");
                        });
    }

    @Test
    void aColumnTheTableNowComputesIsNoLongerSent() {
        TableSchema before = Tables.table("t", "id UInt64", "s String");
        TableSchema after = Tables.table("t", "id UInt64", "s String MATERIALIZED 'm'");
        Block b = block(before);
        b.column(0).appendLong(5);
        b.column(1).appendString("x");
        Reencoding.Result re = Reencoding.forTable(b, after, ZoneOffset.UTC);
        assertThat(re.block().columnCount()).isEqualTo(1);
        assertThat(rows(re.block())).containsExactly(List.of(5L));
    }
}
