package dev.sluice.pipeline.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writers of one shard: a queue of sealed batches and {@code inflight_per_shard} threads, each
 * sending one batch at a time over its own connections (one per replica). So at most that many
 * INSERTs run on the shard at once; batches beyond wait in the queue, which the in-flight byte
 * budget bounds (property 3).
 *
 * <p>A writer settles every batch it takes — written or abandoned — which hands it back to its
 * pipeline thread without waiting (property 5).
 */
public final class ShardWriter {
    private static final long POLL_MILLIS = 20;

    private final int shard;
    private final LinkedBlockingQueue<SealedBatch> queue = new LinkedBlockingQueue<>();
    private final List<BatchSender> senders;
    private final List<Thread> threads = new ArrayList<>();
    private final SinkSupervisor supervisor;
    private final AtomicInteger poolInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean finishing;
    private volatile boolean stopped;

    ShardWriter(
            int shard,
            List<BatchSender> senders,
            SinkSupervisor supervisor,
            AtomicInteger poolInFlight) {
        this.shard = shard;
        this.senders = List.copyOf(senders);
        this.supervisor = supervisor;
        this.poolInFlight = poolInFlight;
    }

    void start(String threadNamePrefix) {
        for (int i = 0; i < senders.size(); i++) {
            BatchSender sender = senders.get(i);
            Thread t = new Thread(() -> run(sender), threadNamePrefix + shard + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    void submit(SealedBatch batch) {
        inFlight.incrementAndGet();
        queue.add(batch);
        if (stopped) {
            abandonQueued(); // no writer is left to take it
        }
    }

    /** Batches queued or being sent. */
    public int inFlight() {
        return inFlight.get();
    }

    private void run(BatchSender sender) {
        try (sender) {
            while (true) {
                SealedBatch batch;
                try {
                    batch = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    break;
                }
                if (batch == null) {
                    if (finishing) {
                        break;
                    }
                    continue;
                }
                // Another sealed batch already waiting behind this one means the server is the
                // slower side now: presort: auto sorts this batch (docs/presort.md, "auto").
                boolean backlog = !queue.isEmpty();
                SealedBatch.Outcome outcome =
                        supervisor.abandonQueued()
                                ? SealedBatch.Outcome.ABANDONED
                                : sender.send(batch, backlog);
                settle(batch, outcome);
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
            }
        }
        abandonQueued();
    }

    /** Settles what is queued as abandoned: after the drain deadline, nothing more is sent. */
    private void abandonQueued() {
        for (SealedBatch b; (b = queue.poll()) != null; ) {
            settle(b, SealedBatch.Outcome.ABANDONED);
        }
    }

    private void settle(SealedBatch batch, SealedBatch.Outcome outcome) {
        inFlight.decrementAndGet();
        poolInFlight.decrementAndGet();
        batch.settle(outcome);
    }

    /** No more batches will come: the writers stop once the queue is empty. */
    void finish() {
        finishing = true;
    }

    /** Stops the writers after their current attempt (the drain deadline passed). */
    void interrupt() {
        stopped = true;
        threads.forEach(Thread::interrupt);
    }

    /** Waits until every writer thread ended, or until {@code deadlineNanos} (System.nanoTime). */
    boolean join(long deadlineNanos) throws InterruptedException {
        for (Thread t : threads) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return !t.isAlive();
            }
            TimeUnit.NANOSECONDS.timedJoin(t, left);
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }
}
