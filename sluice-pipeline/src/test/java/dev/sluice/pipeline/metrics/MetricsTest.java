package dev.sluice.pipeline.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.sink.ErrorClass;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.testing.NoProbes;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private static String text(Metrics m) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, m.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void severalPipelinesInOneJvmEachHaveTheirOwnRegistry() throws IOException {
        Metrics a = new Metrics("a", 2, new NoProbes());
        Metrics b = new Metrics("b", 1, new NoProbes());
        a.shard(1).records.inc(5);
        b.sourceRecords.inc(3);
        a.seals(SealReason.LINGER).inc();
        a.shard(0).errors(ErrorClass.SERVER).inc();

        assertThat(text(a))
                .contains("etl_sink_records_total{pipeline=\"a\",shard=\"1\"} 5.0")
                .contains("etl_sink_seals_total{pipeline=\"a\",reason=\"linger\"} 1.0")
                .contains("etl_sink_errors_total{class=\"server\",pipeline=\"a\",shard=\"0\"} 1.0")
                .doesNotContain("pipeline=\"b\"");
        assertThat(text(b)).contains("etl_source_records_total{pipeline=\"b\"} 3.0");
    }

    @Test
    void everySeriesOfDesignMdIsRegisteredAtBuildTime() throws IOException {
        Metrics m = new Metrics("p", 1, new NoProbes());
        List<String> names = new ArrayList<>();
        for (MetricSnapshot s : m.registry().scrape()) {
            names.add(s.getMetadata().getPrometheusName());
        }
        assertThat(names)
                .contains(
                        "etl_sink_records",
                        "etl_sink_bytes",
                        "etl_sink_batches",
                        "etl_sink_insert_duration_seconds",
                        "etl_sink_retries",
                        "etl_sink_errors",
                        "etl_source_records",
                        "etl_backpressure_paused",
                        "etl_backpressure_pause_events",
                        "etl_inflight_bytes",
                        "etl_checkpoint_pending_batches",
                        "etl_checkpoint_commits",
                        "etl_checkpoint_watermark_age_seconds",
                        "etl_records_skipped",
                        "etl_dead_letter_records",
                        "etl_e2e_latency_seconds");
    }

    @Test
    void docsMetricsMdListsExactlyTheRegisteredSeries() throws IOException {
        Path doc = Path.of("..", "docs", "metrics.md");
        String all = Files.readString(doc);
        // The core series; the Kafka source's own follow under their heading.
        int kafka = all.indexOf("## Kafka source");
        String table = kafka < 0 ? all : all.substring(0, kafka);
        List<String> documented = new ArrayList<>();
        Matcher row = Pattern.compile("(?m)^\\| `(etl_[a-z0-9_]+)`").matcher(table);
        while (row.find()) {
            documented.add(row.group(1));
        }
        String exposed = text(new Metrics("p", 1, new NoProbes()));
        List<String> registered = new ArrayList<>();
        Matcher type = Pattern.compile("(?m)^# TYPE (etl_[a-z0-9_]+) ").matcher(exposed);
        while (type.find()) {
            registered.add(type.group(1));
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(registered);
    }
}
