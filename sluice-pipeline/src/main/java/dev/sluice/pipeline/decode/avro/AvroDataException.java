package dev.sluice.pipeline.decode.avro;

/**
 * The bytes of a record are not a valid Avro datum of the writer schema: cut short, a malformed
 * varint, a union or enum index that does not exist, a negative length. The decoder turns it into a
 * {@code RecordException} naming the field being read. Thrown only for bad input, so it carries no
 * stack trace.
 */
final class AvroDataException extends Exception {
    AvroDataException(String message) {
        super(message, null, false, false);
    }
}
