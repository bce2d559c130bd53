package dev.sluice.pipeline.testing;

import dev.sluice.pipeline.metrics.Probes;

/** Gauges with nothing behind them, for tests that build {@code Metrics} alone. */
public final class NoProbes implements Probes {
    @Override
    public long inflightBytes() {
        return 0;
    }

    @Override
    public long budgetBytes() {
        return 0;
    }

    @Override
    public boolean paused() {
        return false;
    }

    @Override
    public long pendingBatches() {
        return 0;
    }

    @Override
    public double watermarkAgeSeconds() {
        return 0;
    }

    @Override
    public long queuedBatches(int shard) {
        return 0;
    }
}
