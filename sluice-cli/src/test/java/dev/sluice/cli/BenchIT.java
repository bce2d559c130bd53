package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.kafka.it.TestKafka;
import dev.sluice.rigs.Jsonl;
import dev.sluice.rigs.RecordSchema;
import dev.sluice.rigs.Stats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * {@code sluice bench all --quick}, run once as users run it (the shaded jar) against the private
 * ClickHouse and Kafka: every record follows the schema, every rig ran, the arms that cannot run or
 * do not deliver say why; the report opens in a real headless Chromium without console errors,
 * every chart renders series of the expected length, and every table equals the JSONL it came from
 * (recomputed here from the raw records).
 */
class BenchIT {
    @TempDir static Path dir;

    private static Path out;
    private static String stdout;
    private static List<Map<String, Object>> records;

    @BeforeAll
    static void runEveryRigQuickly() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("CLICKHOUSE_URL", TestServer.url());
        for (String k : List.of("CLICKHOUSE_HTTP_URL", "CLICKHOUSE_PID", "CLICKHOUSE_CLIENT_BIN")) {
            String v = TestServer.env(k);
            if (v != null) {
                env.put(k, v);
            }
        }
        env.put("KAFKA_BOOTSTRAP_SERVERS", TestKafka.bootstrapServers());
        out = dir.resolve("quick");
        Result r = sluice(env, 20, "bench", "all", "--quick", "--out", out.toString());
        assertThat(r.exit).as(r.output()).isZero();
        stdout = r.stdout;
        records = Jsonl.read(out.resolve(Jsonl.FILE_NAME));
    }

    record Result(int exit, String stdout, String stderr) {
        String output() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    /** The shaded jar with a heap for the rigs' data, and the repository as SLUICE_HOME. */
    static Result sluice(Map<String, String> env, int minutes, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "--enable-native-access=ALL-UNNAMED",
                                "-Xmx2g",
                                "-Dsluice.home=" + Path.of("").toAbsolutePath().getParent(),
                                "-jar",
                                System.getProperty("sluice.cli.jar")));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("CLICKHOUSE_URL");
        pb.environment().putAll(env);
        Path o = Files.createTempFile(dir, "out", ".txt");
        Path e = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(o.toFile()).redirectError(e.toFile());
        Process p = pb.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        return new Result(
                p.isAlive() ? -1 : p.exitValue(),
                Files.readString(o, StandardCharsets.UTF_8),
                Files.readString(e, StandardCharsets.UTF_8));
    }

    private static List<Map<String, Object>> of(String rig) {
        return records.stream().filter(r -> rig.equals(r.get("rig"))).toList();
    }

    private static Map<?, ?> map(Object o) {
        return (Map<?, ?>) o;
    }

    @Test
    void everyRigRanAndEveryRecordFollowsTheSchema() {
        assertThat(records.stream().map(r -> (String) r.get("rig")).distinct())
                .containsExactlyInAnyOrderElementsOf(RecordSchema.RIGS);
        String version;
        try (var c = TestServer.connect()) {
            version = String.valueOf(c.queryRows("SELECT version()").get(0).get(0));
        }
        for (Map<String, Object> r : records) {
            assertThat(r.get("server_version")).isEqualTo(version);
            assertThat(r.get("git_commit")).asString().matches("[0-9a-f]{40}(-dirty)?");
            if ("ok".equals(r.get("status"))) {
                assertThat(((Number) r.get("rows")).longValue())
                        .as(r.get("arm_label").toString())
                        .isPositive();
                assertThat(((Number) r.get("rows_per_s")).doubleValue()).isPositive();
                assertThat(((Number) r.get("server_cpu_s")).doubleValue()).isPositive();
                assertThat(r.get("server_cpu_source")).isEqualTo("proc");
                assertThat(((Number) r.get("cpu_bound_fraction")).doubleValue()).isPositive();
            }
        }
        // progress on the terminal: arm k of n, rep, rate, ETA
        assertThat(stdout)
                .contains("saturation arm 1/")
                .contains("rep 1/1")
                .contains("rows/s")
                .contains("ETA");
        assertThat(out.resolve("report.html")).exists();
    }

    @Test
    void pipelineRigsHaveAVerdictOnEveryRepetition() {
        Set<String> labels = Set.of("sink", "generator", "indeterminate-checkpoint", "budget");
        for (String rig : List.of("saturation", "kafka")) {
            List<Map<String, Object>> ok =
                    of(rig).stream().filter(r -> "ok".equals(r.get("status"))).toList();
            assertThat(ok).as(rig).isNotEmpty();
            for (Map<String, Object> r : ok) {
                assertThat(labels).contains((String) r.get("verdict"));
                assertThat((String) r.get("verdict_detail")).isNotBlank();
                assertThat(((Number) r.get("inflight_budget_bytes")).longValue())
                        .isGreaterThanOrEqualTo(((Number) r.get("sizing_rule_bytes")).longValue());
            }
        }
        Map<String, Object> paced =
                of("kafka").stream()
                        .filter(r -> map(r.get("arm")).get("mode").equals("paced"))
                        .findFirst()
                        .orElseThrow();
        assertThat(paced.get("status")).as(paced.toString()).isEqualTo("ok");
        assertThat(map(paced.get("extra")).get("latency_p99_s")).isInstanceOf(Number.class);
        assertThat(((Number) map(paced.get("extra")).get("latency_rows")).longValue()).isPositive();
    }

    @Test
    void armsThatCannotRunOrDoNotDeliverSayWhy() {
        assertThat(of("saturation"))
                .anySatisfy(
                        r -> {
                            assertThat(r.get("status")).isEqualTo("unsupported");
                            assertThat((String) r.get("reason"))
                                    .contains("native protocol carries Native blocks only");
                        });
        assertThat(of("saturation"))
                .anySatisfy(
                        r ->
                                assertThat((String) r.get("reason"))
                                        .contains("has no async_insert setting"));
        assertThat(of("formats"))
                .anySatisfy(
                        r ->
                                assertThat((String) r.get("reason"))
                                        .contains("reads TSKV but Sluice has no encoder"));
        // client-v2 with its defaults reports success against 18.16 and lands nothing: failed, with
        // what it said
        Map<String, Object> v2 =
                of("peers").stream()
                        .filter(
                                r ->
                                        map(r.get("arm"))
                                                .get("peer")
                                                .equals("client-v2-pojo-defaults"))
                        .findFirst()
                        .orElseThrow();
        assertThat(v2.get("status")).isEqualTo("failed");
        assertThat((String) v2.get("reason"))
                .contains("without an error")
                .contains("but 0 of 200,000 rows landed");
        // the arms that deliver landed every row, the same rows as the reference
        for (String peer :
                List.of(
                        "sluice-native",
                        "sluice-http",
                        "sluice-load-tsv",
                        "sluice-load-ndjson",
                        "clickhouse-client-native",
                        "client-v2-pojo")) {
            Map<String, Object> r =
                    of("peers").stream()
                            .filter(x -> map(x.get("arm")).get("peer").equals(peer))
                            .findFirst()
                            .orElseThrow();
            assertThat(r.get("status")).as(peer + ": " + r.get("reason")).isEqualTo("ok");
            assertThat(map(r.get("extra")).get("rows_landed")).isEqualTo(200_000);
            assertThat(map(r.get("extra")).get("content_matches_reference")).isEqualTo(true);
        }
    }

    @Test
    void theReportRendersInARealBrowserAndItsTablesAreTheJsonl() throws Exception {
        ChromeDriver browser =
                HeadlessChromium.start(Files.createDirectories(dir.resolve("chromium-profile")));
        try {
            browser.get(out.resolve("report.html").toUri().toString());
            JavascriptExecutor js = browser;
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> charts =
                    (List<Map<String, Object>>)
                            js.executeScript(
                                    "return window.BENCH_REPORT.charts.map(function (c) {"
                                            + " var el = document.getElementById('chart-' + c.id);"
                                            + " var inst = echarts.getInstanceByDom(el);"
                                            + " var canvas = el.querySelector('canvas');"
                                            + " return {id: c.id,"
                                            + "  categories: c.option.xAxis.data.length,"
                                            + "  types: c.option.series.map(function (s) { return s.type; }),"
                                            + "  embedded: c.option.series.map(function (s) { return s.data.length; }),"
                                            + "  rendered: inst ? inst.getOption().series.map(function (s) { return s.data.length; }) : null,"
                                            + "  scatter: c.option.series.filter(function (s) { return s.type === 'scatter'; })"
                                            + "     .map(function (s) { return s.data.map(function (p) { return p[1]; }); }),"
                                            + "  canvas: canvas ? canvas.width * canvas.height : 0}; });");
            assertThat(charts).hasSizeGreaterThanOrEqualTo(6);
            List<WebElement> chartDivs = browser.findElements(By.cssSelector("div.chart"));
            assertThat(chartDivs).hasSameSizeAs(charts);
            for (Map<String, Object> c : charts) {
                String id = (String) c.get("id");
                assertThat(((Number) c.get("canvas")).longValue())
                        .as(id + " drew a canvas")
                        .isPositive();
                assertThat(c.get("rendered"))
                        .as(id + " rendered series")
                        .isEqualTo(c.get("embedded"));
                List<?> types = (List<?>) c.get("types");
                List<?> lengths = (List<?>) c.get("embedded");
                long categories = ((Number) c.get("categories")).longValue();
                assertThat(categories).as(id).isPositive();
                for (int i = 0; i < types.size(); i++) {
                    if (!"scatter".equals(types.get(i))) {
                        assertThat(((Number) lengths.get(i)).longValue())
                                .as(id + " series " + i)
                                .isEqualTo(categories);
                    }
                }
                // every verdict point is a repetition of an arm in the chart's table, with its
                // value
                WebElement table =
                        browser.findElement(By.cssSelector("table[data-section='" + id + "']"));
                long expectedPoints = 0;
                List<Double> values = new ArrayList<>();
                for (WebElement row : table.findElements(By.cssSelector("tbody tr"))) {
                    for (Map<String, Object> r : recordsOf(row)) {
                        if ("ok".equals(r.get("status")) && r.get("verdict") != null) {
                            expectedPoints++;
                            values.add(metric(r, "rows_per_s"));
                        }
                    }
                }
                List<Double> plotted = new ArrayList<>();
                for (Object s : (List<?>) c.get("scatter")) {
                    for (Object v : (List<?>) s) {
                        plotted.add(((Number) v).doubleValue());
                    }
                }
                if (!plotted.isEmpty() && id.startsWith("sat-") && !id.equals("sat-batch")) {
                    assertThat(plotted).as(id + " verdict points").hasSize((int) expectedPoints);
                    assertThat(new TreeSet<>(plotted)).as(id).isEqualTo(new TreeSet<>(values));
                }
            }
            // every table row equals its records
            List<WebElement> rows = browser.findElements(By.cssSelector("table.data tbody tr"));
            assertThat(rows).hasSizeGreaterThan(20);
            for (WebElement row : rows) {
                List<Map<String, Object>> rs = recordsOf(row);
                String arm = row.getAttribute("data-arm");
                assertThat(rs).as(arm).isNotEmpty();
                List<Map<String, Object>> ok =
                        rs.stream().filter(r -> "ok".equals(r.get("status"))).toList();
                assertThat(row.findElement(By.cssSelector("td.n")).getAttribute("data-n"))
                        .as(arm)
                        .isEqualTo(Integer.toString(ok.size()));
                String status =
                        rs.stream().anyMatch(r -> "failed".equals(r.get("status")))
                                ? "failed"
                                : rs.stream().allMatch(r -> "unsupported".equals(r.get("status")))
                                        ? "unsupported"
                                        : "ok";
                assertThat(row.findElement(By.cssSelector("td.status")).getAttribute("data-status"))
                        .as(arm)
                        .isEqualTo(status);
                for (WebElement cell : row.findElements(By.cssSelector("td.metric"))) {
                    String key = cell.getAttribute("data-metric");
                    List<Double> vs = new ArrayList<>();
                    for (Map<String, Object> r : ok) {
                        Double v = metric(r, key);
                        if (v != null) {
                            vs.add(v);
                        }
                    }
                    Stats s = Stats.of(vs);
                    if (s == null) {
                        assertThat(cell.getAttribute("data-empty"))
                                .as(arm + " " + key)
                                .isEqualTo("1");
                        continue;
                    }
                    double tolerance = Math.abs(s.median()) * 1e-9 + 1e-12;
                    assertThat(Double.parseDouble(cell.getAttribute("data-median")))
                            .as(arm + " " + key)
                            .isCloseTo(s.median(), within(tolerance));
                    assertThat(Double.parseDouble(cell.getAttribute("data-min")))
                            .as(arm + " " + key)
                            .isCloseTo(s.min(), within(tolerance));
                    assertThat(Double.parseDouble(cell.getAttribute("data-max")))
                            .as(arm + " " + key)
                            .isCloseTo(s.max(), within(tolerance));
                    assertThat(cell.getAttribute("data-count")).isEqualTo(Integer.toString(s.n()));
                }
            }
            List<LogEntry> errors =
                    browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                            .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                            .toList();
            assertThat(errors).as("console errors").isEmpty();
        } finally {
            browser.quit();
        }
    }

    /** The JSONL records of a table row, found by its rig and arm. */
    private static List<Map<String, Object>> recordsOf(WebElement row) {
        String rig = row.getAttribute("data-rig");
        String arm = row.getAttribute("data-arm");
        return records.stream()
                .filter(r -> rig.equals(r.get("rig")) && arm.equals(r.get("arm_label")))
                .toList();
    }

    /** A table metric, computed here from the raw record (not by the report's code). */
    private static Double metric(Map<String, Object> r, String key) {
        return switch (key) {
            case "client_us_per_row" -> perRow(r, "client_cpu_s", 1e6);
            case "server_us_per_row" -> perRow(r, "server_cpu_s", 1e6);
            case "wire_bytes_per_row" -> perRow(r, "wire_bytes", 1);
            default -> {
                Object v = r.containsKey(key) ? r.get(key) : map(r.get("extra")).get(key);
                yield v instanceof Number n ? n.doubleValue() : null;
            }
        };
    }

    private static Double perRow(Map<String, Object> r, String field, double scale) {
        if (!(r.get(field) instanceof Number v)
                || !(r.get("rows") instanceof Number rows)
                || rows.doubleValue() == 0) {
            return null;
        }
        return v.doubleValue() / rows.doubleValue() * scale;
    }

    @Test
    void withoutTheServersPidItsCpuComesFromTheQueryLog() throws Exception {
        Path elsewhere = dir.resolve("query-log");
        Map<String, String> env = new HashMap<>();
        env.put("CLICKHOUSE_URL", TestServer.url());
        env.put("CLICKHOUSE_PID", ""); // as for a server on another host
        Result r =
                sluice(
                        env,
                        5,
                        "bench",
                        "compression",
                        "--quick",
                        "--data",
                        "low",
                        "--codec",
                        "lz4",
                        "--out",
                        elsewhere.toString());
        assertThat(r.exit).as(r.output()).isZero();
        List<Map<String, Object>> rs = Jsonl.read(elsewhere.resolve(Jsonl.FILE_NAME));
        assertThat(rs)
                .singleElement()
                .satisfies(
                        x -> {
                            assertThat(x.get("status")).isEqualTo("ok");
                            assertThat(x.get("server_cpu_source")).isEqualTo("query_log");
                            assertThat(((Number) x.get("server_cpu_s")).doubleValue()).isPositive();
                            assertThat(x.get("cpu_bound_rows_per_s")).isNull();
                            assertThat(map(x.get("null_reasons")).get("cpu_bound_rows_per_s"))
                                    .asString()
                                    .contains("not on this host");
                        });
    }

    @Test
    void aReportComparesRunsAndBadInputIsNamed() throws Exception {
        Path copy = Files.createDirectories(dir.resolve("second-run"));
        Files.copy(out.resolve(Jsonl.FILE_NAME), copy.resolve(Jsonl.FILE_NAME));
        Path html = dir.resolve("compare.html");
        Result r =
                sluice(
                        Map.of(),
                        2,
                        "bench",
                        "report",
                        out.toString(),
                        copy.toString(),
                        "--out",
                        html.toString());
        assertThat(r.exit).as(r.output()).isZero();
        String page = Files.readString(html);
        assertThat(page)
                .contains("data-run=\"quick\"")
                .contains("data-run=\"second-run\"")
                .contains("<th>run</th>");

        Result missing =
                sluice(
                        Map.of(),
                        2,
                        "bench",
                        "report",
                        dir.resolve("nothing").toString(),
                        "--out",
                        html.toString());
        assertThat(missing.exit).isEqualTo(2);
        assertThat(missing.stderr)
                .contains("no such results directory or file: " + dir.resolve("nothing"));

        Result again =
                sluice(
                        Map.of("CLICKHOUSE_URL", TestServer.url()),
                        2,
                        "bench",
                        "saturation",
                        "--quick",
                        "--out",
                        out.toString());
        assertThat(again.exit).isEqualTo(1);
        assertThat(again.stderr)
                .contains(
                        out.resolve(Jsonl.FILE_NAME)
                                + " exists: choose another --out, or --append");

        Result bad =
                sluice(
                        Map.of("CLICKHOUSE_URL", TestServer.url()),
                        2,
                        "bench",
                        "saturation",
                        "--threads",
                        "0",
                        "--out",
                        dir.resolve("bad").toString());
        assertThat(bad.exit).isEqualTo(2);
        assertThat(bad.stderr).contains("--threads: '0' is not a positive whole number");
    }
}
