package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.FixedWidthColumn;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockPoolTest {
    private final TableSchema table = Tables.table("t", "id UInt64", "payload String");
    private final TargetColumns columns = new TargetColumns(table, table.insertableColumns());

    /** Fills a block with {@code rows} rows of 200-byte payloads. */
    private static void fill(Block b, int rows) {
        for (int r = 0; r < rows; r++) {
            b.column(0).appendLong(r);
            b.column(1).appendString("x".repeat(200));
        }
    }

    private static int stringCapacity(Block b) {
        return ((StringColumn) b.column(1)).rawBytes().length;
    }

    private static int fixedCapacity(Block b) {
        return ((FixedWidthColumn) b.column(0)).rawData().length;
    }

    @Test
    void freshBlocksAreMadeAtTheSizeTheFirstGrewTo() {
        BlockPool pool = new BlockPool(columns, 2);
        Block first = pool.take().block();
        fill(first, 10_000); // still in flight: the pool has nothing free
        Block second = pool.take().block();
        assertThat(second.rows()).isZero();
        assertThat(stringCapacity(second)).isGreaterThanOrEqualTo(stringCapacity(first));
        assertThat(fixedCapacity(second)).isGreaterThanOrEqualTo(fixedCapacity(first));
        fill(second, 3); // an ordinary empty block
        assertThat(second.column(1).getString(2)).hasSize(200);

        Block third = pool.take().block();
        assertThat(stringCapacity(third)).isGreaterThanOrEqualTo(stringCapacity(first));
        Block fourth = pool.take().block(); // beyond the cap: grows as it fills
        assertThat(stringCapacity(fourth)).isLessThan(stringCapacity(first));
    }

    @Test
    void reusedBuffersKeepTheirOwnCapacityAndTheOneArgumentPoolPresizesNothing() {
        BlockPool pool = new BlockPool(columns);
        PooledBlock first = pool.take();
        fill(first.block(), 10_000);
        int grown = stringCapacity(first.block());
        assertThat(stringCapacity(pool.take().block())).isLessThan(grown);
        pool.give(first);
        PooledBlock again = pool.take();
        assertThat(again).isSameAs(first);
        assertThat(again.block().rows()).isZero();
        assertThat(stringCapacity(again.block())).isEqualTo(grown);
    }

    @Test
    void buffersOfEachLayoutArePooledApartAndARetiredLayoutsBytesAreReleased() {
        TableSchema altered = Tables.table("t", "id UInt64", "payload String", "added UInt8");
        TargetColumns after = new TargetColumns(altered, altered.insertableColumns());
        List<Long> released = new ArrayList<>();
        BlockPool pool = new BlockPool(columns, 0, released::add);
        PooledBlock old1 = pool.take(columns, null);
        PooledBlock old2 = pool.take(columns, null);
        old1.accounted(100);
        old2.accounted(200);
        pool.give(old1); // pooled: its bytes stay with it
        assertThat(pool.pooledBytes()).isEqualTo(100);
        PooledBlock fresh = pool.take(after, null);
        assertThat(fresh.block().columnCount()).isEqualTo(3);
        assertThat(fresh).isNotSameAs(old1);

        pool.retire(columns); // the table changed: the old layout's pooled buffers go
        assertThat(released).containsExactly(100L);
        assertThat(pool.pooledBytes()).isZero();
        pool.give(old2); // in flight when it changed: dropped when it comes back
        assertThat(released).containsExactly(100L, 200L);
        assertThat(pool.pooledBytes()).isZero();

        fresh.accounted(50);
        pool.give(fresh);
        assertThat(pool.take(after, null)).isSameAs(fresh);
        assertThat(released).containsExactly(100L, 200L);
    }
}
