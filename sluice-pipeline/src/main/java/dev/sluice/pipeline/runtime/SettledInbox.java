package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.BatchOwner;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.time.Clock;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Where writers hand a pipeline thread's batches back once they are settled — written or abandoned:
 * a lock-free queue and an unpark, so a writer never waits here (property 5). The thread takes them
 * out at the start of each turn.
 */
final class SettledInbox implements BatchOwner {
    private final ConcurrentLinkedQueue<SealedBatch> settled = new ConcurrentLinkedQueue<>();
    private final Metrics metrics;
    private final Clock clock;
    private volatile Thread thread;

    SettledInbox(Metrics metrics, Clock clock) {
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The thread to wake when a batch arrives (the pipeline thread, once it runs). */
    void wakes(Thread thread) {
        this.thread = thread;
    }

    /**
     * Called by a writer thread: never waits (property 5). The batch's budget bytes stay with its
     * buffers until the pipeline thread takes them back: pooled for the next batch, or released
     * when the budget is paused.
     */
    @Override
    public void settled(SealedBatch batch) {
        if (batch.outcome() == SealedBatch.Outcome.WRITTEN) {
            metrics.e2eSeconds.observe((clock.nanoTime() - batch.firstReadNanos()) / 1e9);
        }
        settled.add(batch);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The next settled batch, or null. */
    SealedBatch poll() {
        return settled.poll();
    }
}
