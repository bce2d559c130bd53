package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.testing.Tables;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class BatchBuilderTest {
    private final TableSchema table =
            Tables.table("t", "id UInt64", "tag String DEFAULT 'none'", "plain String");
    private final TargetColumns columns = new TargetColumns(table, table.insertableColumns());
    private final BatchBuilder batch =
            new BatchBuilder(
                    "p", new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));

    /** Begins a row and appends its values; a null value is an absent field. */
    private void begin(Object... values) {
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
    }

    @Test
    void absentFieldsAreMarkedForTheirRowWhenItIsCommitted() {
        begin(1L, null, "x");
        assertThat(batch.absentRows().anyAbsent(1)).isFalse(); // not before the commit
        assertThat(batch.commitRow(0)).isTrue();
        begin(2L, "b", null);
        batch.absent(2); // reported twice: one mark
        assertThat(batch.commitRow(10)).isFalse();

        AbsentRows absent = batch.absentRows();
        assertThat(absent.isAbsent(1, 0)).isTrue();
        assertThat(absent.isAbsent(1, 1)).isFalse();
        assertThat(absent.count(2)).isEqualTo(1);
        assertThat(absent.isAbsent(2, 1)).isTrue();
        assertThat(absent.anyAbsent(0)).isFalse();
        assertThat(batch.block().column(1).getString(0)).isEmpty(); // the placeholder stays
        assertThat(batch.firstPosition()).isZero();
        assertThat(batch.lastPosition()).isEqualTo(10);
    }

    @Test
    void aRolledBackRowLeavesNoTrace() {
        begin(1L, "a", "x");
        batch.commitRow(0);
        begin(9L, null, null);
        batch.rollbackRow();
        begin(2L, "b", "y");
        batch.commitRow(10);

        assertThat(batch.block().rows()).isEqualTo(2);
        assertThat(batch.block().column(0).getLong(1)).isEqualTo(2);
        assertThat(batch.absentRows().anyAbsent(1)).isFalse();
        assertThat(batch.absentRows().anyAbsent(2)).isFalse();
    }

    @Test
    void aValueATransformSetsIsTheRowsOwnEvenWhereTheFieldWasAbsent() {
        begin(1L, null, null);
        batch.present(1); // e.g. RowView.setString(tag, ...)
        batch.commitRow(0);
        assertThat(batch.absentRows().anyAbsent(1)).isFalse();
        assertThat(batch.absentRows().isAbsent(2, 0)).isTrue();
    }

    @Test
    void rowsWithAbsentFieldsAllocateNothingOnceTheBuffersAreWarm() {
        BlockPool pool = new BlockPool(columns);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        int rows = 100_000;
        long bytes = 0;
        for (int round = 0; round < 4; round++) {
            PooledBlock buffers = pool.take();
            long before = mx.getThreadAllocatedBytes(tid);
            BatchBuilder b = new BatchBuilder("p", buffers);
            for (int r = 0; r < rows; r++) {
                b.beginRow();
                b.block().column(0).appendLong(r);
                b.block().column(1).appendDefault();
                b.absent(1);
                if (r % 2 == 0) {
                    b.block().column(2).appendDefault();
                    b.absent(2);
                } else {
                    b.block().column(2).appendString("x");
                }
                b.commitRow(r);
            }
            bytes = mx.getThreadAllocatedBytes(tid) - before;
            assertThat(b.absentRows().count(2)).isEqualTo(rows / 2);
            pool.give(buffers);
        }
        assertThat((double) bytes / rows).as("bytes per row").isLessThan(1);
    }
}
