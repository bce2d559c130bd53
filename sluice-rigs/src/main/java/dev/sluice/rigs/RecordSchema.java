package dev.sluice.rigs;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields every JSONL record of {@code sluice bench} carries (one record per repetition of an
 * arm), and the check that a record has them. A measurement that could not be taken is {@code null}
 * and its reason is in {@code null_reasons} under the field's name; an arm that did not run ({@code
 * unsupported}) or did not deliver its rows ({@code failed}) says why in {@code reason}.
 */
public final class RecordSchema {
    /** Present in every record, in this order. */
    public static final List<String> FIELDS =
            List.of(
                    "rig",
                    "arm",
                    "arm_label",
                    "rep",
                    "status",
                    "reason",
                    "rows",
                    "seconds",
                    "rows_per_s",
                    "wire_bytes",
                    "uncompressed_bytes",
                    "client_cpu_s",
                    "server_cpu_s",
                    "server_cpu_source",
                    "parts",
                    "rows_per_part",
                    "verdict",
                    "verdict_detail",
                    "inflight_budget_bytes",
                    "sizing_rule_bytes",
                    "cpu_bound_rows_per_s",
                    "cpu_bound_fraction",
                    "null_reasons",
                    "extra",
                    "git_commit",
                    "server_version",
                    "server_revision",
                    "machine",
                    "jvm",
                    "settings",
                    "started_at",
                    "data_seed");

    /** Measurements: null only with a reason in {@code null_reasons} (for an {@code ok} record). */
    public static final List<String> MEASURED =
            List.of(
                    "rows",
                    "seconds",
                    "rows_per_s",
                    "wire_bytes",
                    "uncompressed_bytes",
                    "client_cpu_s",
                    "server_cpu_s",
                    "parts",
                    "rows_per_part",
                    "verdict",
                    "inflight_budget_bytes",
                    "cpu_bound_rows_per_s",
                    "cpu_bound_fraction");

    public static final Set<String> STATUSES = Set.of("ok", "failed", "unsupported");

    public static final List<String> RIGS =
            List.of("saturation", "formats", "compression", "peers", "kafka");

    public static final List<String> MACHINE_FIELDS =
            List.of("cores", "cpu_model", "memory_bytes", "load_average");

    private RecordSchema() {}

    /**
     * Checks one record.
     *
     * @param where the place to name in the message, e.g. {@code results.jsonl line 3}
     * @throws IllegalArgumentException naming the place and the field
     */
    public static void check(Map<String, Object> record, String where) {
        for (String f : FIELDS) {
            if (!record.containsKey(f)) {
                throw new IllegalArgumentException(where + ": missing field '" + f + "'");
            }
        }
        if (!RIGS.contains(record.get("rig"))) {
            throw new IllegalArgumentException(
                    where
                            + ": unknown rig '"
                            + record.get("rig")
                            + "' (expected one of "
                            + RIGS
                            + ")");
        }
        Object status = record.get("status");
        if (!STATUSES.contains(status)) {
            throw new IllegalArgumentException(
                    where + ": status '" + status + "' is not one of " + STATUSES);
        }
        if (!(record.get("arm") instanceof Map<?, ?> arm) || arm.isEmpty()) {
            throw new IllegalArgumentException(where + ": 'arm' must be an object of axis values");
        }
        if (!(record.get("rep") instanceof Number rep) || rep.intValue() < 1) {
            throw new IllegalArgumentException(where + ": 'rep' must be a number ≥ 1");
        }
        if (!(record.get("machine") instanceof Map<?, ?> machine)) {
            throw new IllegalArgumentException(where + ": 'machine' must be an object");
        }
        for (String f : MACHINE_FIELDS) {
            if (!machine.containsKey(f)) {
                throw new IllegalArgumentException(where + ": missing field 'machine." + f + "'");
            }
        }
        for (String f : List.of("git_commit", "server_version", "jvm", "started_at")) {
            if (!(record.get(f) instanceof String s) || s.isBlank()) {
                throw new IllegalArgumentException(
                        where + ": '" + f + "' must be a non-empty string");
            }
        }
        if (!(record.get("settings") instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(where + ": 'settings' must be an object");
        }
        Map<?, ?> reasons = record.get("null_reasons") instanceof Map<?, ?> m ? m : Map.of();
        if (status.equals("ok")) {
            for (String f : MEASURED) {
                if (record.get(f) == null
                        && !(reasons.get(f) instanceof String s && !s.isBlank())) {
                    throw new IllegalArgumentException(
                            where + ": '" + f + "' is null without a reason in null_reasons");
                }
            }
            if (record.get("rows_per_s") instanceof Number r && r.doubleValue() < 0) {
                throw new IllegalArgumentException(where + ": 'rows_per_s' is negative");
            }
        } else if (!(record.get("reason") instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException(
                    where + ": a " + status + " record needs a 'reason'");
        }
    }
}
