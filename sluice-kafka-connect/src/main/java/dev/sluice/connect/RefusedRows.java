package dev.sluice.connect;

import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.SealedBatch;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rows one table's writer found the server refusing for their content, routed back to the batch
 * they came from. With it the writer bisects a refused INSERT down to the refused rows and writes
 * the rest (as the pipeline does under {@code errors.policy: dead-letter}); each refused row
 * reaches its batch by the batch's description, which the writer hands back with the row's index in
 * the submitted rows. The task then reports the row's record to the errant-record reporter.
 *
 * <p>Used only under {@code errors.tolerance=all}: with Connect's default {@code none}, the writer
 * keeps its own default — the batch fails, nothing of the refused INSERT is written, and the task
 * fails with the server's message.
 */
final class RefusedRows implements RejectedRows {
    private static final String HOW_TO_BISECT =
            "with errors.tolerance=all the rows ClickHouse refuses go to the errant-record"
                    + " reporter (the dead-letter topic) and the rest of their batch is written";

    private final Map<String, SentBatch> batches = new ConcurrentHashMap<>();

    /** {@code b} is about to be submitted under its description. */
    void register(SentBatch b) {
        batches.put(b.description, b);
    }

    /** {@code b} is settled (or no longer this task's). */
    void unregister(SentBatch b) {
        batches.remove(b.description, b);
    }

    @Override
    public boolean bisects() {
        return true;
    }

    @Override
    public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
        SentBatch b = batches.get(source.partition());
        if (b == null) {
            // its partition was taken away: nothing of it is committed here, its next owner
            // sends it again
            return "the batch " + source.partition() + " is no longer this task's";
        }
        return b.refused(source.position(), reason);
    }

    /**
     * Under {@code errors.tolerance=none}: a refused row fails its batch, nothing of the refused
     * INSERT is written, and the message says how to have the refused rows sought out instead.
     */
    static RejectedRows failing() {
        return new RejectedRows() {
            @Override
            public boolean bisects() {
                return false;
            }

            @Override
            public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
                return reason;
            }

            @Override
            public String howToBisect() {
                return "nothing of it was written; " + HOW_TO_BISECT;
            }
        };
    }

    @Override
    public String howToBisect() {
        return HOW_TO_BISECT;
    }
}
