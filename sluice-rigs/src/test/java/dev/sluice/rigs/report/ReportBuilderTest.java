package dev.sluice.rigs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rigs.BenchRecord;
import dev.sluice.rigs.Jsonl;
import dev.sluice.rigs.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report from synthetic records: offline, tables equal to the data, readings and warnings. */
class ReportBuilderTest {
    @TempDir Path dir;

    private static final Map<String, Object> BASE =
            TestRecords.arm("threads", 1, "engine", "Null", "format", "Native");

    private static Map<String, Object> arm(int threads) {
        return TestRecords.arm("threads", threads, "engine", "Null", "format", "Native");
    }

    /**
     * threads 1: 400k, 2: 500k (the ceiling, sink), 3: 450k (below it: bracketed); a failed peer
     * arm.
     */
    private Path run(String name, double scale) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Jsonl out = new Jsonl(d.resolve(Jsonl.FILE_NAME));
        double[][] rates = {
            {400_000, 410_000, 390_000}, {500_000, 520_000, 480_000}, {450_000, 300_000, 460_000}
        };
        for (int rep = 1; rep <= 3; rep++) {
            for (int t = 1; t <= 3; t++) {
                String verdict = t == 1 ? "generator" : "sink";
                out.append(
                        TestRecords.saturation(
                                        arm(t), BASE, rep, rates[t - 1][rep - 1] * scale, verdict)
                                .fields());
            }
        }
        BenchRecord failed =
                new BenchRecord(
                        "peers",
                        TestRecords.arm("peer", "client-v2-pojo-defaults", "rows", 100),
                        1,
                        TestRecords.provenance()
                                .withSettings(
                                        Map.of(
                                                "base_arm",
                                                TestRecords.arm(
                                                        "peer", "sluice-native", "rows", 100))));
        out.append(
                failed.failed("every insert completed without an error — but 0 of 100 rows landed")
                        .fields());
        BenchRecord unsupported =
                new BenchRecord(
                        "saturation",
                        TestRecords.arm("threads", 1, "engine", "Null", "format", "RowBinary"),
                        1,
                        TestRecords.provenance().withSettings(Map.of("base_arm", BASE)));
        out.append(
                unsupported.unsupported("the native protocol carries Native blocks only").fields());
        return d;
    }

    @Test
    void theReportIsSelfContainedAndItsTablesAreTheData() throws Exception {
        Path d = run("run-a", 1.0);
        Path html = dir.resolve("report.html");
        ReportBuilder.write(List.of(d), html);
        String page = Files.readString(html);

        // offline: the chart library is inlined, nothing is fetched
        assertThat(page).contains("echarts").doesNotContain("<script src").doesNotContain("<link");
        assertThat(page.length()).isGreaterThan(900_000);
        // the threads=2 row of the threads chart's table: median 500,000 over 3 reps,
        // 480,000–520,000
        Matcher row =
                Pattern.compile(
                                "<tr data-run=\"run-a\" data-rig=\"saturation\" data-arm=\"threads=2 engine=Null format=Native\">(.*?)</tr>")
                        .matcher(page);
        assertThat(row.find()).isTrue();
        assertThat(row.group(1))
                .contains(
                        "data-metric=\"rows_per_s\" data-median=\"500000.0\" data-min=\"480000.0\" data-max=\"520000.0\" data-count=\"3\">500,000 [480,000–520,000]")
                .contains("data-n=\"3\"")
                .contains("sink 3");
        // the readings come from the data
        assertThat(page)
                .contains(
                        "Ceiling: 500,000 rows/s at threads=2 format=Native, sink-limited in 3 of 3 reps; bracketed: threads=3 sits 10% lower");
        // warnings: generator-limited, spread over 30%, the failed peer arm with what happened, the
        // unsupported arm
        assertThat(page)
                .contains(
                        "saturation [threads=1 engine=Null format=Native]: generator-limited in 3 of 3 reps")
                .contains(
                        "saturation [threads=3 engine=Null format=Native]: spread 36% over 3 reps")
                .contains(
                        "peers [peer=client-v2-pojo-defaults rows=100] FAILED: every insert completed without an error — but 0 of 100 rows landed")
                .contains("not run: the native protocol carries Native blocks only");
        // the failed arm stays in the peers table and on its chart
        assertThat(page).contains("data-status=\"failed\">failed: every insert completed");
        assertThat(page).contains("\"formatter\":\"failed\"");
    }

    @Test
    void chartsCarryOneValuePerCategoryAndEveryRepetitionsVerdict() throws Exception {
        Path d = run("run-a", 1.0);
        ReportBuilder b = new ReportBuilder(RunRecords.load(List.of(d)));
        SectionView threads =
                b.sections().stream()
                        .filter(v -> v.section.id().equals("sat-threads"))
                        .findFirst()
                        .orElseThrow();
        Map<String, Object> chart = threads.chart("footer");
        @SuppressWarnings("unchecked")
        Map<String, Object> option = (Map<String, Object>) chart.get("option");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> series = (List<Map<String, Object>>) option.get("series");
        assertThat(threads.categories).containsExactly("1", "2", "3");
        assertThat(series.get(0).get("data")).isEqualTo(List.of(400_000.0, 500_000.0, 450_000.0));
        assertThat(series.stream().map(s -> s.get("name")))
                .containsExactly("Native", "verdict: generator", "verdict: sink");
        assertThat((List<?>) series.get(1).get("data")).hasSize(3);
        assertThat((List<?>) series.get(2).get("data")).hasSize(6);
    }

    @Test
    void runsAreComparedSideBySide() throws Exception {
        Path a = run("machine-a", 1.0);
        Path b = run("machine-b", 2.0);
        Path html = dir.resolve("both.html");
        ReportBuilder.write(List.of(a, b.resolve(Jsonl.FILE_NAME)), html);
        String page = Files.readString(html);
        assertThat(page)
                .contains("<th>run</th>")
                .contains("data-run=\"machine-a\"")
                .contains("data-run=\"machine-b\"");
        assertThat(page)
                .contains("machine-a / Native — ceiling: 500,000 rows/s")
                .contains("machine-b / Native — ceiling: 1,000,000 rows/s");
        List<String> runs = new ArrayList<>();
        Matcher m = Pattern.compile("\"name\":\"(machine-[ab])\"").matcher(page);
        while (m.find()) {
            runs.add(m.group(1));
        }
        assertThat(runs).contains("machine-a", "machine-b");
    }

    @Test
    void aMissingResultsFileIsNamed() {
        assertThatThrownBy(
                        () ->
                                ReportBuilder.write(
                                        List.of(dir.resolve("nope")), dir.resolve("r.html")))
                .hasMessage("no such results directory or file: " + dir.resolve("nope"));
    }
}
