package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.testing.Tables;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every row of a batch knows where its record is: what a server-rejected row is filed under. */
class SealedBatchSourceTest {
    private final TableSchema table = Tables.table("t", "n UInt64");
    private final TargetColumns columns = new TargetColumns(table, table.insertableColumns());

    /** An open batch of {@code partition} with rows n = positions. */
    private BatchBuilder open(String partition, long... positions) {
        BatchBuilder open =
                new BatchBuilder(
                        partition,
                        new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
        for (long p : positions) {
            open.beginRow();
            open.block().column(0).appendLong(p);
            open.commitRow(p);
        }
        return open;
    }

    @Test
    void eachRowKeepsItsRecordsPositionBeyondTheFirstCapacity() {
        long[] positions = new long[1000];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = 17L * i + 3; // byte offsets: not one per row
        }
        BatchBuilder open = open("a.tsv", positions);
        for (int i = 0; i < positions.length; i++) {
            assertThat(open.position(i)).isEqualTo(positions[i]);
        }
        // The positions' capacity is counted against the budget like the block's (property 3).
        assertThat(open.buffers().positionBytes()).isGreaterThanOrEqualTo(8L * positions.length);
    }

    @Test
    void aBatchOfSeveralPartitionsMapsEachRowToItsSegment() {
        BatchBuilder a = open("topic-0", 5, 6, 9);
        BatchBuilder b = open("topic-1", 100, 101);
        SealedBatch batch =
                new SealedBatch(
                        x -> {},
                        List.of(
                                new SealedBatch.Segment(a, new LedgerEntry("topic-0", 5, 9, 0), 1),
                                new SealedBatch.Segment(
                                        b, new LedgerEntry("topic-1", 100, 101, 0), 1)),
                        0,
                        false,
                        "tok",
                        SealReason.ROWS,
                        0);
        assertThat(batch.source(0)).isEqualTo(new SealedBatch.RowSource("topic-0", 5));
        assertThat(batch.source(2)).isEqualTo(new SealedBatch.RowSource("topic-0", 9));
        assertThat(batch.source(3)).isEqualTo(new SealedBatch.RowSource("topic-1", 100));
        assertThat(batch.source(4)).isEqualTo(new SealedBatch.RowSource("topic-1", 101));
        assertThat(batch.block().column(0).getObject(3)).isEqualTo(100L); // the same row
        assertThatThrownBy(() -> batch.source(5)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aShardsPartOfABatchMapsItsRowsThroughTheParent() {
        BatchBuilder a = open("p", 10, 20, 30, 40);
        SealedBatch parent =
                new SealedBatch(
                        x -> {},
                        a,
                        new LedgerEntry("p", 10, 40, 0),
                        false,
                        "tok",
                        SealReason.ROWS,
                        0,
                        1);
        SealedBatch part =
                new SealedBatch(
                        parent,
                        x -> {},
                        parent.block(),
                        parent.absentRows(),
                        1,
                        0,
                        new int[] {1, 3});
        assertThat(part.token()).isEqualTo("tok/k1");
        assertThat(part.source(0)).isEqualTo(new SealedBatch.RowSource("p", 20));
        assertThat(part.source(1)).isEqualTo(new SealedBatch.RowSource("p", 40));
    }
}
