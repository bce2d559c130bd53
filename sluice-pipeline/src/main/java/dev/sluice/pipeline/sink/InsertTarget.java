package dev.sluice.pipeline.sink;

import dev.sluice.pipeline.decode.TargetColumns;
import java.util.List;

/**
 * The table a batch is written into, as its writer knows it now: its name, the columns batches are
 * staged in, how they become INSERTs, and what holds for an INSERT sent again on each shard. A
 * writer that serves several tables has one per table ({@code dev.sluice.pipeline.writer}); a batch
 * names its own ({@link SealedBatch#target()}).
 *
 * <p>The table may change while data flows ({@code ALTER TABLE ... ADD, DROP, MODIFY COLUMN}):
 * {@link #refresh} describes it again when the server refuses an INSERT as made for another table,
 * and the writer may also notice a change by looking at the table's columns. Then {@link #layout()}
 * is replaced as a whole, and batches staged before are re-encoded for the table as it is ({@link
 * BatchSender}, docs/writer.md "Tables that change"). Thread-safe.
 */
public interface InsertTarget {

    /** The table's name as INSERTs give it ({@code db.table} or {@code table}). */
    String table();

    /** The table as last described: replaced as a whole when it changes. */
    Layout layout();

    /**
     * The server refused an INSERT made under {@code seen} as if the table were another ({@link
     * ErrorClass#SCHEMA}): describes the table again (once, for all writer threads that saw the
     * same refusal).
     *
     * @return true when the table is now described otherwise than by {@code seen}: {@link
     *     #layout()} says how; false when it is unchanged (the refusal is then what it says)
     * @throws TableChangeException when the table cannot be described now, or changed in a way the
     *     writer cannot follow
     */
    boolean refresh(Layout seen, RuntimeException refusal);

    /**
     * What a writer knows of its table at one time, taken together.
     *
     * @param version grows by one each time the table is found changed
     * @param columns the columns batches are staged in, in block order
     * @param plan how batches become INSERTs
     * @param policies per shard: what holds for an INSERT sent again there
     */
    record Layout(
            long version, TargetColumns columns, InsertPlan plan, List<OutcomePolicy> policies) {
        public Layout {
            policies = List.copyOf(policies);
        }
    }

    /** Why a changed table could not be described again, and whether trying later may help. */
    final class TableChangeException extends RuntimeException {
        private final boolean retryable;

        /**
         * @param retryable true when describing it again later may work (a shard that does not
         *     answer, shards that do not agree yet while an ALTER runs on each); false when the
         *     table changed in a way the writer cannot follow (a configured column was dropped)
         */
        public TableChangeException(String message, boolean retryable, Throwable cause) {
            super(message, cause);
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }
}
