package dev.sluice.connect;

import dev.sluice.pipeline.writer.ClickHouseWriter;

/**
 * What a task keeps per table: its writer, the emptied rows for reuse, how a record's value becomes
 * a row, and — under {@code errors.tolerance=all} — where the rows the server refuses are routed.
 *
 * @param refused null when a refused row fails its batch
 */
record TableSink(ClickHouseWriter writer, RowsPool pool, RowFiller filler, RefusedRows refused) {}
