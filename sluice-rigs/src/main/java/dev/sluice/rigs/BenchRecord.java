package dev.sluice.rigs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSONL record under construction: the fields of {@link RecordSchema#FIELDS}, all present (null
 * until set), in that order. Setting a measurement to null takes its reason.
 */
public final class BenchRecord {
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final Map<String, String> nullReasons = new LinkedHashMap<>();
    private final Map<String, Object> extra = new LinkedHashMap<>();

    /**
     * @param arm the axis values, in axis order
     */
    public BenchRecord(String rig, Map<String, Object> arm, int rep, Provenance provenance) {
        for (String f : RecordSchema.FIELDS) {
            fields.put(f, null);
        }
        fields.put("rig", rig);
        fields.put("arm", new LinkedHashMap<>(arm));
        fields.put("arm_label", Arms.label(arm));
        fields.put("rep", rep);
        fields.put("status", "ok");
        fields.put("null_reasons", nullReasons);
        fields.put("extra", extra);
        provenance.fill(fields);
    }

    /** Sets a field of the schema. */
    public BenchRecord set(String field, Object value) {
        if (!fields.containsKey(field)) {
            throw new IllegalArgumentException("not a record field: " + field);
        }
        fields.put(field, value);
        if (value != null) {
            nullReasons.remove(field);
        }
        return this;
    }

    /** Leaves {@code field} null, saying why. */
    public BenchRecord absent(String field, String reason) {
        set(field, null);
        nullReasons.put(field, reason);
        return this;
    }

    /** A rig-specific measurement (under {@code extra}). */
    public BenchRecord extra(String key, Object value) {
        extra.put(key, value);
        return this;
    }

    public Object get(String field) {
        return fields.get(field);
    }

    /** The arm did not run here: {@code reason} says why (e.g. the server lacks a feature). */
    public BenchRecord unsupported(String reason) {
        fields.put("status", "unsupported");
        fields.put("reason", reason);
        return this;
    }

    /** The arm ran but did not deliver: {@code reason} says what happened. */
    public BenchRecord failed(String reason) {
        fields.put("status", "failed");
        fields.put("reason", reason);
        return this;
    }

    public boolean ok() {
        return "ok".equals(fields.get("status"));
    }

    /** Sets rows, seconds and rows_per_s. */
    public BenchRecord throughput(long rows, double seconds) {
        set("rows", rows);
        set("seconds", seconds);
        set("rows_per_s", seconds > 0 ? rows / seconds : null);
        return this;
    }

    /**
     * The co-located CPU bound: {@code cores ÷ (client + server CPU per row)}, and the fraction of
     * it reached — when both CPU figures and the rows are known and the server shares this host.
     */
    public BenchRecord cpuBound(int cores, boolean colocated) {
        Object rows = fields.get("rows");
        Object client = fields.get("client_cpu_s");
        Object server = fields.get("server_cpu_s");
        Object rate = fields.get("rows_per_s");
        String why = null;
        if (!colocated) {
            why = "the server is not on this host: no shared-CPU bound";
        } else if (!(rows instanceof Number r) || r.longValue() <= 0) {
            why = "no rows measured";
        } else if (!(client instanceof Number c) || !(server instanceof Number s)) {
            why = "client or server CPU not measured";
        } else if (c.doubleValue() + s.doubleValue() <= 0) {
            why = "no CPU time measured";
        } else {
            double perRow = (c.doubleValue() + s.doubleValue()) / r.doubleValue();
            double bound = cores / perRow;
            set("cpu_bound_rows_per_s", bound);
            set("cpu_bound_fraction", rate instanceof Number x ? x.doubleValue() / bound : null);
            return this;
        }
        absent("cpu_bound_rows_per_s", why);
        absent("cpu_bound_fraction", why);
        return this;
    }

    /** The finished record (a live view). */
    public Map<String, Object> fields() {
        return fields;
    }
}
