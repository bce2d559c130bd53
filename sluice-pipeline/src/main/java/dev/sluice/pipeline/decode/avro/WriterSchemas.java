package dev.sluice.pipeline.decode.avro;

import dev.sluice.pipeline.decode.RecordException;
import org.apache.avro.Schema;

/**
 * Where the writer schema of a Confluent-framed record comes from: its schema id, looked up in a
 * schema registry. Implementations are shared by the pipeline's threads and cache what they fetch.
 */
public interface WriterSchemas {
    /**
     * The schema registered under {@code id}.
     *
     * @throws RecordException the registry does not know the id, or its schema is not one Avro can
     *     read: the record's fault, for the error policy
     * @throws dev.sluice.pipeline.decode.DecoderUnavailableException the registry cannot be asked
     *     (down past the retry deadline, refuses the credentials): not the record's fault
     */
    Schema schema(int id) throws RecordException;

    /** Where the schemas come from, for messages ({@code registry http://host:8081}). */
    String describe();
}
