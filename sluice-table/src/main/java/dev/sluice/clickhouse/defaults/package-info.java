/**
 * Client-side DEFAULT values for rows that lack a field: per table, a {@link
 * dev.sluice.clickhouse.defaults.DefaultsPlan} decides per column whether the server fills it, the
 * client computes it, or the rows go to the server without it; per batch, a {@link
 * dev.sluice.clickhouse.defaults.DefaultFiller} computes what it can and {@link
 * dev.sluice.clickhouse.defaults.DefaultGroups} splits the rest. See {@code docs/defaults.md}.
 */
package dev.sluice.clickhouse.defaults;
