package dev.sluice.connect;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The context of a sink task driven by a test or the benchmark itself, without a worker: nothing to
 * rewind, pause or commit on request; the errant-record reporter it was given, or none.
 */
public final class StandaloneTaskContext implements SinkTaskContext {
    private final ErrantRecordReporter reporter;

    /**
     * @param reporter what the task reports bad records to; null for a worker without one
     */
    public StandaloneTaskContext(ErrantRecordReporter reporter) {
        this.reporter = reporter;
    }

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
        return Set.of();
    }

    @Override
    public void pause(TopicPartition... partitions) {}

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return reporter;
    }

    @Override
    public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
        throw new UnsupportedOperationException("no plugin metrics without a worker");
    }
}
