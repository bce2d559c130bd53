package dev.sluice.pipeline.errors;

import java.util.Locale;

/**
 * What happens to a record that cannot be decoded or converted (property 4: it is written, skipped
 * and counted, or dead-lettered — never silently dropped).
 */
public enum ErrorPolicy {
    /** Stop: nothing from the failing batch onward is written; the report says where to resume. */
    FAIL,
    /** Count it and go on. */
    SKIP,
    /** Write it with its position and reason to the dead-letter file and go on. */
    DEAD_LETTER;

    public static ErrorPolicy parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "fail" -> FAIL;
            case "skip" -> SKIP;
            case "dead-letter", "deadletter", "dlq" -> DEAD_LETTER;
            default ->
                    throw new IllegalArgumentException(
                            "unknown error policy '"
                                    + s
                                    + "' (expected fail, skip or dead-letter)");
        };
    }
}
