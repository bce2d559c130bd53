package dev.sluice.pipeline.time;

/**
 * Time, injected everywhere it matters (linger, backoff, checkpoint intervals), so tests set the
 * clock instead of sleeping.
 */
public interface Clock {
    /** Monotonic nanoseconds, for intervals. */
    long nanoTime();

    /** Wall-clock milliseconds since the epoch, for timestamps people read. */
    long currentTimeMillis();

    /** Waits up to {@code nanos} (a manual clock returns at once); interruptible. */
    void sleep(long nanos) throws InterruptedException;

    Clock SYSTEM =
            new Clock() {
                @Override
                public long nanoTime() {
                    return System.nanoTime();
                }

                @Override
                public long currentTimeMillis() {
                    return System.currentTimeMillis();
                }

                @Override
                public void sleep(long nanos) throws InterruptedException {
                    if (nanos > 0) {
                        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
                    }
                }
            };
}
