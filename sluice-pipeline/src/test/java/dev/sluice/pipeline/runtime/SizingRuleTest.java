package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.spec.PipelineSpec;
import org.junit.jupiter.api.Test;

class SizingRuleTest {

    @Test
    void theDefaultBudgetIsTheFootprintOverHighRoundedUpToAMib() {
        // (4 threads + 2 shards × 2 in flight) × 2 × 16 MiB = 256 MiB; / 0.8 = 320 MiB.
        PipelineSpec spec = Specs.spec(4, 2, 2, 16 << 20, 0, 0.8, 0.5);
        assertThat(SizingRule.footprint(spec)).isEqualTo(256L << 20);
        assertThat(SizingRule.minimumBudget(spec)).isEqualTo(320L << 20);
        assertThat(SizingRule.budget(spec)).isEqualTo(320L << 20);
        assertThat(SizingRule.check(spec)).isNull();
    }

    @Test
    void aBudgetBelowTheRuleIsReportedWithTheArithmetic() {
        PipelineSpec spec = Specs.spec(4, 2, 2, 16 << 20, 64L << 20, 0.8, 0.5);
        assertThat(SizingRule.budget(spec)).isEqualTo(64L << 20);
        assertThat(SizingRule.check(spec))
                .contains("below the sizing rule's " + (320L << 20))
                .contains("threads 4")
                .contains("shards 2 × inflight_per_shard 2");
    }

    @Test
    void aBudgetAboveTheRuleIsFine() {
        assertThat(SizingRule.check(Specs.spec(1, 1, 1, 1 << 20, 1L << 30, 0.8, 0.5))).isNull();
    }
}
