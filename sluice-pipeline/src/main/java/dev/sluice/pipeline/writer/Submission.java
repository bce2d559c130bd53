package dev.sluice.pipeline.writer;

import dev.sluice.pipeline.sink.BatchOwner;
import dev.sluice.pipeline.sink.SealedBatch;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One {@link ClickHouseWriter#submit} until its rows are settled: its completion, and the bytes it
 * holds of the in-flight limit. Settled by the writer thread that sent its batch — written: the
 * completion gets the acknowledged rows; otherwise it fails with the reason the writer reported (or
 * that the writer stopped before sending it). The completion's callbacks run on that writer thread.
 */
final class Submission implements BatchOwner {
    final CompletableFuture<Written> completion = new CompletableFuture<>();
    final long rows;
    final long bytes;
    private final Consumer<Submission> onSettled;

    /** Why the rows were not written; set before {@link #onSettled} runs and the completion. */
    volatile WriterException failure;

    Submission(long rows, long bytes, Consumer<Submission> onSettled) {
        this.rows = rows;
        this.bytes = bytes;
        this.onSettled = onSettled;
    }

    @Override
    public void settled(SealedBatch batch) {
        boolean written = batch.outcome() == SealedBatch.Outcome.WRITTEN;
        if (!written) {
            failure = failure(batch);
        }
        onSettled.accept(this); // before the completion: whoever waits on it sees the failure noted
        if (written) {
            completion.complete(new Written(rows, batch.token()));
        } else {
            completion.completeExceptionally(failure);
        }
    }

    /** Why {@code batch} was not written, as the completion reports it. */
    static WriterException failure(SealedBatch batch) {
        if (batch.failure() != null) {
            return new WriterException(batch.failure(), batch.failureCause());
        }
        return new WriterException(
                "not written: the writer was closed or aborted before "
                        + batch.describeRange()
                        + " ("
                        + batch.rows()
                        + " rows, token "
                        + batch.token()
                        + ") was written");
    }

    /** The submissions whose rows the writer gathered into one batch: settled together. */
    static final class Gathered implements BatchOwner {
        private final List<Submission> members;

        Gathered(List<Submission> members) {
            this.members = List.copyOf(members);
        }

        @Override
        public void settled(SealedBatch batch) {
            for (Submission s : members) {
                s.settled(batch);
            }
        }
    }
}
