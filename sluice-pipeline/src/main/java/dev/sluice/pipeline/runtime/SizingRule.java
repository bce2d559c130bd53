package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.spec.PipelineSpec;

/**
 * The sizing rule of docs/pipeline.md: with every slot full the pipeline holds one open batch per
 * pipeline thread and {@code inflight_per_shard} sealed batches per shard, each in buffers that
 * grow by doubling — a batch sealed at {@code batch.max_bytes} of data may hold up to twice that,
 * and the budget counts what buffers hold (property 3) — so
 *
 * <pre>footprint = (threads + shards × inflight_per_shard) × 2 × batch.max_bytes</pre>
 *
 * and a budget below {@code footprint / high} pauses the sources before the sink is saturated: the
 * pipeline throttles itself. The default budget is that minimum, rounded up to a MiB.
 */
public final class SizingRule {
    private static final long MIB = 1 << 20;

    /** Buffers grow by doubling: a slot may hold up to this many times its data. */
    static final int CAPACITY_FACTOR = 2;

    private SizingRule() {}

    public static long footprint(PipelineSpec spec) {
        long slots =
                spec.threads()
                        + (long) spec.sink().shards().size() * spec.sink().inflightPerShard();
        return Math.multiplyExact(
                Math.multiplyExact(slots, spec.sink().batch().maxBytes()), CAPACITY_FACTOR);
    }

    /** The smallest budget that does not throttle the pipeline: {@code footprint / high}. */
    public static long minimumBudget(PipelineSpec spec) {
        long bytes = (long) Math.ceil(footprint(spec) / spec.backpressure().high());
        return Math.ceilDiv(bytes, MIB) * MIB;
    }

    /** The configured budget, or the minimum when none is configured (0). */
    public static long budget(PipelineSpec spec) {
        long configured = spec.backpressure().maxInflightBytes();
        return configured > 0 ? configured : minimumBudget(spec);
    }

    /** A start-up warning when the configured budget is below the rule, else null. */
    public static String check(PipelineSpec spec) {
        long configured = spec.backpressure().maxInflightBytes();
        long minimum = minimumBudget(spec);
        if (configured <= 0 || configured >= minimum) {
            return null;
        }
        return "backpressure.max_inflight_bytes "
                + configured
                + " is below the sizing rule's "
                + minimum
                + " = (threads "
                + spec.threads()
                + " + shards "
                + spec.sink().shards().size()
                + " × inflight_per_shard "
                + spec.sink().inflightPerShard()
                + ") × 2 × batch.max_bytes "
                + spec.sink().batch().maxBytes()
                + " / high "
                + spec.backpressure().high()
                + ": the sources will be paused before the sink is saturated, so the pipeline"
                + " throttles itself (see docs/pipeline.md)";
    }
}
