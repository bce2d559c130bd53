package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.source.RecordBatch;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies the error policy to a record the decoder or a transform rejected (property 4): count and
 * skip it, dead-letter it, or stop. More rejections than {@code max_errors} also stop. Shared by
 * the pipeline threads.
 */
final class RecordErrors {
    private final ErrorPolicy policy;
    private final long maxErrors;
    private final DeadLetterLog deadLetters;
    private final Metrics metrics;
    private final AtomicLong rejected = new AtomicLong();

    /**
     * @param maxErrors stop after more rejections than this; -1 for no limit
     * @param deadLetters the dead-letter file; null unless the policy is DEAD_LETTER
     */
    RecordErrors(ErrorPolicy policy, long maxErrors, DeadLetterLog deadLetters, Metrics metrics) {
        if (policy == ErrorPolicy.DEAD_LETTER && deadLetters == null) {
            throw new IllegalArgumentException("the dead-letter policy needs a dead-letter file");
        }
        this.policy = policy;
        this.maxErrors = maxErrors;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /**
     * Handles record {@code index} of {@code batch}, rejected for {@code reason}.
     *
     * @return null when the record is handled (skipped or dead-lettered) and reading goes on;
     *     otherwise why the pipeline must stop
     */
    String reject(RecordBatch batch, int index, String reason) throws IOException {
        if (policy == ErrorPolicy.FAIL) {
            return reason;
        }
        long n = rejected.incrementAndGet();
        if (maxErrors >= 0 && n > maxErrors) {
            return "more than "
                    + maxErrors
                    + " records were rejected (errors.max_errors); the last: "
                    + reason;
        }
        if (policy == ErrorPolicy.DEAD_LETTER) {
            deadLetters.write(batch, index, reason);
            metrics.deadLettered.inc();
        } else {
            metrics.skipped.inc();
        }
        return null;
    }
}
