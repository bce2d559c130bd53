package dev.sluice.rigs;

import java.util.LinkedHashMap;
import java.util.Map;

/** Records as the rigs write them, for tests that need some without a server. */
public final class TestRecords {
    private TestRecords() {}

    public static Provenance provenance() {
        return new Provenance("0123456789abcdef", "18.16.1", 54412, 7, Map.of());
    }

    /** An ok saturation repetition. */
    public static BenchRecord saturation(
            Map<String, Object> arm,
            Map<String, Object> base,
            int rep,
            double rowsPerSecond,
            String verdict) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("base_arm", base);
        BenchRecord r =
                new BenchRecord("saturation", arm, rep, provenance().withSettings(settings));
        r.throughput(Math.round(rowsPerSecond * 15), 15.0);
        r.set("wire_bytes", 1000L * rep);
        r.set("uncompressed_bytes", 3000L * rep);
        r.set("client_cpu_s", 10.0);
        r.set("server_cpu_s", 12.0 + rep);
        r.set("server_cpu_source", "proc");
        r.absent("parts", "a Null table writes no parts");
        r.absent("rows_per_part", "a Null table writes no parts");
        r.set("verdict", verdict);
        r.set("verdict_detail", "synthetic");
        r.set("inflight_budget_bytes", 240L << 20);
        r.set("sizing_rule_bytes", 240L << 20);
        r.cpuBound(2, true);
        return r;
    }

    /** An arm of axis values, in the order given (name, value, name, value...). */
    public static Map<String, Object> arm(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
