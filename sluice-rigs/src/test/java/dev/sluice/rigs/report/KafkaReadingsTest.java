package dev.sluice.rigs.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rigs.BenchRecord;
import dev.sluice.rigs.Jsonl;
import dev.sluice.rigs.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka rig's readings: the Kafka path beside the file path, and latency against its target.
 */
class KafkaReadingsTest {
    @TempDir Path dir;

    private static final Map<String, Object> BASE = arm("backlog", 1, "-");

    private static Map<String, Object> arm(String mode, int threads, String rate) {
        return TestRecords.arm(
                "mode",
                mode,
                "threads",
                threads,
                "partitions",
                4,
                "records",
                1000000,
                "rate",
                rate,
                "linger",
                "1s");
    }

    private static BenchRecord record(Map<String, Object> arm, int rep, double rate) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("base_arm", BASE);
        BenchRecord r =
                new BenchRecord("kafka", arm, rep, TestRecords.provenance().withSettings(settings));
        r.throughput(Math.round(rate * 10), 10.0);
        r.set("wire_bytes", 1000L);
        r.set("uncompressed_bytes", 3000L);
        r.set("client_cpu_s", 5.0);
        r.set("server_cpu_s", 6.0);
        r.set("server_cpu_source", "proc");
        r.absent("parts", "synthetic");
        r.absent("rows_per_part", "synthetic");
        r.set("verdict", "sink");
        r.set("verdict_detail", "synthetic");
        r.set("inflight_budget_bytes", 240L << 20);
        r.set("sizing_rule_bytes", 240L << 20);
        r.cpuBound(2, true);
        return r;
    }

    @Test
    void theKafkaPathIsReadAsAShareOfTheFilePathAndLatencyAgainstLingerPlusOneSecond()
            throws Exception {
        Path d = Files.createDirectories(dir.resolve("run"));
        Jsonl out = new Jsonl(d.resolve(Jsonl.FILE_NAME));
        for (int rep = 1; rep <= 3; rep++) {
            out.append(record(arm("backlog", 1, "-"), rep, 180_000 + rep * 1000).fields());
            out.append(record(arm("file", 1, "-"), rep, 200_000 + rep * 1000).fields());
            out.append(record(arm("backlog", 2, "-"), rep, 100_000).fields());
            out.append(record(arm("file", 2, "-"), rep, 200_000).fields());
            BenchRecord paced = record(arm("paced", 1, "half"), rep, 90_000);
            paced.extra("latency_p50_s", 0.6);
            paced.extra("latency_p99_s", 1.4 + rep * 0.1);
            out.append(paced.fields());
        }
        Path md = dir.resolve("summary.md");
        ReportBuilder.writeMarkdown(List.of(d), md);
        String text = Files.readString(md);
        // medians: threads=1 182k / 202k = 0.90 (meets); threads=2 100k / 200k = 0.50 (below)
        assertThat(text)
                .contains("threads=1: Kafka 182")
                .contains("0.90× the file path's 202")
                .contains("meets the target ≥ 0.9×")
                .contains("threads=2: Kafka 100")
                .contains("0.50× the file path's 200")
                .contains("BELOW the target ≥ 0.9×");
        // the paced arm's p99 median is 1.6 s: within linger 1 s + 1 s
        assertThat(text).contains("p99 1.600 s").contains("within the target p99 ≤ linger + 1 s");
        // the paced arm is not in the throughput chart, nor the throughput arms in the latency one
        Path html = dir.resolve("report.html");
        ReportBuilder.write(List.of(d), html);
        assertThat(Files.readString(html)).contains("beside the same records from a file");
    }
}
