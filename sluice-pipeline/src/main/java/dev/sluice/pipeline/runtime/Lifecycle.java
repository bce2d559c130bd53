package dev.sluice.pipeline.runtime;

import java.util.concurrent.atomic.AtomicReference;

/**
 * What the pipeline as a whole is doing, shared by its threads: running, draining (seal and write
 * everything read so far, then end), or stopping (seal nothing more; what is open is abandoned).
 * The first failure wins and turns the pipeline to stopping.
 */
final class Lifecycle {
    enum Mode {
        RUN,
        DRAIN,
        STOP
    }

    private final AtomicReference<Failure> failure = new AtomicReference<>();
    private volatile Mode mode = Mode.RUN;
    private volatile boolean abandonQueued;

    Mode mode() {
        return mode;
    }

    /** Seal and write what was read, then end. */
    void drain() {
        if (mode == Mode.RUN) {
            mode = Mode.DRAIN;
        }
    }

    /** End as soon as the batches being sent are settled; queued and open ones are abandoned. */
    void stop() {
        abandonQueued = true;
        mode = Mode.STOP;
    }

    /**
     * Stops the pipeline for {@code f} unless it failed already.
     *
     * @param abandonQueued true to abandon sealed batches not yet being sent (the sink failed); a
     *     record's failure lets them be written, since they hold only records before it
     */
    void fail(Failure f, boolean abandonQueued) {
        if (failure.compareAndSet(null, f)) {
            if (abandonQueued) {
                this.abandonQueued = true;
            }
            mode = Mode.STOP;
        }
    }

    Failure failure() {
        return failure.get();
    }

    boolean abandonQueued() {
        return abandonQueued;
    }
}
