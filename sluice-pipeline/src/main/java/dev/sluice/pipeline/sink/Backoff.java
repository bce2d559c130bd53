package dev.sluice.pipeline.sink;

import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter, from {@link RetrySpec}: the pause before retry round {@code n}
 * (1-based) is {@code min(max, initial × multiplier^(n-1))}, then scaled by a uniform factor in
 * {@code [1 - jitter, 1 + jitter]} so that writers that failed together do not retry together.
 *
 * <p>The random source is injected, so tests pin the sequence.
 */
public final class Backoff {
    private final long initialNanos;
    private final long maxNanos;
    private final double multiplier;
    private final double jitter;
    private final int maxAttempts;
    private final long giveUpNanos;
    private final RandomGenerator random;

    public Backoff(RetrySpec spec, RandomGenerator random) {
        if (spec.initial().isNegative() || spec.max().compareTo(spec.initial()) < 0) {
            throw new IllegalArgumentException("retry: need 0 ≤ initial ≤ max");
        }
        if (spec.multiplier() < 1.0) {
            throw new IllegalArgumentException("retry.multiplier must be ≥ 1");
        }
        if (spec.jitter() < 0 || spec.jitter() > 1) {
            throw new IllegalArgumentException("retry.jitter must be within [0, 1]");
        }
        if (spec.maxAttempts() < 0) {
            throw new IllegalArgumentException("retry.max_attempts must be ≥ 0 (0 = unlimited)");
        }
        if (spec.giveUpAfter().isNegative()) {
            throw new IllegalArgumentException("retry.give_up_after must be ≥ 0 (0 = never)");
        }
        this.initialNanos = spec.initial().toNanos();
        this.maxNanos = spec.max().toNanos();
        this.multiplier = spec.multiplier();
        this.jitter = spec.jitter();
        this.maxAttempts = spec.maxAttempts();
        this.giveUpNanos = spec.giveUpAfter().toNanos();
        this.random = random;
    }

    /** The pause before retry round {@code round} (1-based), in nanoseconds. */
    public long delayNanos(int round) {
        double base = initialNanos * Math.pow(multiplier, Math.max(0, round - 1));
        double capped = Math.min(base, maxNanos);
        double factor = 1.0 + jitter * (2.0 * random.nextDouble() - 1.0);
        return (long) (capped * factor);
    }

    /**
     * True when a batch that has failed since {@code sinceNanos} without progress must be given up
     * at {@code nowNanos} ({@code retry.give_up_after}; never when it is 0).
     */
    public boolean givesUp(long sinceNanos, long nowNanos) {
        return giveUpNanos > 0 && nowNanos - sinceNanos >= giveUpNanos;
    }

    /**
     * {@code delayNanos}, cut so that the pause ends when the batch would be given up: the last
     * attempt is made then, not a whole backoff later.
     */
    public long delayWithin(long delayNanos, long sinceNanos, long nowNanos) {
        if (giveUpNanos <= 0) {
            return delayNanos;
        }
        return Math.max(0, Math.min(delayNanos, sinceNanos + giveUpNanos - nowNanos));
    }

    /** {@code retry.give_up_after} in nanoseconds; 0 = never. */
    public long giveUpNanos() {
        return giveUpNanos;
    }

    /** True when {@code attempts} failed attempts are all a batch may have. */
    public boolean exhausted(int attempts) {
        return maxAttempts > 0 && attempts >= maxAttempts;
    }
}
