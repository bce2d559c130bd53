package dev.sluice.pipeline.decode.avro;

import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;

/**
 * How records of one writer schema become rows of the decoder's columns: a step per writer field,
 * in the writer's order, and the fed columns the schema does not have (absent: the column's DEFAULT
 * path, like a missing JSON key). A schema that cannot map — a field with no column, an array for a
 * String column — has no steps but the error every record of it gets.
 *
 * @param describe the schema in messages: {@code schema id 42} or the file's name
 */
record Plan(Step[] steps, ColumnSlot[] absent, RecordException error, String describe) {
    static Plan failed(RecordException error, String describe) {
        return new Plan(new Step[0], new ColumnSlot[0], error, describe);
    }
}
