package dev.sluice.pipeline.decode.avro.registry;

import java.util.List;

/**
 * A schema as the registry returns it.
 *
 * @param id its id, or -1 when the answer did not say (a lookup by id)
 * @param version its version under the subject asked for, or -1
 * @param type {@code AVRO} (the default when the registry leaves it out), {@code PROTOBUF}, {@code
 *     JSON}
 * @param schema the schema's text
 * @param references the named types it uses from other subjects
 */
public record RegisteredSchema(
        int id, int version, String type, String schema, List<Reference> references) {
    public RegisteredSchema {
        references = List.copyOf(references);
    }

    /** A type the schema takes from another subject's version. */
    public record Reference(String name, String subject, int version) {}
}
