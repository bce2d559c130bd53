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
        this.initialNanos = spec.initial().toNanos();
        this.maxNanos = spec.max().toNanos();
        this.multiplier = spec.multiplier();
        this.jitter = spec.jitter();
        this.maxAttempts = spec.maxAttempts();
        this.random = random;
    }

    /** The pause before retry round {@code round} (1-based), in nanoseconds. */
    public long delayNanos(int round) {
        double base = initialNanos * Math.pow(multiplier, Math.max(0, round - 1));
        double capped = Math.min(base, maxNanos);
        double factor = 1.0 + jitter * (2.0 * random.nextDouble() - 1.0);
        return (long) (capped * factor);
    }

    /** True when {@code attempts} failed attempts are all a batch may have. */
    public boolean exhausted(int attempts) {
        return maxAttempts > 0 && attempts >= maxAttempts;
    }
}
