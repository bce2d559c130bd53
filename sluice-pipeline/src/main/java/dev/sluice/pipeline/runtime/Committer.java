package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.checkpoint.CheckpointStore;
import dev.sluice.pipeline.checkpoint.Ledger;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.source.Source;
import java.io.IOException;
import java.util.Map;

/**
 * Commits positions a pipeline thread's trackers allow (property 1), in the order that keeps them
 * true after a crash: dead letters flushed first, then the source told, then the positions file
 * replaced, then ledger entries behind the new positions dropped. Shared by the pipeline threads.
 */
final class Committer {
    private final DeadLetterLog deadLetters;
    private final CheckpointStore store;
    private final Ledger ledger;
    private final Metrics metrics;

    /** Any of {@code deadLetters}, {@code store}, {@code ledger} may be null (not configured). */
    Committer(DeadLetterLog deadLetters, CheckpointStore store, Ledger ledger, Metrics metrics) {
        this.deadLetters = deadLetters;
        this.store = store;
        this.ledger = ledger;
        this.metrics = metrics;
    }

    void commit(Source source, Map<String, Long> positions) throws IOException {
        if (positions.isEmpty()) {
            return;
        }
        if (deadLetters != null) {
            deadLetters.flush();
        }
        for (Map.Entry<String, Long> e : positions.entrySet()) {
            source.commit(e.getKey(), e.getValue());
        }
        if (store != null) {
            store.save(positions);
        }
        if (ledger != null) {
            for (Map.Entry<String, Long> e : positions.entrySet()) {
                ledger.prune(e.getKey(), e.getValue());
            }
        }
        metrics.commits.inc();
    }
}
