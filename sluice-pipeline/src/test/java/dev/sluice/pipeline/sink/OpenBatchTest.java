package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.testing.Tables;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenBatchTest {
    private static final long NOW_MILLIS = 1_700_000_123_456L;

    private final TableSchema table =
            Tables.table(
                    "t",
                    "id UInt64",
                    "tag String DEFAULT 'none'",
                    "n Int32 DEFAULT CAST(7, 'Int32')",
                    "plain String",
                    "at DateTime DEFAULT now()",
                    "day Date DEFAULT today()",
                    "weird String DEFAULT concat(plain, 'x')");
    private final TargetColumns columns = new TargetColumns(table, table.insertableColumns());
    private final OpenBatch batch =
            new OpenBatch("p", columns.newBlock(), ClientDefaults.of(columns, ZoneOffset.UTC));

    /** Appends a row; a null value is an absent field (type default + absent). */
    private void row(long position, Object... values) {
        batch.beginRow();
        Block b = batch.block();
        for (int c = 0; c < values.length; c++) {
            Column col = b.column(c);
            if (values[c] == null) {
                col.appendDefault();
                batch.absent(c);
            } else if (values[c] instanceof Long v) {
                col.appendLong(v);
            } else {
                col.appendString((String) values[c]);
            }
        }
        batch.decoded(NOW_MILLIS);
        batch.commitRow(position, NOW_MILLIS);
    }

    private static List<String> names(Block b) {
        List<String> n = new ArrayList<>();
        for (int c = 0; c < b.columnCount(); c++) {
            n.add(b.column(c).name());
        }
        return n;
    }

    @Test
    void aColumnNoRowHasIsLeftOutWithoutCopyingTheOthers() {
        row(0, 1L, "a", null, "x", null, null, null);
        row(10, 2L, "b", null, "y", null, null, null);

        Block sent = batch.insertBlock();
        assertThat(names(sent)).containsExactly("id", "tag", "plain");
        assertThat(sent.column(0)).isSameAs(batch.block().column(0));
        assertThat(sent.typeNames()).containsExactly("UInt64", "String", "String");
        assertThat(batch.unsendable()).isNull(); // weird is absent everywhere: the server fills it
    }

    @Test
    void rowsLackingAColumnOthersHaveGetItsLiteralOrClockDefault() {
        row(0, 1L, "a", 5L, "x", null, null, "w");
        row(10, 2L, null, null, "y", null, null, "w");
        Block b = batch.block();

        assertThat(b.column(1).getString(1)).isEqualTo("none");
        assertThat(b.column(2).getLong(1)).isEqualTo(7);
        assertThat(b.column(4).getLong(0)).isEqualTo(NOW_MILLIS / 1000);
        assertThat(b.column(5).getLong(1))
                .isEqualTo(LocalDate.ofEpochDay(NOW_MILLIS / 86_400_000).toEpochDay());
        assertThat(names(batch.insertBlock())).containsExactly("id", "tag", "n", "plain", "weird");
        assertThat(batch.unsendable()).isNull();
    }

    @Test
    void aMixOfPresentAndAbsentForAnExpressionTheClientCannotComputeFailsTheBatch() {
        row(0, 1L, "a", 5L, "x", null, null, "w");
        row(10, 2L, "b", 6L, "y", null, null, null);
        assertThat(batch.unsendable())
                .contains("column weird")
                .contains("concat(plain, 'x')")
                .contains("1 of this batch's 2 records");
    }

    @Test
    void aColumnWithoutDefaultKeepsTheTypeDefaultTheDecoderAppended() {
        row(0, 1L, "a", 5L, "x", null, null, "w");
        row(10, 2L, "b", 6L, null, null, null, "w");
        assertThat(batch.block().column(3).getString(1)).isEmpty();
        assertThat(names(batch.insertBlock())).contains("plain");
    }

    @Test
    void aRolledBackRowLeavesNoTrace() {
        row(0, 1L, "a", 5L, "x", null, null, "w");
        batch.beginRow();
        batch.block().column(0).appendLong(9);
        batch.absent(1);
        batch.rollbackRow();
        row(10, 2L, "b", 6L, "y", null, null, "w");

        assertThat(batch.block().rows()).isEqualTo(2);
        assertThat(batch.block().column(0).getLong(1)).isEqualTo(2);
        assertThat(names(batch.insertBlock()))
                .contains("tag"); // the rolled-back absence did not count
        assertThat(batch.firstPosition()).isZero();
        assertThat(batch.lastPosition()).isEqualTo(10);
    }
}
