package dev.sluice.clickhouse.schema;

/**
 * Whether the server drops a repeated INSERT block, so that a retried batch is not written twice.
 *
 * @param kind how the table deduplicates
 * @param window how many recent block hashes the table remembers; -1 when not known
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
