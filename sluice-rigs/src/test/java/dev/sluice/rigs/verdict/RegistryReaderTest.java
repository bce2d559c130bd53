package dev.sluice.rigs.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.metrics.Probes;
import org.junit.jupiter.api.Test;

/** The rig reads the runtime's own series by the names docs/metrics.md gives them. */
class RegistryReaderTest {

    @Test
    void theSampleComesFromThePipelinesRegistry() {
        Probes probes =
                new Probes() {
                    @Override
                    public long inflightBytes() {
                        return 1234;
                    }

                    @Override
                    public long budgetBytes() {
                        return 99_999;
                    }

                    @Override
                    public boolean paused() {
                        return true;
                    }

                    @Override
                    public long pendingBatches() {
                        return 4;
                    }

                    @Override
                    public double watermarkAgeSeconds() {
                        return 0;
                    }

                    @Override
                    public long ownedPartitions() {
                        return 1;
                    }

                    @Override
                    public long queuedBatches(int shard) {
                        return 0;
                    }
                };
        Metrics m = new Metrics("p", 2, probes);
        m.shard(0).records.inc(700);
        m.shard(1).records.inc(300);
        m.pauseEvents.inc(3);
        m.presorted(Presorter.Outcome.SORTED).inc(5);
        m.presortSkipped().inc(2);

        RegistryReader.Values v = new RegistryReader(m.registry()).read();
        CounterSample s = v.sample();

        assertThat(s.sinkRecords()).isEqualTo(1000); // summed over the two shards
        assertThat(s.pauseEvents()).isEqualTo(3);
        assertThat(s.paused()).isTrue();
        assertThat(s.pendingBatches()).isEqualTo(4);
        assertThat(s.inflightBytes()).isEqualTo(1234);
        assertThat(v.get("etl_inflight_budget_bytes")).isEqualTo(99_999);
        assertThat(v.get("etl_sink_presort_blocks_total")).isEqualTo(7);
        assertThat(v.get("etl_sink_presort_blocks{outcome=sorted}")).isEqualTo(5);
        assertThat(v.get("etl_sink_presort_blocks{outcome=skipped_no_backlog}")).isEqualTo(2);
        assertThatThrownBy(() -> v.get("etl_no_such_series_total"))
                .hasMessageContaining("exports no series etl_no_such_series_total");
    }
}
