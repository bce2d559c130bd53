package dev.sluice.clickhouse.schema;

/**
 * Whether the server drops a repeated INSERT block, so that a retried batch is not written twice.
 * All versions: a Replicated* table drops a block identical to one of its last {@code
 * replicated_deduplication_window} blocks (100 by default); newer servers do the same for a plain
 * MergeTree with {@code non_replicated_deduplication_window > 0}; from 22.2 an {@code
 * insert_deduplication_token} is compared instead of the block's data.
 *
 * @param kind how the table deduplicates
 * @param window how many recent blocks the table remembers; -1 when not known (for {@link
 *     Kind#NONE}: the server has no {@code non_replicated_deduplication_window} at all)
 */
public record Deduplication(Kind kind, long window) {

    public enum Kind {
        /** Replicated* engines deduplicate by default ({@code replicated_deduplication_window}). */
        REPLICATED,
        /** A MergeTree with {@code non_replicated_deduplication_window > 0} (ClickHouse 20.x+). */
        NON_REPLICATED_WINDOW,
        /** Repeated blocks are written again (a plain MergeTree on 18.16, Memory, Log, ...). */
        NONE
    }

    public static final Deduplication NONE = new Deduplication(Kind.NONE, 0);

    /** True when a retried block is dropped by the server. */
    public boolean enabled() {
        return kind != Kind.NONE;
    }

    /** What the engine name alone tells: Replicated* deduplicate, the rest is unknown (none). */
    static Deduplication fromEngine(String engine) {
        return engine != null && engine.startsWith("Replicated")
                ? new Deduplication(Kind.REPLICATED, -1)
                : NONE;
    }
}
