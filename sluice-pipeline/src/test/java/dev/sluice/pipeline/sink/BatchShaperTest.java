package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.NoProbes;
import dev.sluice.pipeline.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a sealed batch becomes INSERTs: columns left out, DEFAULTs, groups, sorting, splitting. */
class BatchShaperTest {
    private static final long NOW = 1_700_000_123L;
    private static final String[] COLUMNS = {
        "id UInt64",
        "n Int32",
        "tag String DEFAULT 'none'",
        "at DateTime DEFAULT now()",
        "twice Int64 DEFAULT n * 2",
        "sign String DEFAULT reverse(toString(n))", // a function only the server computes
        "extra String DEFAULT 'x'",
        "upx String DEFAULT upper(extra)"
    };
    private static final Object ABSENT = new Object();

    private final Metrics metrics = new Metrics("t", 1, new NoProbes());
    private TableSchema table = Tables.table("t", COLUMNS);
    private PresortMode presort = PresortMode.OFF;
    private boolean split;
    private BatchShaper shaper;

    private BatchShaper shaper() {
        if (shaper == null) {
            List<String> names = table.columns().stream().map(TableSchema.Column::name).toList();
            shaper =
                    InsertPlan.of(table, FakeInserter.server(18, 16), names, presort, split)
                            .newShaper(metrics);
        }
        return shaper;
    }

    /** A sealed batch of {@code rows}, one value per column: a Long, a String or ABSENT. */
    private SealedBatch batch(Object[]... rows) {
        TargetColumns columns = new TargetColumns(table, table.insertableColumns());
        BatchBuilder open =
                new BatchBuilder(
                        "p", new PooledBlock(columns.newBlock(), new AbsentRows(columns.size())));
        for (int r = 0; r < rows.length; r++) {
            open.beginRow();
            for (int c = 0; c < rows[r].length; c++) {
                Column col = open.block().column(c);
                Object v = rows[r][c];
                if (v == ABSENT) {
                    col.appendDefault();
                    open.absent(c);
                } else if (v instanceof Long l) {
                    col.appendLong(l);
                } else {
                    col.appendString((String) v);
                }
            }
            open.commitRow(r);
        }
        return new SealedBatch(
                b -> {},
                open,
                new LedgerEntry("p", 0, rows.length - 1, 0),
                false,
                "tok",
                SealReason.ROWS,
                NOW,
                1);
    }

    /** A row with every field given. */
    private static Object[] full(long id, long n) {
        return new Object[] {id, n, "t" + id, NOW - 100, n, "s" + id, "e" + id, "u" + id};
    }

    private static Object[] without(Object[] row, int... absent) {
        Object[] r = row.clone();
        for (int c : absent) {
            r[c] = ABSENT;
        }
        return r;
    }

    private static List<String> names(Block b) {
        List<String> n = new ArrayList<>();
        for (Column c : b.columns()) {
            n.add(c.name());
        }
        return n;
    }

    private static List<Object> column(Block b, String name) {
        List<Object> v = new ArrayList<>();
        for (int r = 0; r < b.rows(); r++) {
            v.add(b.column(name).getObject(r));
        }
        return v;
    }

    @Test
    void aCompleteBatchIsOneInsertOfItsOwnBlock() {
        SealedBatch b = batch(full(1, 5), full(2, 6));
        List<BatchShaper.Insert> inserts = shaper().shape(b);
        assertThat(inserts)
                .singleElement()
                .satisfies(i -> assertThat(i.block()).isSameAs(b.block()));
        assertThat(inserts.get(0).tokenSuffix()).isEmpty();
    }

    @Test
    void columnsNoRowHasAreLeftOutWithoutCopyingTheOthers() {
        SealedBatch b = batch(without(full(1, 5), 6, 7), without(full(2, 6), 6, 7));
        BatchShaper.Insert insert = shaper().shape(b).get(0);
        assertThat(names(insert.block())).containsExactly("id", "n", "tag", "at", "twice", "sign");
        assertThat(insert.block().column(0)).isSameAs(b.block().column(0));
        assertThat(insert.tokenSuffix()).isEmpty();
    }

    @Test
    void rowsLackingAFieldOthersHaveGetItsDefaultComputedAsTheServerDoes() {
        SealedBatch b = batch(without(full(1, 5), 3), without(full(2, 21), 2, 4));
        BatchShaper.Insert insert = shaper().shape(b).get(0);
        Block block = insert.block();
        assertThat(block).isSameAs(b.block());
        assertThat(column(block, "tag")).containsExactly("t1", "none");
        assertThat(column(block, "at")).containsExactly(NOW, NOW - 100); // the batch's now()
        assertThat(column(block, "twice")).containsExactly(5L, 42L); // n * 2 of its own row
    }

    @Test
    void aDefaultReadingALeftOutColumnUsesThatColumnsDefault() {
        // 18.x computes upper(extra) from extra's DEFAULT when it fills upx (docs/defaults.md).
        SealedBatch b = batch(without(full(1, 5), 6, 7), without(full(2, 6), 6));
        BatchShaper.Insert insert = shaper().shape(b).get(0);
        assertThat(names(insert.block())).doesNotContain("extra");
        assertThat(column(insert.block(), "upx")).containsExactly("X", "u2");
    }

    @Test
    void rowsLackingAFieldOnlyTheServerComputesGoInAnInsertWithoutTheColumn() {
        SealedBatch b = batch(full(1, 5), without(full(2, -3), 2, 5), full(3, 7));
        List<BatchShaper.Insert> inserts = shaper().shape(b);

        assertThat(inserts)
                .extracting(BatchShaper.Insert::tokenSuffix)
                .containsExactly("/g0", "/g1");
        Block first = inserts.get(0).block();
        assertThat(column(first, "id")).containsExactly(1L, 3L);
        assertThat(names(first)).contains("sign");
        Block second = inserts.get(1).block();
        assertThat(names(second)).doesNotContain("sign").contains("tag");
        assertThat(column(second, "id")).containsExactly(2L);
        assertThat(column(second, "tag")).containsExactly("none"); // still computed here
    }

    @Test
    void presortPutsTheRowsInKeyOrderAndSendsASortedBatchAsIs() {
        table = Tables.keyed("t", "n, id", "", COLUMNS);
        presort = PresortMode.ON;
        SealedBatch unsorted = batch(full(1, 3), full(2, 1), full(3, 3), full(4, 2));
        Block sorted = shaper().shape(unsorted).get(0).block();
        assertThat(column(sorted, "id")).containsExactly(2L, 4L, 1L, 3L);
        assertThat(metrics.presorted(Presorter.Outcome.SORTED).getLongValue()).isEqualTo(1);

        SealedBatch inOrder = batch(full(1, 1), full(2, 2));
        assertThat(shaper().shape(inOrder).get(0).block()).isSameAs(inOrder.block());
        assertThat(metrics.presorted(Presorter.Outcome.ALREADY_SORTED).getLongValue()).isEqualTo(1);
    }

    @Test
    void autoSortsABatchWithOthersWaitingAndSendsOneWithoutAsItCame() {
        table = Tables.keyed("t", "n, id", "", COLUMNS);
        presort = PresortMode.AUTO;
        BatchShaper s = shaper();

        SealedBatch waiting = batch(full(1, 3), full(2, 1), full(3, 3), full(4, 2));
        Block sorted = s.shape(waiting, s.plan().presortFor(true)).get(0).block();
        assertThat(column(sorted, "id")).containsExactly(2L, 4L, 1L, 3L);
        assertThat(metrics.presorted(Presorter.Outcome.SORTED).getLongValue()).isEqualTo(1);
        assertThat(metrics.presortSkipped().getLongValue()).isZero();

        SealedBatch alone = batch(full(1, 3), full(2, 1), full(3, 3), full(4, 2));
        List<BatchShaper.Insert> inserts = s.shape(alone, s.plan().presortFor(false));
        assertThat(inserts.get(0).block()).isSameAs(alone.block());
        assertThat(column(inserts.get(0).block(), "id")).containsExactly(1L, 2L, 3L, 4L);
        assertThat(metrics.presortSkipped().getLongValue()).isEqualTo(1);
        assertThat(metrics.presorted(Presorter.Outcome.SORTED).getLongValue()).isEqualTo(1);

        // Sent in halves after all (the server refused it): cut from the sorted order, as a run
        // that sorted it cuts them, each row still knowing its row in the batch.
        BatchShaper.Insert halving = s.sortedForHalving(inserts.get(0), NOW);
        assertThat(column(halving.block(), "id")).containsExactly(2L, 4L, 1L, 3L);
        for (int r = 0; r < 4; r++) {
            assertThat(alone.block().column("id").getObject(halving.origin().applyAsInt(r)))
                    .isEqualTo(halving.block().column("id").getObject(r));
        }
        assertThat(halving.tokenSuffix()).isEqualTo(inserts.get(0).tokenSuffix());
    }

    @Test
    void aKeyReadingADefaultTheInsertLeavesOutIsComputedFromTheDefault() {
        table = Tables.keyed("t", "twice", "", COLUMNS);
        presort = PresortMode.ON;
        // twice is left out (no row has it): the server computes n * 2, and so does the sort.
        SealedBatch b =
                batch(without(full(1, 3), 4), without(full(2, 1), 4), without(full(3, 2), 4));
        Block sorted = shaper().shape(b).get(0).block();
        assertThat(names(sorted)).doesNotContain("twice");
        assertThat(column(sorted, "id")).containsExactly(2L, 3L, 1L);
    }

    @Test
    void splitMakesOneInsertPerPartitionEachWithItsOwnTokenSuffix() {
        table = Tables.keyed("t", "n", "n % 2", COLUMNS);
        presort = PresortMode.ON;
        split = true;
        SealedBatch b = batch(full(1, 3), full(2, 2), full(3, 1), without(full(4, -4), 5));
        List<BatchShaper.Insert> inserts = shaper().shape(b);

        // Groups by DEFAULT first (row 4 lacks sign), then each is sorted and split.
        assertThat(inserts)
                .extracting(BatchShaper.Insert::tokenSuffix)
                .containsExactly("/g0/p0", "/g0/p1", "/g1");
        assertThat(column(inserts.get(0).block(), "n")).containsExactly(1L, 3L);
        assertThat(column(inserts.get(1).block(), "n")).containsExactly(2L);
        assertThat(column(inserts.get(2).block(), "n")).containsExactly(-4L);
        assertThat(names(inserts.get(2).block())).doesNotContain("sign");
    }

    @Test
    void theSameBatchAlwaysMakesTheSameInserts() {
        table = Tables.keyed("t", "n", "n % 3", COLUMNS);
        presort = PresortMode.ON;
        split = true;
        Object[][] rows = new Object[60][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = i % 7 == 0 ? without(full(i, (i * 37) % 11), 5) : full(i, (i * 37) % 11);
        }
        List<String> first = describe(shaper().shape(batch(rows)));
        shaper = null; // another writer thread, or a run after a restart
        assertThat(describe(shaper().shape(batch(rows)))).isEqualTo(first).hasSize(6);
    }

    @Test
    void everyRowOfEveryInsertKnowsItsRowInTheBatchThroughGroupsSortAndSplit() {
        // What a row the server rejects is dead-lettered with: its record's position.
        table = Tables.keyed("t", "n, id", "n % 3", COLUMNS);
        presort = PresortMode.ON;
        split = true;
        Object[][] rows = new Object[40][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = i % 5 == 0 ? without(full(i, (i * 13) % 7), 5) : full(i, (i * 13) % 7);
        }
        SealedBatch b = batch(rows);
        List<BatchShaper.Insert> inserts = shaper().shape(b);
        assertThat(inserts).hasSizeGreaterThan(3); // groups, each sorted and split
        List<Long> seen = new ArrayList<>();
        for (BatchShaper.Insert insert : inserts) {
            for (int r = 0; r < insert.block().rows(); r++) {
                int row = insert.origin().applyAsInt(r);
                long id = (Long) insert.block().column("id").getObject(r);
                assertThat(b.block().column("id").getObject(row)).isEqualTo(id);
                assertThat(b.source(row))
                        .isEqualTo(new SealedBatch.RowSource("p", id)); // row i at i
                seen.add(id);
            }
        }
        assertThat(seen)
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.range(0, 40).boxed().toList());
    }

    private static List<String> describe(List<BatchShaper.Insert> inserts) {
        List<String> out = new ArrayList<>();
        for (BatchShaper.Insert i : inserts) {
            out.add(i.tokenSuffix() + " " + column(i.block(), "id"));
        }
        return out;
    }
}
