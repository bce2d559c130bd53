package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;

/**
 * One field of the writer's top-level record (or of a record flattened into {@code a.b} columns):
 * reads it into its column, its columns, or past it. Steps turn bad bytes into a {@link
 * RecordException} naming the field.
 */
abstract class Step {
    abstract void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException;
}
