package dev.sluice.pipeline.writer;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The writer's bound on bytes of rows submitted and not yet settled. A submission takes its bytes
 * before the writer keeps anything of it and gives them back when it is written or failed; under
 * {@link WhenFull#WAIT} a submission that does not fit waits for acknowledgements (at most {@code
 * maxWaitNanos}), under {@link WhenFull#FAIL} it is refused at once. A submission larger than the
 * whole limit is let through when nothing else is in flight, so that it cannot wait forever.
 */
final class InflightLimit {
    private final long limit;
    private final WhenFull whenFull;
    private final long maxWaitNanos;
    private long used;

    /**
     * @param limit bytes; {@code Long.MAX_VALUE} for none
     */
    InflightLimit(long limit, WhenFull whenFull, long maxWaitNanos) {
        if (limit < 1) {
            throw new IllegalArgumentException("the in-flight limit must be at least 1 byte");
        }
        this.limit = limit;
        this.whenFull = whenFull;
        this.maxWaitNanos = maxWaitNanos;
    }

    /**
     * Takes {@code bytes}, waiting or refusing by the policy.
     *
     * @throws WriterFullException when they do not fit in time
     * @throws InterruptedException when the waiting thread is interrupted
     */
    synchronized void acquire(long bytes) throws InterruptedException {
        if (fits(bytes)) {
            used += bytes;
            return;
        }
        if (whenFull == WhenFull.FAIL) {
            throw full(bytes, "");
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        while (!fits(bytes)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw full(
                        bytes,
                        " after waiting " + TimeUnit.NANOSECONDS.toMillis(maxWaitNanos) + " ms");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        used += bytes;
    }

    /** Takes {@code bytes} whatever the limit (copies made while a submission is already in). */
    synchronized void force(long bytes) {
        used += bytes;
    }

    synchronized void release(long bytes) {
        used -= bytes;
        notifyAll();
    }

    synchronized long used() {
        return used;
    }

    long limit() {
        return limit;
    }

    private boolean fits(long bytes) {
        return used == 0 || used + bytes <= limit;
    }

    private WriterFullException full(long bytes, String waited) {
        return new WriterFullException(
                String.format(
                        Locale.ROOT,
                        "the writer's in-flight limit is reached%s: %,d bytes of submitted rows are"
                                + " not yet acknowledged, and %,d more would pass the limit of %,d"
                                + " bytes (maxInflightBytes)",
                        waited,
                        used,
                        bytes,
                        limit));
    }
}
