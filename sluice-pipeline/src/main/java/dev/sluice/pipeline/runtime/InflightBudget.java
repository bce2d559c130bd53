package dev.sluice.pipeline.runtime;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The in-flight byte budget (property 3): bytes of open batches plus sealed, unacknowledged ones.
 * Pipeline threads acquire bytes as their open batches grow; writers release a batch's bytes when
 * it is settled. When the total reaches {@code high × budget} the budget is <i>paused</i> —
 * pipeline threads stop polling their sources, after the record at hand — until it falls to {@code
 * low × budget}.
 *
 * <p>Nothing here waits: acquiring never refuses (the caller pauses itself) and releasing never
 * blocks, so acknowledgements cannot be held up by the backpressure they relieve (property 5). The
 * lock guards only the pause/resume transitions, so that a release racing a pause cannot leave the
 * budget paused with nothing left to release it.
 */
public final class InflightBudget {
    private final long budget;
    private final long highBytes;
    private final long lowBytes;
    private final Runnable onPause;
    private final AtomicLong used = new AtomicLong();
    private final CopyOnWriteArrayList<Thread> waiters = new CopyOnWriteArrayList<>();
    private volatile boolean paused;

    /**
     * @param high pause at this fraction of {@code budget}
     * @param low resume at this fraction
     * @param onPause called on each pause (for the pause-events counter)
     */
    public InflightBudget(long budget, double high, double low, Runnable onPause) {
        if (budget < 1) {
            throw new IllegalArgumentException("the in-flight budget must be positive");
        }
        if (!(low > 0 && low < high && high <= 1)) {
            throw new IllegalArgumentException(
                    "backpressure needs 0 < low < high ≤ 1, got low " + low + " and high " + high);
        }
        this.budget = budget;
        this.highBytes = (long) Math.ceil(budget * high);
        this.lowBytes = (long) Math.floor(budget * low);
        this.onPause = onPause;
    }

    /** Counts {@code bytes} more in flight; may pause. */
    public void acquire(long bytes) {
        long now = used.addAndGet(bytes);
        if (now >= highBytes && !paused) {
            synchronized (this) {
                if (!paused && used.get() >= highBytes) {
                    paused = true;
                    onPause.run();
                }
            }
        }
    }

    /** Counts {@code bytes} fewer in flight; may resume (and wake the registered threads). */
    public void release(long bytes) {
        long now = used.addAndGet(-bytes);
        if (now <= lowBytes && paused) {
            synchronized (this) {
                if (paused && used.get() <= lowBytes) {
                    paused = false;
                    waiters.forEach(LockSupport::unpark);
                }
            }
        }
    }

    /** True while sources must not be polled. */
    public boolean paused() {
        return paused;
    }

    public long used() {
        return used.get();
    }

    public long budget() {
        return budget;
    }

    /** Wakes {@code thread} (a pipeline thread parked while paused) when the budget resumes. */
    public void wakeOnResume(Thread thread) {
        waiters.add(thread);
    }

    public void forget(Thread thread) {
        waiters.remove(thread);
    }
}
