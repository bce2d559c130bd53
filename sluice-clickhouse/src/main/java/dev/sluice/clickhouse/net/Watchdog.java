package dev.sluice.clickhouse.net;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The single daemon thread that fires deadlines for every connection in the process: timers are
 * armed around writes and operations and almost always cancelled before they fire, so one thread
 * with a priority queue serves any number of connections. Expiry actions must be quick and must
 * never block (they close sockets; see {@link GuardedSocket#abort}).
 */
public final class Watchdog {
    private static final ScheduledThreadPoolExecutor TIMERS = createTimers();

    private Watchdog() {}

    private static ScheduledThreadPoolExecutor createTimers() {
        ScheduledThreadPoolExecutor e =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, "sluice-clickhouse-watchdog");
                            t.setDaemon(true);
                            return t;
                        });
        // Cancelled timers leave the queue at once: most timers are cancelled, and a queue of
        // dead ones would grow with every write.
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    /** An armed timer; {@link #cancel()} disarms it (a no-op once it fired). */
    public static final class Timer {
        private final ScheduledFuture<?> future;

        private Timer(ScheduledFuture<?> future) {
            this.future = future;
        }

        public void cancel() {
            future.cancel(false);
        }
    }

    /**
     * Runs {@code action} on the watchdog thread after {@code delayNanos}, unless cancelled first.
     * An action that throws is contained: it must not stop the thread that serves every deadline.
     */
    public static Timer schedule(long delayNanos, Runnable action) {
        return new Timer(
                TIMERS.schedule(
                        () -> {
                            try {
                                action.run();
                            } catch (RuntimeException ignored) {
                                // a failed expiry action is that connection's problem alone
                            }
                        },
                        Math.max(0, delayNanos),
                        TimeUnit.NANOSECONDS));
    }

    /** Runs {@code action} every {@code periodNanos} until cancelled (pool housekeeping). */
    public static Timer every(long periodNanos, Runnable action) {
        return new Timer(
                TIMERS.scheduleWithFixedDelay(
                        () -> {
                            try {
                                action.run();
                            } catch (RuntimeException ignored) {
                                // keep the period; the next run may succeed
                            }
                        },
                        periodNanos,
                        periodNanos,
                        TimeUnit.NANOSECONDS));
    }
}
