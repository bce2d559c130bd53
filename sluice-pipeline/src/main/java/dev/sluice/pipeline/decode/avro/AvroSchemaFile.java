package dev.sluice.pipeline.decode.avro;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/** The writer schema of raw Avro records, read from a file (Avro's JSON schema form). */
public final class AvroSchemaFile {
    private AvroSchemaFile() {}

    /**
     * @throws IllegalArgumentException the file cannot be read or is not a valid Avro schema
     */
    public static Schema load(Path file) {
        try {
            return new Schema.Parser().parse(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "avro schema_file " + file + ": cannot read it: " + e.getMessage());
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException(
                    "avro schema_file " + file + ": not a valid Avro schema: " + e.getMessage());
        }
    }
}
