package dev.sluice.pipeline.sink;

/**
 * Where the rows ClickHouse rejects for their content go: {@code errors.policy} applied to them as
 * to a record the decoder rejects (property 4) — dead-lettered with their position and the server's
 * message, or skipped and counted; under {@code fail} they are not sought at all (the batch's first
 * rejection stops the pipeline). Shared by the writers.
 */
public interface RejectedRows {
    /**
     * True when a batch with rejected rows is bisected down to them and the rest written (policy
     * {@code skip} or {@code dead-letter}); false when a rejection stops the pipeline ({@code
     * fail}).
     */
    boolean bisects();

    /**
     * Handles one rejected row.
     *
     * @param source where the row's record is
     * @param row the row as it was sent: a JSON object of its columns (JSONEachRow)
     * @param reason the server's error
     * @return null when the row is handled (dead-lettered or skipped, and counted); otherwise why
     *     the pipeline must stop (more rejections than {@code errors.max_errors}, a dead-letter
     *     file that cannot be written)
     */
    String reject(SealedBatch.RowSource source, byte[] row, String reason);

    /**
     * For the message that stops on a content refusal when {@link #bisects()} is false: what would
     * have the rejected rows sought out and the rest written.
     */
    default String howToBisect() {
        return "with errors.policy dead-letter or skip — --on-error — the batch is bisected: the"
                + " rejected rows are dead-lettered or skipped and the rest written";
    }

    /** Rejections stop the pipeline: for sinks without an error policy (tests, tools). */
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
        };
    }
}
