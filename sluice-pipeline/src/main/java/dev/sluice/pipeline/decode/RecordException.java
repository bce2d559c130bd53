package dev.sluice.pipeline.decode;

/**
 * One record could not be decoded or converted. Carries what a person needs to find and fix it: the
 * field or column, and the reason. The runtime adds where the record is (source, partition, line,
 * position) and applies the error policy.
 */
public final class RecordException extends Exception {
    private final String field;
    private final String type;
    private final String reason;

    /**
     * @param field the input field or target column concerned, or null for the whole record
     * @param reason what is wrong, e.g. {@code value 300 is out of range for UInt8}
     */
    public RecordException(String field, String reason) {
        this(field == null ? reason : "column " + field + ": " + reason, field, null, reason, null);
    }

    public RecordException(String field, String reason, Throwable cause) {
        this(
                field == null ? reason : "column " + field + ": " + reason,
                field,
                null,
                reason,
                cause);
    }

    private RecordException(
            String message, String field, String type, String reason, Throwable cause) {
        super(message, cause, false, false);
        this.field = field;
        this.type = type;
        this.reason = reason;
    }

    /**
     * A value that does not fit its column: {@code column tenant (UInt32): value -5 is out of
     * range}.
     */
    public static RecordException ofColumn(String column, String type, String reason) {
        return new RecordException(
                "column " + column + " (" + type + "): " + reason, column, type, reason, null);
    }

    /** An input field the table has no place for: {@code field extra: ...}. */
    public static RecordException ofField(String field, String reason) {
        return new RecordException("field " + field + ": " + reason, field, null, reason, null);
    }

    public String field() {
        return field;
    }

    /** The column's type when the problem is a value of a column, else null. */
    public String type() {
        return type;
    }

    public String reason() {
        return reason;
    }
}
