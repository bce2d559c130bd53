/**
 * What the server records about queries: whether an INSERT whose acknowledgement was lost is still
 * running ({@code system.processes}), finished or failed ({@code system.query_log}), and whether
 * the server logs sluice's queries at all. Plain queries over a {@link
 * dev.sluice.clickhouse.client.ClickHouseClient}; no threads, no waiting — callers poll.
 */
package dev.sluice.clickhouse.status;
