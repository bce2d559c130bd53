package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.testing.Tables;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pipeline thread's account with the in-flight budget (property 3), without a thread. */
class BudgetAccountTest {
    private static final long GRAIN = 4096;

    private final TableSchema table = Tables.table("t", "id UInt64", "payload String");
    private final TargetColumns columns = new TargetColumns(table, table.insertableColumns());
    private final BlockPool pool = new BlockPool(columns);
    private final InflightBudget budget = new InflightBudget(1L << 30, 0.8, 0.5, () -> {});
    private final BudgetAccount account = new BudgetAccount(budget, GRAIN, pool);

    private static void append(BatchBuilder batch, long position, String payload) {
        Block b = batch.block();
        batch.beginRow();
        b.column(0).appendLong(position);
        b.column(1).appendString(payload);
        batch.commitRow(position);
    }

    @Test
    void chargesTheCapacityOfTheBuffersAGrainAtATimeAndTellsTheBatchItsData() {
        BatchBuilder batch = new BatchBuilder("p", pool.take());
        long touched = 0;
        long before = budget.used();
        for (int i = 0; i < 2_000; i++) {
            append(batch, i, "x".repeat(i % 50));
            account.charge(batch);
            long used = budget.used();
            if (used != before) {
                touched++;
                before = used;
            }
            // What the budget counts is the buffers' capacity plus the credit, under two grains.
            assertThat(used - batch.accountedBytes()).isBetween(0L, 2 * GRAIN);
        }
        assertThat(touched).isLessThan(200); // the shared counter is not touched per record
        long data = 0;
        long capacity = batch.buffers().positionBytes();
        for (int c = 0; c < batch.block().columnCount(); c++) {
            data += batch.block().column(c).dataBytes();
            capacity += batch.block().column(c).capacityBytes();
        }
        assertThat(batch.dataBytes()).isEqualTo(data);
        assertThat(batch.accountedBytes()).isEqualTo(capacity).isGreaterThan(data);
    }

    @Test
    void everythingTakenIsGivenBackOnceTheBuffersAreDroppedAndTheAccountCloses() {
        BatchBuilder batch = new BatchBuilder("p", pool.take());
        for (int i = 0; i < 100; i++) {
            append(batch, i, "payload " + i);
            account.charge(batch);
        }
        assertThat(budget.used()).isPositive();
        pool.give(batch.buffers()); // settled: the bytes go to the pool with the buffers
        assertThat(budget.used()).isGreaterThanOrEqualTo(pool.pooledBytes());
        account.dropPooled();
        assertThat(pool.pooledBytes()).isZero();
        account.close();
        assertThat(budget.used()).isZero();
    }

    @Test
    void theCopyOfABatchOfSeveralPartitionsIsHeldUntilItIsSettled() {
        BatchBuilder a = new BatchBuilder("a", pool.take());
        BatchBuilder b = new BatchBuilder("b", pool.take());
        append(a, 0, "first");
        append(b, 0, "second");
        account.charge(a);
        account.charge(b);
        SealedBatch combined =
                new SealedBatch(
                        settled -> {},
                        List.of(
                                new SealedBatch.Segment(a, new LedgerEntry("a", 0, 0, 0), 1),
                                new SealedBatch.Segment(b, new LedgerEntry("b", 0, 0, 0), 1)),
                        0,
                        false,
                        "token",
                        SealReason.ROWS,
                        0);
        assertThat(combined.copyBytes()).isEqualTo(a.dataBytes() + b.dataBytes()).isPositive();
        long before = budget.used();
        account.holdCopy(combined);
        assertThat(budget.used()).isEqualTo(before + combined.copyBytes());
        account.releaseCopy(combined);
        assertThat(budget.used()).isEqualTo(before);

        SealedBatch single =
                new SealedBatch(
                        settled -> {},
                        a,
                        new LedgerEntry("a", 0, 0, 0),
                        false,
                        "token",
                        SealReason.ROWS,
                        0,
                        1);
        account.holdCopy(single); // one partition: sent from its own block, nothing copied
        assertThat(budget.used()).isEqualTo(before);
        account.releaseCopy(single);
        assertThat(budget.used()).isEqualTo(before);
    }
}
