package dev.sluice.clickhouse.types;

/** A type name that Sluice cannot parse or cannot encode. */
public final class UnsupportedTypeException extends IllegalArgumentException {
    private final String typeName;

    public UnsupportedTypeException(String typeName, String detail) {
        super("unsupported type " + typeName + (detail == null ? "" : ": " + detail));
        this.typeName = typeName;
    }

    public String typeName() {
        return typeName;
    }

    /** The same failure, naming the column it was found in. */
    public IllegalArgumentException inColumn(String column) {
        return new IllegalArgumentException(
                "unsupported type " + typeName + " in column " + column + detailSuffix(), this);
    }

    private String detailSuffix() {
        String m = getMessage();
        int colon = m.indexOf(": ", ("unsupported type " + typeName).length());
        return colon < 0 ? "" : m.substring(colon);
    }
}
