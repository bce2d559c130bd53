package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.Source;
import java.io.IOException;
import java.util.Map;

/**
 * Commits checkpoints a pipeline thread's trackers allow (property 1), in the order that keeps them
 * true after a crash: the dead-letter file flushed first when a position moved (a dead-lettered
 * record is handled only once its letter is durable), then the source told — which keeps positions
 * and in-flight boundaries where it keeps them (files: the checkpoint directory; Kafka: the group's
 * offsets). Shared by the pipeline threads.
 */
final class Committer {
    private final DeadLetterLog deadLetters;
    private final Metrics metrics;

    /** {@code deadLetters} may be null (not configured). */
    Committer(DeadLetterLog deadLetters, Metrics metrics) {
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /**
     * @param advanced true when a position moved (else only new batch boundaries are recorded)
     */
    void commit(Source source, Map<String, Checkpoint> checkpoints, boolean advanced)
            throws IOException {
        if (checkpoints.isEmpty()) {
            return;
        }
        if (advanced && deadLetters != null) {
            deadLetters.flush();
        }
        long start = System.nanoTime();
        source.commit(checkpoints);
        metrics.commitSeconds.observe((System.nanoTime() - start) / 1e9);
        metrics.commits.inc();
    }
}
