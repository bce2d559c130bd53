package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.transform.Transforms;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expression transforms in the runtime (ADR 0010): rows are staged, the transforms run over them
 * column-wise, the kept rows are committed in order; filtered rows count and are committed past,
 * refused ones go through the error policy with their record (property 4), and no position moves
 * past a row the transforms have not run on (property 1). The batch's {@code now()} is read at its
 * first row and a replay computes with the recorded one (property 2).
 */
class ExpressionTransformsRuntimeTest {
    @TempDir Path dir;

    private static TransformSpec t(String kind, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TransformSpec(kind, m);
    }

    private static ThreadHarness harness(String table, TransformSpec... specs) {
        ThreadHarness h = new ThreadHarness();
        h.table = Tables.table("t", table.split(", "));
        h.transforms =
                Transforms.create(
                        List.of(specs),
                        new TargetColumns(h.table, h.table.insertableColumns()),
                        h.clock);
        return h;
    }

    private static List<Long> column(List<SealedBatch> batches, String name) {
        List<Long> out = new ArrayList<>();
        for (SealedBatch b : batches) {
            Block block = b.block();
            for (int r = 0; r < block.rows(); r++) {
                out.add(block.column(name).getLong(r));
            }
        }
        return out;
    }

    @Test
    void filteredRowsCountAreNeverSentAndTheBatchesFillWithKeptRows() {
        ThreadHarness h = harness("n UInt64, s String", t("filter", "where", "n % 3 = 0"));
        h.maxRows = 10;
        h.source.partition("p", 100, k -> k + ",r" + k);
        h.start();
        h.turns(5); // read to the end; batches are read before acknowledgements recycle them

        assertThat(h.batches()).extracting(SealedBatch::rows).containsExactly(10, 10, 10, 4);
        assertThat(column(h.batches(), "n")).allMatch(n -> n % 3 == 0).hasSize(34);
        assertThat(h.metrics.filtered.getLongValue()).isEqualTo(66);
        h.runToEnd(50);
        assertThat(h.source.commits()).containsEntry("p", 1000L);
        // A batch's range runs from its first to its last kept row.
        assertThat(h.batches().get(1).firstPosition()).isEqualTo(300);
        assertThat(h.batches().get(1).lastPosition()).isEqualTo(570);
    }

    @Test
    void computedColumnsTakeTheBatchsNowReadAtItsFirstRow() {
        ThreadHarness h =
                harness(
                        "n UInt64, s String, at DateTime, m UInt64",
                        t("computed", "columns", Map.of("at", "now()", "m", "n * 10")));
        h.lingerNanos = 10_000_000_000L;
        h.source.live("p", k -> k + ",r" + k);
        h.start();
        h.source.offer("p", 3);
        h.thread.runOnce();
        h.clock.advanceMillis(5_000);
        h.source.offer("p", 2);
        h.thread.runOnce();
        h.clock.advanceMillis(5_000);
        h.thread.runOnce(); // linger seals it

        assertThat(h.batches()).hasSize(1);
        SealedBatch b = h.batches().get(0);
        assertThat(b.rows()).isEqualTo(5);
        assertThat(column(h.batches(), "at")).containsOnly(1_700_000_000L);
        assertThat(b.nowSeconds()).isEqualTo(1_700_000_000L);
        assertThat(column(h.batches(), "m")).containsExactly(0L, 10L, 20L, 30L, 40L);
    }

    @Test
    void aRefusedValueIsDeadLetteredWithItsRecordAndTheOtherRowsWritten() {
        ThreadHarness h =
                harness(
                        "n UInt64, s String, m UInt64",
                        t("computed", "column", "m", "expr", "toUInt64(s)"));
        h.policy = ErrorPolicy.DEAD_LETTER;
        h.source.partition("p", List.of("1,1", "2,x", "3,3", "4,-4"));
        h.start();
        h.turns(5);

        assertThat(column(h.batches(), "m")).containsExactly(1L, 3L);
        h.runToEnd(10);
        assertThat(h.deadLetters.letters())
                .containsExactly(
                        "p@10 2,x : column m (UInt64): 'x' is not a plain UInt64 literal",
                        "p@30 4,-4 : column m (UInt64): '-4' is not a plain UInt64 literal");
        assertThat(h.events).containsSubsequence("dead-letter p 10", "flush", "commit p 40");
    }

    @Test
    void underFailARefusedRowStopsTheRunAndNoPositionPassesIt() {
        // Rows 0..4 are filtered, so no kept row holds the commit back: the position must stop
        // at the refused record itself, which the next run reads again.
        ThreadHarness h =
                harness(
                        "n UInt64, s String, m UInt64",
                        t("filter", "where", "n > 4"),
                        t("computed", "column", "m", "expr", "toUInt64(s)"));
        List<String> records = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            records.add(k + "," + (k == 7 ? "x" : Integer.toString(k)));
        }
        h.source.partition("p", records);
        h.start();
        h.runToEnd(10);

        assertThat(h.batches()).isEmpty(); // the open batch of rows 5 and 6 is abandoned
        assertThat(h.lifecycle.failure().reason())
                .isEqualTo("column m (UInt64): 'x' is not a plain UInt64 literal");
        assertThat(h.lifecycle.failure().location()).isEqualTo("p:8 (position 70)");
        assertThat(h.source.commits().getOrDefault("p", -1L)).isLessThanOrEqualTo(50L);
    }

    @Test
    void underFailWithOnlyFilteredRowsBeforeItThePositionStopsAtTheRefusedRecord() {
        ThreadHarness h =
                harness(
                        "n UInt64, s String, m UInt64",
                        t("filter", "where", "n > 4"),
                        t("computed", "column", "m", "expr", "toUInt64(s)"));
        List<String> records = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            records.add(k + "," + (k == 5 ? "x" : Integer.toString(k)));
        }
        h.source.partition("p", records);
        h.start();
        h.runToEnd(10);

        assertThat(h.batches()).isEmpty();
        assertThat(h.source.commits()).containsEntry("p", 50L);
    }

    @Test
    void aBatchWhoseRowsAreAllFilteredSendsNothingAndCommitsPastThem() {
        ThreadHarness h = harness("n UInt64, s String", t("filter", "where", "n > 100000"));
        h.source.partition("p", 3000, k -> k + ",r" + k); // several staged ranges
        h.start();
        h.runToEnd(20);

        assertThat(h.batches()).isEmpty();
        assertThat(h.metrics.filtered.getLongValue()).isEqualTo(3000);
        assertThat(h.source.commits()).containsEntry("p", 30_000L);
    }

    @Test
    void aReplayComputesWithTheRecordedNowAndFiltersTheSameRows() throws Exception {
        // Even n while now() is before 1700000100; every n after it.
        TransformSpec filter =
                t("filter", "where", "(now() < 1700000100 AND n % 2 = 0) OR now() >= 1700000100");
        TransformSpec computed = t("computed", "column", "at", "expr", "now() + n");
        LocalCheckpoints first = LocalCheckpoints.open(dir, "test");
        ThreadHarness before = harness("n UInt64, s String, at DateTime", filter, computed);
        before.checkpoints = first;
        before.maxRows = 5;
        before.clock.advanceMillis(1_000); // now() is 1700000001: the filter keeps even n
        before.source.partition("p", 29, k -> k + ",r" + k); // the last record is kept
        before.start();
        before.turns(2); // sealed, sent, never acknowledged: a crash follows
        List<SealedBatch> sent = List.copyOf(before.batches());
        assertThat(sent).hasSize(3);
        first.close();

        LocalCheckpoints second = LocalCheckpoints.open(dir, "test");
        ThreadHarness after = harness("n UInt64, s String, at DateTime", filter, computed);
        after.checkpoints = second;
        after.maxRows = 7; // other settings: the recorded boundaries win
        // An hour later the clock's now() would keep every row, odd ones between the recorded
        // batches included; the replay computes with the recorded now() of the next batch.
        after.clock.advanceMillis(3_600_000);
        after.source.partition("p", 29, k -> k + ",r" + k);
        after.start();
        after.turns(5);

        assertThat(after.batches())
                .extracting(SealedBatch::token)
                .containsExactlyElementsOf(sent.stream().map(SealedBatch::token).toList());
        assertThat(column(after.batches(), "n")).isEqualTo(column(sent, "n"));
        assertThat(column(after.batches(), "at")).isEqualTo(column(sent, "at"));
        assertThat(column(sent, "at").get(1)).isEqualTo(1_700_000_001L + 2);
        second.close();
    }
}
