package dev.sluice.pipeline.decode.avro;

/** A writer schema that cannot map onto the columns, found while building its plan. */
final class PlanException extends Exception {
    private final String field;

    PlanException(String field, String reason) {
        super(reason, null, false, false);
        this.field = field;
    }

    String field() {
        return field;
    }
}
