package dev.sluice.rigs.report;

import dev.sluice.rigs.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One arm of one run in a section: its repetitions' records, summarized. A row of a report table.
 */
final class ArmRow {
    final String run;
    final String rig;
    final String armLabel;
    final Map<String, Object> arm;
    final List<Map<String, Object>> records = new ArrayList<>();

    ArmRow(String run, Map<String, Object> first) {
        this.run = run;
        this.rig = (String) first.get("rig");
        this.armLabel = (String) first.get("arm_label");
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) first.get("arm");
        this.arm = new LinkedHashMap<>(a);
    }

    List<Map<String, Object>> ok() {
        return records.stream().filter(r -> "ok".equals(r.get("status"))).toList();
    }

    /** ok, failed (some repetition did not deliver) or unsupported. */
    String status() {
        if (records.stream().anyMatch(r -> "failed".equals(r.get("status")))) {
            return "failed";
        }
        if (records.stream().allMatch(r -> "unsupported".equals(r.get("status")))) {
            return "unsupported";
        }
        return "ok";
    }

    /** The reasons of failed or unsupported repetitions, distinct, in order. */
    String reason() {
        List<String> reasons = new ArrayList<>();
        for (Map<String, Object> r : records) {
            Object why = r.get("reason");
            if (why != null && !reasons.contains(why.toString())) {
                reasons.add(why.toString());
            }
        }
        return String.join("; ", reasons);
    }

    /** Statistics of {@code metric} over the ok repetitions, or null. */
    Stats stats(Metric metric) {
        List<Double> values = new ArrayList<>();
        for (Map<String, Object> r : ok()) {
            Double v = metric.value().apply(r);
            if (v != null) {
                values.add(v);
            }
        }
        return Stats.of(values);
    }

    /** Verdict label → repetitions with it. */
    Map<String, Integer> verdicts() {
        Map<String, Integer> m = new TreeMap<>();
        for (Map<String, Object> r : ok()) {
            Object v = r.get("verdict");
            if (v != null) {
                m.merge(v.toString(), 1, Integer::sum);
            }
        }
        return m;
    }

    String axis(String name) {
        Object v = arm.get(name);
        return v == null ? "" : v.toString();
    }
}
