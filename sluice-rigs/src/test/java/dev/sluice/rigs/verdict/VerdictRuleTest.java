package dev.sluice.rigs.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The limiter verdict on synthetic counter traces, one per rule and its edges. */
class VerdictRuleTest {
    private static final long MIB = 1 << 20;

    /** 3 slots (1 thread + 1 shard × 2 in flight); the budget at the sizing rule. */
    private static final Sizing AT_RULE = new Sizing(240 * MIB, 240 * MIB, 3);

    /**
     * A 15 s window sampled every 200 ms: rows grow steadily; pauses, paused and pending as given.
     */
    private static List<CounterSample> trace(
            int samples, long pausesAtEnd, boolean pausedSomewhere, int pendingHighSamples) {
        List<CounterSample> t = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            long pauses = i == samples - 1 ? 10 + pausesAtEnd : 10; // 10 pauses before the window
            boolean paused = pausedSomewhere && i == samples / 2;
            long pending = i < pendingHighSamples ? 3 : 1;
            t.add(
                    new CounterSample(
                            1_000_000_000L + i * 200_000_000L,
                            5_000_000L + i * 100_000L,
                            pauses,
                            paused,
                            pending,
                            10 * MIB));
        }
        return t;
    }

    @Test
    void aPauseInTheWindowMeansTheSinkWasTheLimit() {
        VerdictRule.Judgement j = VerdictRule.judge(trace(76, 2, false, 0), AT_RULE);
        assertThat(j.verdict()).isEqualTo(Verdict.SINK);
        assertThat(j.detail()).contains("2 pause(s) in the window");
    }

    @Test
    void aPausedGaugeCaughtAtOneCountsEvenWithoutANewPauseEvent() {
        // paused before the window began and still paused in one sample: the counter did not move
        VerdictRule.Judgement j = VerdictRule.judge(trace(76, 0, true, 0), AT_RULE);
        assertThat(j.verdict()).isEqualTo(Verdict.SINK);
        assertThat(j.detail()).contains("paused in 1 of 76 samples");
    }

    @Test
    void pausesBeforeTheWindowDoNotCount() {
        // the counter stands at 10 from the first sample to the last: no pause inside the window
        assertThat(VerdictRule.judge(trace(76, 0, false, 0), AT_RULE).verdict())
                .isEqualTo(Verdict.GENERATOR);
    }

    @Test
    void noPauseAndAFullCheckpointBacklogIsIndeterminate() {
        // pending ≥ slots in 19 of 76 samples = 25%: the threshold itself
        VerdictRule.Judgement j = VerdictRule.judge(trace(76, 0, false, 19), AT_RULE);
        assertThat(j.verdict()).isEqualTo(Verdict.INDETERMINATE_CHECKPOINT);
        assertThat(j.detail()).contains("≥ 3 batches in 19 of 76 samples");
    }

    @Test
    void aShortBacklogBelowTheThresholdIsStillTheGenerator() {
        // 18 of 76 samples < 25%
        assertThat(VerdictRule.judge(trace(76, 0, false, 18), AT_RULE).verdict())
                .isEqualTo(Verdict.GENERATOR);
    }

    @Test
    void aBudgetBelowTheSizingRuleOverridesEverything() {
        Sizing below = new Sizing(200 * MIB, 240 * MIB, 3);
        VerdictRule.Judgement j = VerdictRule.judge(trace(76, 5, true, 76), below);
        assertThat(j.verdict()).isEqualTo(Verdict.BUDGET);
        assertThat(j.detail()).contains("209,715,200 B below the sizing rule's 251,658,240 B");
        // a budget above the rule is fine
        assertThat(
                        VerdictRule.judge(
                                        trace(76, 5, false, 0), new Sizing(300 * MIB, 240 * MIB, 3))
                                .verdict())
                .isEqualTo(Verdict.SINK);
    }

    @Test
    void theRateIsAcknowledgedRowsOverTheWindow() {
        // 75 intervals of 200 ms = 15 s, 100,000 rows each: 7.5M rows → 500,000 rows/s
        assertThat(VerdictRule.rowsPerSecond(trace(76, 0, false, 0))).isEqualTo(500_000.0);
    }

    @Test
    void tracesThatAreNotOneWindowAreRefused() {
        assertThatThrownBy(() -> VerdictRule.judge(trace(1, 0, false, 0), AT_RULE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least two samples, got 1");
        List<CounterSample> restarted = new ArrayList<>(trace(10, 0, false, 0));
        CounterSample last = restarted.get(9);
        restarted.set(9, new CounterSample(last.nanos(), 0, last.pauseEvents(), false, 1, 0));
        assertThatThrownBy(() -> VerdictRule.judge(restarted, AT_RULE))
                .hasMessageContaining("sample 9: a counter went down");
        List<CounterSample> backwards = new ArrayList<>(trace(10, 0, false, 0));
        backwards.set(5, backwards.get(3));
        assertThatThrownBy(() -> VerdictRule.judge(backwards, AT_RULE))
                .hasMessageContaining("sample 5 is not later than sample 4");
    }

    @Test
    void verdictLabelsAreTheRecordsNames() {
        assertThat(List.of(Verdict.values()).stream().map(Verdict::label))
                .containsExactly("sink", "generator", "indeterminate-checkpoint", "budget");
        assertThat(Verdict.of("indeterminate-checkpoint"))
                .isEqualTo(Verdict.INDETERMINATE_CHECKPOINT);
        assertThatThrownBy(() -> Verdict.of("checkpoint"))
                .hasMessageContaining("unknown verdict 'checkpoint'");
    }

    @Test
    void sizingNeedsPositiveNumbers() {
        assertThatThrownBy(() -> new Sizing(0, 1, 1)).hasMessageContaining("positive budget");
    }
}
