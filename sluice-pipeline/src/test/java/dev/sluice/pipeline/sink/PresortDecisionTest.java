package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.Tables;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether a batch is pre-sorted: the mode, the table's key, and the writer's backlog. */
class PresortDecisionTest {
    private static final String[] COLUMNS = {"id UInt64", "n Int32", "s String"};

    private static InsertPlan plan(String orderBy, String partitionBy, PresortMode mode) {
        TableSchema t = Tables.keyed("t", orderBy, partitionBy, COLUMNS);
        List<String> names = t.columns().stream().map(TableSchema.Column::name).toList();
        return InsertPlan.of(t, FakeInserter.server(18, 16), names, mode, !partitionBy.isEmpty());
    }

    @Test
    void offNeverSortsOnAlwaysDoesAndAutoOnlyWithABatchWaiting() {
        for (boolean backlog : new boolean[] {false, true}) {
            assertThat(PresortDecision.of(PresortMode.OFF, backlog)).isEqualTo(PresortDecision.OFF);
            assertThat(PresortDecision.of(PresortMode.ON, backlog)).isEqualTo(PresortDecision.SORT);
        }
        assertThat(PresortDecision.of(PresortMode.AUTO, true)).isEqualTo(PresortDecision.SORT);
        assertThat(PresortDecision.of(PresortMode.AUTO, false))
                .isEqualTo(PresortDecision.SKIP_NO_BACKLOG);
    }

    @Test
    void thePlanDecidesFromTheBacklogUnderAuto() {
        InsertPlan auto = plan("n, id", "", PresortMode.AUTO);
        assertThat(auto.presort()).isEqualTo(PresortMode.AUTO);
        assertThat(auto.presortFor(true)).isEqualTo(PresortDecision.SORT);
        assertThat(auto.presortFor(false)).isEqualTo(PresortDecision.SKIP_NO_BACKLOG);
        assertThat(auto.notes()).anyMatch(n -> n.contains("when their shard's writer has more"));
        assertThat(auto.warnings()).isEmpty();

        InsertPlan on = plan("n, id", "", PresortMode.ON);
        assertThat(on.presortFor(false)).isEqualTo(PresortDecision.SORT);
        InsertPlan off = plan("n, id", "", PresortMode.OFF);
        assertThat(off.presortFor(true)).isEqualTo(PresortDecision.OFF);
        assertThat(off.notes()).noneMatch(n -> n.contains("pre-sorted"));
    }

    @Test
    void aKeyPresortCannotComputeIsOffWhateverTheBacklogAndSaidOnce() {
        for (PresortMode mode : new PresortMode[] {PresortMode.ON, PresortMode.AUTO}) {
            InsertPlan p = plan("rand()", "", mode);
            assertThat(p.presort()).as(mode.label()).isEqualTo(PresortMode.OFF);
            assertThat(p.presortFor(true)).isEqualTo(PresortDecision.OFF);
            assertThat(p.presortFor(false)).isEqualTo(PresortDecision.OFF);
            assertThat(p.warnings())
                    .singleElement()
                    .asString()
                    .startsWith("presort is " + mode.label() + ", but batches go unsorted");
        }
    }

    @Test
    void autoWithThePartitionSplitSortsEveryBatchSoAReplayNumbersPartitionsAlike() {
        InsertPlan p = plan("n, id", "id % 3", PresortMode.AUTO);
        assertThat(p.partitionSplit()).isTrue();
        assertThat(p.presort()).isEqualTo(PresortMode.ON);
        assertThat(p.presortFor(false)).isEqualTo(PresortDecision.SORT);
        assertThat(p.notes()).anyMatch(n -> n.contains("auto sorts every batch it splits"));
    }

    @Test
    void theModesParseWithTheOldBooleansAndABadValueIsNamed() {
        assertThat(PresortMode.parse(" Auto ")).isEqualTo(PresortMode.AUTO);
        assertThat(PresortMode.parse("on")).isEqualTo(PresortMode.ON);
        assertThat(PresortMode.parse("true")).isEqualTo(PresortMode.ON);
        assertThat(PresortMode.parse("off")).isEqualTo(PresortMode.OFF);
        assertThat(PresortMode.parse("false")).isEqualTo(PresortMode.OFF);
        assertThat(PresortMode.of(true)).isEqualTo(PresortMode.ON);
        assertThatThrownBy(() -> PresortMode.parse("yes"))
                .hasMessage("expected off, on or auto (or true, false), got 'yes'");
    }
}
