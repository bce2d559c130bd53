package dev.sluice.rigs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** Arms: maps of axis values, and the products and sweeps the rigs build them from. */
public final class Arms {
    private Arms() {}

    /** {@code threads=2 format=Native}: a short, stable label. */
    public static String label(Map<String, ?> arm) {
        StringJoiner j = new StringJoiner(" ");
        arm.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }

    /** Every combination of the axes' values, the first axis varying slowest. */
    public static List<Map<String, Object>> product(Map<String, List<?>> axes) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<?>> axis : axes.entrySet()) {
            if (axis.getValue().isEmpty()) {
                throw new IllegalArgumentException("axis " + axis.getKey() + " has no values");
            }
            List<Map<String, Object>> next = new ArrayList<>();
            for (Map<String, Object> partial : out) {
                for (Object v : axis.getValue()) {
                    Map<String, Object> m = new LinkedHashMap<>(partial);
                    m.put(axis.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /** Adds {@code arm} unless an equal arm is there already (sweeps share their base arm). */
    public static void addOnce(List<Map<String, Object>> arms, Map<String, Object> arm) {
        if (!arms.contains(arm)) {
            arms.add(arm);
        }
    }

    /** The arms of repetition {@code rep} (1-based) in run order: reversed on even reps. */
    public static <T> List<T> order(List<T> arms, int rep) {
        List<T> o = new ArrayList<>(arms);
        if (rep % 2 == 0) {
            java.util.Collections.reverse(o);
        }
        return o;
    }
}
