/**
 * Row-oriented ClickHouse input formats written from the same column buffers as Native blocks, for
 * HTTP inserts where Native is unwanted (proxies, tools) and for the format match-up benchmark.
 *
 * <p>{@link dev.sluice.clickhouse.format.Formats} names them: RowBinary and
 * RowBinaryWithNamesAndTypes, TabSeparated (-WithNames, -WithNamesAndTypes), CSV (CSVWithNames),
 * Values, JSONEachRow and JSONCompactEachRow; each is a {@link
 * dev.sluice.clickhouse.format.InputFormat} the HTTP transport sends. {@link
 * dev.sluice.clickhouse.format.RowFormat#encoderFor} builds, once per block shape, a tree of small
 * per-column writers ({@link dev.sluice.clickhouse.format.RowBinaryWriter} for the binary formats,
 * {@code TextWriters} for text), so writing a row is one virtual call per value, with no type test
 * and no allocation: numbers, dates and escaped strings go straight into the {@link
 * dev.sluice.clickhouse.io.WireOutput}.
 *
 * <p>The text spellings are ClickHouse's own (see {@code TextWriters} and {@code TextOut}), with
 * three deliberate choices that make the text read back identically on every server: DateTime as
 * epoch seconds (never local time), NaN as {@code -nan} inside a quoted Nullable, and floats as the
 * shortest decimal that reads back as the same value.
 */
package dev.sluice.clickhouse.format;
