package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a shard's writers treat an INSERT whose acknowledgement they did not see — decided at
 * start-up from what the table and the server can do (docs/pipeline.md, "Interrupted INSERTs").
 *
 * @param deduplicates the table drops a repeated block (or token): sending again is safe, so
 *     nothing is looked up (property 2)
 * @param onUnknown what to do when the server cannot tell whether it wrote an INSERT
 * @param logging whether the server logs sluice's INSERTs, so that they can be looked up
 * @param timeout how long an interrupted INSERT is looked up before its outcome counts as unknown
 */
public record OutcomePolicy(
        boolean deduplicates, OnUnknownOutcome onUnknown, QueryLogging logging, Duration timeout) {

    public OutcomePolicy {
        Objects.requireNonNull(onUnknown, "onUnknown");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** Resend without asking: for tests and tables that deduplicate. */
    public static OutcomePolicy deduplicating() {
        return new OutcomePolicy(
                true,
                OnUnknownOutcome.RESEND,
                QueryLogging.notLogged("the table deduplicates"),
                Duration.ZERO);
    }

    /**
     * The default for a shard: {@code resend} where the table deduplicates, {@code fail} where it
     * cannot, unless {@code configured} says otherwise.
     */
    public static OnUnknownOutcome effective(OnUnknownOutcome configured, boolean deduplicates) {
        if (configured != null) {
            return configured;
        }
        return deduplicates ? OnUnknownOutcome.RESEND : OnUnknownOutcome.FAIL;
    }

    /** Settings added to every INSERT: {@code log_queries=1} when the server needs asking. */
    public Map<String, String> insertSettings() {
        return deduplicates ? Map.of() : logging.insertSettings();
    }

    /**
     * Settings added to the INSERTs of a batch of several partitions, on every table: {@code
     * log_queries=1} when the server needs it, so that a member replayed alone can look them up
     * (docs/adr/0011).
     */
    public Map<String, String> groupInsertSettings() {
        return logging.insertSettings();
    }

    /**
     * True when a member of a batch of several partitions replayed alone can look up the group's
     * INSERTs — on any table, since a server that deduplicates cannot tell the member's rows among
     * the group's either.
     */
    boolean looksUpGroups() {
        return logging.usable();
    }

    /** True when an interrupted or replayed INSERT is looked up on its server. */
    boolean looksUp() {
        return !deduplicates && logging.usable();
    }
}
