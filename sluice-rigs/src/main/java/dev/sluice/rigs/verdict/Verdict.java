package dev.sluice.rigs.verdict;

/**
 * What limited one repetition's throughput, read from the counters the runtime exports. Only {@link
 * #SINK} measures the sink; {@link #GENERATOR} figures are lower bounds; {@link #BUDGET} figures
 * are invalid for any ceiling claim.
 */
public enum Verdict {
    /** Backpressure paused the source during the window: the sink was the constraint. */
    SINK("sink"),
    /** No pause: the source (generator or consumer) could not feed faster — a lower bound. */
    GENERATOR("generator"),
    /** No pause, but batches held back commits for much of the window: cannot tell. */
    INDETERMINATE_CHECKPOINT("indeterminate-checkpoint"),
    /** The in-flight budget was below the sizing rule: the pipeline throttled itself. */
    BUDGET("budget");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The name in the JSONL records and the report. */
    public String label() {
        return label;
    }

    /** The verdict called {@code label}. */
    public static Verdict of(String label) {
        for (Verdict v : values()) {
            if (v.label.equals(label)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown verdict '" + label + "'");
    }
}
