package dev.sluice.rigs.verdict;

/**
 * What the sizing rule of docs/pipeline.md says about one pipeline.
 *
 * @param budgetBytes the in-flight budget the pipeline ran with
 * @param ruleBytes the smallest budget that does not throttle it ({@code footprint / high})
 * @param slots batches it holds with every slot full: {@code threads + shards × inflight_per_shard}
 */
public record Sizing(long budgetBytes, long ruleBytes, int slots) {
    public Sizing {
        if (budgetBytes <= 0 || ruleBytes <= 0 || slots <= 0) {
            throw new IllegalArgumentException(
                    "sizing needs a positive budget, rule and slot count, got "
                            + budgetBytes
                            + ", "
                            + ruleBytes
                            + ", "
                            + slots);
        }
    }

    public boolean belowRule() {
        return budgetBytes < ruleBytes;
    }
}
