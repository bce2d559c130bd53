package dev.sluice.rigs.report;

import dev.sluice.rigs.Jsonl;
import dev.sluice.rigs.RecordSchema;
import dev.sluice.rigs.Stats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report: one self-contained HTML file, built from results files only. The chart library
 * (ECharts, from its WebJar) is inlined, so the page works offline. Per rig: charts with their data
 * tables (median, n, min–max, spread) and a reading generated from the data; a provenance block;
 * warnings.
 */
public final class ReportBuilder {
    /** The WebJar's copy of ECharts on the classpath. */
    static final String ECHARTS = "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";

    static final double SPREAD_WARNING = 0.30;

    private final List<RunRecords> runs;

    public ReportBuilder(List<RunRecords> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no results to report");
        }
        this.runs = runs;
    }

    /** Builds the report of {@code inputs} (directories or results files) into {@code out}. */
    public static void write(List<Path> inputs, Path out) throws IOException {
        String html = new ReportBuilder(RunRecords.load(inputs)).html();
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = Files.createTempFile(parent, ".report", ".html");
        Files.writeString(tmp, html, StandardCharsets.UTF_8);
        Files.move(
                tmp,
                out,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The Markdown summary of {@code inputs} (for the README) into {@code out}. */
    public static void writeMarkdown(List<Path> inputs, Path out) throws IOException {
        ReportBuilder b = new ReportBuilder(RunRecords.load(inputs));
        Files.writeString(out, MarkdownSummary.of(b.runs, b.sections()), StandardCharsets.UTF_8);
    }

    /** The sections with something in them, per rig, in rig order. */
    List<SectionView> sections() {
        List<SectionView> out = new ArrayList<>();
        for (String rig : RecordSchema.RIGS) {
            for (Section s : RigSections.of(rig)) {
                SectionView v = new SectionView(s, runs);
                if (!v.rows.isEmpty()) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    public String html() throws IOException {
        List<SectionView> sections = sections();
        StringBuilder body = new StringBuilder();
        body.append("<h1>Sluice bench report</h1>\n");
        body.append("<p class=\"sub\">Generated ")
                .append(Fmt.html(Instant.now().toString()))
                .append(" by <code>sluice bench report</code> from ")
                .append(runs.size())
                .append(
                        " results file(s). Every figure below is computed from the JSONL records; nothing is typed by hand.</p>\n");
        provenance(body);
        warnings(body);
        List<Object> charts = new ArrayList<>();
        String rig = null;
        for (SectionView v : sections) {
            if (!v.section.rig().equals(rig)) {
                if (rig != null) {
                    body.append("</section>\n");
                }
                rig = v.section.rig();
                body.append("<section class=\"rig\" id=\"rig-")
                        .append(rig)
                        .append("\">\n<h2>")
                        .append(rig)
                        .append("</h2>\n");
            }
            body.append("<div class=\"section\" id=\"")
                    .append(v.section.id())
                    .append("\">\n<h3>")
                    .append(Fmt.html(v.section.title()))
                    .append("</h3>\n");
            if (v.section.note() != null) {
                body.append("<p class=\"note\">")
                        .append(Fmt.html(v.section.note()))
                        .append("</p>\n");
            }
            Map<String, Object> chart = v.chart(footer(v));
            if (chart != null) {
                charts.add(chart);
                body.append("<div class=\"chart\" id=\"chart-")
                        .append(v.section.id())
                        .append("\" data-chart=\"")
                        .append(v.section.id())
                        .append("\"></div>\n");
                body.append("<p class=\"footer\">")
                        .append(Fmt.html(chart.get("footer")))
                        .append("</p>\n");
            }
            body.append("<p class=\"reading\">").append(Fmt.html(Readings.of(v))).append("</p>\n");
            table(body, v);
            body.append("</div>\n");
        }
        if (rig != null) {
            body.append("</section>\n");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("charts", charts);
        String json = Jsonl.toJson(data).replace("</", "<\\/");
        StringBuilder page = new StringBuilder(1 << 21);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Sluice bench report</title>\n<style>\n")
                .append(resource("report.css"))
                .append("</style>\n<script>\n")
                .append(echarts())
                .append("\n</script>\n</head>\n<body>\n")
                .append(body)
                .append("<script type=\"application/json\" id=\"bench-data\">")
                .append(json)
                .append("</script>\n")
                .append("<script>\n")
                .append(resource("report.js"))
                .append("</script>\n</body>\n</html>\n");
        return page.toString();
    }

    private void table(StringBuilder b, SectionView v) {
        List<Metric> metrics = v.section.tableMetrics();
        b.append("<table class=\"data\" data-section=\"")
                .append(v.section.id())
                .append("\">\n<thead><tr>");
        if (v.manyRuns) {
            b.append("<th>run</th>");
        }
        b.append("<th>arm</th><th>status</th><th>n</th>");
        for (Metric m : metrics) {
            b.append("<th>").append(Fmt.html(m.label())).append(" median [min–max]</th>");
        }
        b.append("<th>spread</th><th>verdicts</th></tr></thead>\n<tbody>\n");
        for (ArmRow row : v.rows) {
            b.append("<tr data-run=\"")
                    .append(Fmt.html(row.run))
                    .append("\" data-rig=\"")
                    .append(Fmt.html(row.rig))
                    .append("\" data-arm=\"")
                    .append(Fmt.html(row.armLabel))
                    .append("\">");
            if (v.manyRuns) {
                b.append("<td>").append(Fmt.html(row.run)).append("</td>");
            }
            b.append("<td class=\"arm\" title=\"")
                    .append(Fmt.html(row.armLabel))
                    .append("\">")
                    .append(Fmt.html(v.shortLabel(row)))
                    .append("</td>");
            String status = row.status();
            b.append("<td class=\"status ")
                    .append(status)
                    .append("\" data-status=\"")
                    .append(status)
                    .append("\">")
                    .append(status);
            if (!status.equals("ok")) {
                b.append(": ").append(Fmt.html(row.reason()));
            }
            b.append("</td><td class=\"n\" data-n=\"")
                    .append(row.ok().size())
                    .append("\">")
                    .append(row.ok().size())
                    .append("</td>");
            for (Metric m : metrics) {
                Stats s = row.stats(m);
                b.append("<td class=\"metric\" data-metric=\"").append(m.key()).append('"');
                if (s == null) {
                    b.append(" data-empty=\"1\">–</td>");
                } else {
                    b.append(" data-median=\"")
                            .append(s.median())
                            .append("\" data-min=\"")
                            .append(s.min())
                            .append("\" data-max=\"")
                            .append(s.max())
                            .append("\" data-count=\"")
                            .append(s.n())
                            .append("\">")
                            .append(Fmt.number(m.key(), s.median()))
                            .append(" [")
                            .append(Fmt.number(m.key(), s.min()))
                            .append("–")
                            .append(Fmt.number(m.key(), s.max()))
                            .append("]</td>");
                }
            }
            Stats first = row.stats(metrics.get(0));
            b.append("<td class=\"spread\">")
                    .append(first == null ? "–" : Fmt.percent(first.spread()))
                    .append("</td>");
            StringBuilder verdicts = new StringBuilder();
            row.verdicts()
                    .forEach(
                            (k, n) ->
                                    verdicts.append(verdicts.isEmpty() ? "" : ", ")
                                            .append(k)
                                            .append(" ")
                                            .append(n));
            b.append("<td class=\"verdicts\">").append(Fmt.html(verdicts)).append("</td></tr>\n");
        }
        b.append("</tbody></table>\n");
    }

    /** fixture · machine · commit · date, as every chart of the saturation study carries. */
    private String footer(SectionView v) {
        Set<String> parts = new LinkedHashSet<>();
        for (ArmRow row : v.rows) {
            for (Map<String, Object> r : row.records) {
                Map<?, ?> settings = (Map<?, ?>) r.get("settings");
                Map<?, ?> machine = (Map<?, ?>) r.get("machine");
                Object fixture =
                        settings.get("fixture") != null
                                ? settings.get("fixture")
                                : settings.get("source");
                parts.add(
                        String.format(
                                Locale.ROOT,
                                "%s · %s cores, %s · ClickHouse %s · commit %s · %s",
                                fixture == null ? r.get("rig") : fixture,
                                machine.get("cores"),
                                machine.get("cpu_model"),
                                r.get("server_version"),
                                shortCommit(r.get("git_commit")),
                                String.valueOf(r.get("started_at")).substring(0, 10)));
            }
        }
        return String.join(" | ", parts);
    }

    private static String shortCommit(Object c) {
        String s = String.valueOf(c);
        return s.length() > 12 && !s.contains("-") ? s.substring(0, 12) : s;
    }

    private void provenance(StringBuilder b) {
        b.append(
                "<section id=\"provenance\"><h2>Provenance</h2>\n<table class=\"prov\"><thead><tr><th>run</th><th>records</th><th>rigs</th><th>commit</th><th>server</th><th>machine</th><th>JVM</th><th>started (UTC)</th><th>data seed</th></tr></thead><tbody>\n");
        for (RunRecords run : runs) {
            Set<String> rigs = new LinkedHashSet<>();
            Set<String> commits = new LinkedHashSet<>();
            Set<String> servers = new LinkedHashSet<>();
            Set<String> machines = new LinkedHashSet<>();
            Set<String> jvms = new LinkedHashSet<>();
            Set<String> seeds = new LinkedHashSet<>();
            String first = null;
            String last = null;
            for (Map<String, Object> r : run.records()) {
                rigs.add(String.valueOf(r.get("rig")));
                commits.add(String.valueOf(r.get("git_commit")));
                servers.add(
                        r.get("server_version") + " (revision " + r.get("server_revision") + ")");
                Map<?, ?> m = (Map<?, ?>) r.get("machine");
                Object mem = m.get("memory_bytes");
                machines.add(
                        m.get("cores")
                                + " cores, "
                                + m.get("cpu_model")
                                + (mem instanceof Number n
                                        ? String.format(
                                                Locale.ROOT,
                                                ", %.1f GiB",
                                                n.doubleValue() / (1L << 30))
                                        : "")
                                + (m.get("host") != null ? ", " + m.get("host") : ""));
                jvms.add(String.valueOf(r.get("jvm")));
                seeds.add(String.valueOf(r.get("data_seed")));
                String at = String.valueOf(r.get("started_at"));
                first = first == null || at.compareTo(first) < 0 ? at : first;
                last = last == null || at.compareTo(last) > 0 ? at : last;
            }
            b.append("<tr><td>")
                    .append(Fmt.html(run.run()))
                    .append("</td><td>")
                    .append(run.records().size())
                    .append("</td><td>")
                    .append(Fmt.html(String.join(", ", rigs)))
                    .append("</td><td>")
                    .append(Fmt.html(String.join(", ", commits)))
                    .append("</td><td>")
                    .append(Fmt.html(String.join(", ", servers)))
                    .append("</td><td>")
                    .append(Fmt.html(String.join("; ", machines)))
                    .append("</td><td>")
                    .append(Fmt.html(String.join("; ", jvms)))
                    .append("</td><td>")
                    .append(Fmt.html(first + " – " + last))
                    .append("</td><td>")
                    .append(Fmt.html(String.join(", ", seeds)))
                    .append("</td></tr>\n");
        }
        b.append(
                "</tbody></table>\n<p class=\"note\">Client and server share the host unless a record's server CPU came from the query log (server_cpu_source): a shared-host figure, not a dedicated server's. Load averages at each record are in the JSONL (machine.load_average).</p></section>\n");
    }

    private void warnings(StringBuilder b) {
        List<String> warn = new ArrayList<>();
        List<String> info = new ArrayList<>();
        for (RunRecords run : runs) {
            Map<String, ArmRow> arms = new LinkedHashMap<>();
            for (Map<String, Object> r : run.records()) {
                arms.computeIfAbsent(
                                r.get("rig") + "\u0000" + r.get("arm_label"),
                                k -> new ArmRow(run.run(), r))
                        .records
                        .add(r);
            }
            String prefix = runs.size() > 1 ? run.run() + ": " : "";
            for (ArmRow a : arms.values()) {
                String name = prefix + a.rig + " [" + a.armLabel + "]";
                switch (a.status()) {
                    case "failed" -> warn.add(name + " FAILED: " + a.reason());
                    case "unsupported" -> info.add(name + " not run: " + a.reason());
                    default -> {
                        Map<String, Integer> v = a.verdicts();
                        int n = a.ok().size();
                        if (v.getOrDefault("budget", 0) > 0) {
                            warn.add(
                                    name
                                            + ": budget-limited in "
                                            + v.get("budget")
                                            + " of "
                                            + n
                                            + " reps — the in-flight budget was below the sizing rule; invalid for a ceiling claim");
                        }
                        if (v.getOrDefault("generator", 0) > 0) {
                            warn.add(
                                    name
                                            + ": generator-limited in "
                                            + v.get("generator")
                                            + " of "
                                            + n
                                            + " reps — those figures are lower bounds of the sink");
                        }
                        if (v.getOrDefault("indeterminate-checkpoint", 0) > 0) {
                            warn.add(
                                    name
                                            + ": indeterminate (checkpoint backlog, no pause) in "
                                            + v.get("indeterminate-checkpoint")
                                            + " of "
                                            + n
                                            + " reps");
                        }
                        Stats s = a.stats(Metric.ROWS_PER_S);
                        if (s != null && s.n() > 1 && s.spread() > SPREAD_WARNING) {
                            warn.add(
                                    name
                                            + ": spread "
                                            + Fmt.percent(s.spread())
                                            + " over "
                                            + s.n()
                                            + " reps (> 30%): quote the shape, not the figure");
                        }
                    }
                }
            }
        }
        b.append("<section id=\"warnings\"><h2>Warnings</h2>\n");
        if (warn.isEmpty()) {
            b.append("<p>None.</p>\n");
        } else {
            b.append("<ul class=\"warnings\">\n");
            for (String w : warn) {
                b.append("<li>").append(Fmt.html(w)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        if (!info.isEmpty()) {
            b.append("<h3>Arms not run here</h3>\n<ul class=\"unsupported\">\n");
            for (String i : info) {
                b.append("<li>").append(Fmt.html(i)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        b.append("</section>\n");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ReportBuilder.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(
                        "missing resource " + name + " next to " + ReportBuilder.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String echarts() throws IOException {
        try (InputStream in = ReportBuilder.class.getClassLoader().getResourceAsStream(ECHARTS)) {
            if (in == null) {
                throw new IOException(
                        "ECharts is not on the classpath ("
                                + ECHARTS
                                + ", org.webjars.npm:echarts)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
