package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.Column;

/**
 * Reads one Avro value of a known writer schema and appends it to one column (or a part of one: an
 * array's elements, a tuple's element) — a node of a {@link Plan}, built once per (writer schema,
 * column). A value the column refuses throws the converter's or the column's exception, which the
 * decoder reports naming the column.
 */
abstract class ValueReader {
    /**
     * Appends the value; returns false, appending nothing, when the value is null and the column
     * cannot hold NULL (the caller appends the default: as absent for a top-level column, like a
     * JSON null).
     */
    abstract boolean read(AvroInput in, Column c) throws AvroDataException;
}
