package dev.sluice.pipeline.decode;

/**
 * One record could not be decoded or converted. Carries what a person needs to find and fix it: the
 * field or column, and the reason. The runtime adds where the record is (source, partition, line,
 * position) and applies the error policy.
 */
public final class RecordException extends Exception {
    private final String field;
    private final String reason;

    /**
     * @param field the input field or target column concerned, or null for the whole record
     * @param reason what is wrong, e.g. {@code value 300 is out of range for UInt8}
     */
    public RecordException(String field, String reason) {
        super(field == null ? reason : "column " + field + ": " + reason, null, false, false);
        this.field = field;
        this.reason = reason;
    }

    public RecordException(String field, String reason, Throwable cause) {
        super(field == null ? reason : "column " + field + ": " + reason, cause, false, false);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
