package dev.sluice.pipeline.decode.avro.registry;

/**
 * The registry answered that it has no such thing: an unknown schema id (404, error code 40403), an
 * unknown subject (40401) or version (40402). A fault of the record (or of the configuration's
 * subject), not of the registry.
 */
public final class RegistryException extends Exception {
    private final int status;
    private final int errorCode;

    public RegistryException(int status, int errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The registry's {@code error_code}, or 0 when it gave none. */
    public int errorCode() {
        return errorCode;
    }
}
