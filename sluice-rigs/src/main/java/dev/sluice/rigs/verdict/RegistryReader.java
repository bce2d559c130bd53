package dev.sluice.rigs.verdict;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a pipeline's {@code etl_*} series from its registry ({@code Pipeline.registry()}), summed
 * over their labels (shards): the same numbers a Prometheus scrape of {@code /metrics} shows. A
 * counter with an {@code outcome} label is also read per outcome, as {@code name{outcome=value}}
 * (without {@code _total}).
 */
public final class RegistryReader {
    private final PrometheusRegistry registry;

    public RegistryReader(PrometheusRegistry registry) {
        this.registry = registry;
    }

    /** Every counter and gauge now, by exposition name without {@code _total}. */
    public Values read() {
        MetricSnapshots snapshots = registry.scrape();
        Map<String, Double> values = new HashMap<>();
        for (MetricSnapshot s : snapshots) {
            String name = s.getMetadata().getPrometheusName();
            double sum = 0;
            if (s instanceof CounterSnapshot c) {
                for (CounterSnapshot.CounterDataPointSnapshot p : c.getDataPoints()) {
                    sum += p.getValue();
                    String outcome = p.getLabels().get("outcome");
                    if (outcome != null) {
                        values.merge(name + "{outcome=" + outcome + "}", p.getValue(), Double::sum);
                    }
                }
            } else if (s instanceof GaugeSnapshot g) {
                for (GaugeSnapshot.GaugeDataPointSnapshot p : g.getDataPoints()) {
                    sum += p.getValue();
                }
            } else {
                continue;
            }
            values.put(name, sum);
        }
        return new Values(System.nanoTime(), values);
    }

    /** One scrape's values. */
    public record Values(long nanos, Map<String, Double> byName) {
        /**
         * The series {@code name} (with or without {@code _total}), summed over labels.
         *
         * @throws IllegalStateException when the pipeline does not export it: the runtime's metric
         *     names changed and the rig must follow (docs/metrics.md)
         */
        public long get(String name) {
            String key = name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
            Double v = byName.get(key);
            if (v == null) {
                throw new IllegalStateException(
                        "the pipeline exports no series " + name + " (docs/metrics.md)");
            }
            return Math.round(v);
        }

        /** The sample the verdict rule reads. */
        public CounterSample sample() {
            return new CounterSample(
                    nanos,
                    get("etl_sink_records_total"),
                    get("etl_backpressure_pause_events_total"),
                    get("etl_backpressure_paused") != 0,
                    get("etl_checkpoint_pending_batches"),
                    get("etl_inflight_bytes"));
        }
    }
}
