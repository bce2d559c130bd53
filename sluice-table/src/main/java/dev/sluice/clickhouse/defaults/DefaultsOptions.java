package dev.sluice.clickhouse.defaults;

import dev.sluice.clickhouse.client.ServerInfo;

/**
 * How a {@link DefaultsPlan} treats a table's defaults.
 *
 * @param references what a DEFAULT expression's reference to another column with a default
 *     expression means, which depends on the server version
 * @param computedColumnsAllowed whether input naming a MATERIALIZED or ALIAS column is tolerated
 *     (the caller then leaves that field out) instead of being an error
 */
public record DefaultsOptions(References references, boolean computedColumnsAllowed) {

    /**
     * The meaning of {@code b} in {@code d String DEFAULT upper(b)} when {@code b} has a default
     * expression of its own and a row lacks {@code d}.
     */
    public enum References {
        /**
         * Always b's default expression, even in rows that carry b: what 18.x servers (and their
         * clickhouse-client) compute for omitted fields, checked against 18.16.
         */
        EXPRESSIONS,
        /**
         * b's value when the insert sends b (19.x and later, when b is complete in the block); such
         * chains are left to the server, the rest is computed here.
         */
        VALUES_WHEN_SENT
    }

    /** The semantics of {@code server}'s version; MATERIALIZED/ALIAS input is an error. */
    public static DefaultsOptions forServer(ServerInfo server) {
        return new DefaultsOptions(
                server.atLeast(19, 1) ? References.VALUES_WHEN_SENT : References.EXPRESSIONS,
                false);
    }

    public DefaultsOptions allowingComputedColumns() {
        return new DefaultsOptions(references, true);
    }
}
