/**
 * Row-oriented ClickHouse formats written from the same column buffers as Native blocks.
 *
 * <p>{@link dev.sluice.clickhouse.format.RowBinaryWriter} exists for HTTP inserts ({@code FORMAT
 * RowBinary}) and as the baseline the Native encoder is measured against: both read the same {@link
 * dev.sluice.clickhouse.column.Column} buffers, so a benchmark compares the encodings and nothing
 * else.
 */
package dev.sluice.clickhouse.format;
