/**
 * Client-side pre-sorting by a table's sorting key ({@link dev.sluice.clickhouse.sort.Presorter})
 * and splitting of a batch by partition ({@link dev.sluice.clickhouse.sort.PartitionSplitter}),
 * both computing the keys with the server's functions and comparing rows as the server does. See
 * {@code docs/presort.md} for what it saves and costs.
 */
package dev.sluice.clickhouse.sort;
