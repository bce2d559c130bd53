package dev.sluice.pipeline.sink;

import java.util.Locale;

/**
 * What looking up an interrupted (or replayed) INSERT on its server found: the {@code result} label
 * of {@code etl_sink_outcome_checks_total}.
 */
public enum OutcomeCheck {
    /** The server wrote it: it is not sent again. */
    WRITTEN,
    /** The server did not write it: it is sent again. */
    NOT_WRITTEN,
    /** The server could not tell: {@code on_unknown_outcome} decides. */
    UNKNOWN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
