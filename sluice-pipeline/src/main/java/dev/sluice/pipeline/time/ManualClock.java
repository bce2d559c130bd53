package dev.sluice.pipeline.time;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to: for tests of linger, backoff and intervals. */
public final class ManualClock implements Clock {
    private final AtomicLong nanos = new AtomicLong();
    private final long epochMillisAtZero;

    public ManualClock() {
        this(1_700_000_000_000L);
    }

    public ManualClock(long epochMillisAtZero) {
        this.epochMillisAtZero = epochMillisAtZero;
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long currentTimeMillis() {
        return epochMillisAtZero + nanos.get() / 1_000_000;
    }

    /** Sleeping on a manual clock advances it: the sleeper's time passes at once. */
    @Override
    public void sleep(long nanos) {
        if (nanos > 0) {
            this.nanos.addAndGet(nanos);
        }
    }

    public void advanceNanos(long n) {
        nanos.addAndGet(n);
    }

    public void advanceMillis(long ms) {
        advanceNanos(ms * 1_000_000);
    }
}
