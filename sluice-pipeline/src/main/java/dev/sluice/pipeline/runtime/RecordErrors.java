package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.source.PolledRecords;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Applies the error policy to a record the decoder or a transform rejected, or to a row the server
 * rejected for its content (property 4): count and skip it, dead-letter it, or stop. More
 * rejections than {@code max_errors} — of both kinds together — also stop. Shared by the pipeline
 * threads and, for the server's rejections, the shard writers ({@link #forSink}).
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
    String reject(PolledRecords batch, int index, String reason) throws IOException {
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

    /**
     * The writers' view: rows the server rejected go by the same policy and count against the same
     * {@code max_errors}; dead-lettered with {@code source} (the source's name), their position and
     * the row as it was sent.
     */
    RejectedRows forSink(Supplier<String> source) {
        return new RejectedRows() {
            @Override
            public boolean bisects() {
                return policy != ErrorPolicy.FAIL;
            }

            @Override
            public String reject(SealedBatch.RowSource at, byte[] row, String reason) {
                return rejectRow(source.get(), at, row, reason);
            }
        };
    }

    private String rejectRow(String source, SealedBatch.RowSource at, byte[] row, String reason) {
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
            try {
                deadLetters.writeRow(source, at.partition(), at.position(), row, reason);
            } catch (IOException e) {
                return "cannot write the dead-letter file (" + e.getMessage() + ") for: " + reason;
            }
            metrics.deadLettered.inc();
        } else {
            metrics.skipped.inc();
        }
        return null;
    }
}
