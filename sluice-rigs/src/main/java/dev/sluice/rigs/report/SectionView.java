package dev.sluice.rigs.report;

import dev.sluice.rigs.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A section computed from the runs: which arms belong to it, its table rows and its chart (the
 * ECharts option the page renders, with the series lengths the browser test checks).
 */
final class SectionView {
    final Section section;
    final List<ArmRow> rows = new ArrayList<>();
    final List<String> categories = new ArrayList<>();
    final boolean manyRuns;

    SectionView(Section section, List<RunRecords> runs) {
        this.section = section;
        this.manyRuns = runs.size() > 1;
        Map<String, ArmRow> byKey = new LinkedHashMap<>();
        for (RunRecords run : runs) {
            for (Map<String, Object> r : run.records()) {
                if (section.rig().equals(r.get("rig")) && belongs(r)) {
                    byKey.computeIfAbsent(
                                    run.run() + "\u0000" + r.get("arm_label"),
                                    k -> new ArmRow(run.run(), r))
                            .records
                            .add(r);
                }
            }
        }
        rows.addAll(byKey.values());
        LinkedHashSet<String> xs = new LinkedHashSet<>();
        for (ArmRow row : rows) {
            xs.add(row.axis(section.x()));
        }
        categories.addAll(xs);
        if (categories.stream().allMatch(SectionView::numeric)) {
            categories.sort((a, b) -> Double.compare(Double.parseDouble(a), Double.parseDouble(b)));
        }
        rows.sort(
                (a, b) -> {
                    int s = seriesName(a).compareTo(seriesName(b));
                    return s != 0
                            ? s
                            : Integer.compare(
                                    categories.indexOf(a.axis(section.x())),
                                    categories.indexOf(b.axis(section.x())));
                });
    }

    private static boolean numeric(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The record's arm differs from its run's base arm ({@code settings.base_arm}) only in the
     * section's varying axes, and matches the section's fixed values.
     */
    boolean belongs(Map<String, Object> r) {
        Map<?, ?> arm = (Map<?, ?>) r.get("arm");
        for (Map.Entry<String, Object> f : section.fixed().entrySet()) {
            if (arm.containsKey(f.getKey())
                    && !Objects.equals(
                            String.valueOf(arm.get(f.getKey())), String.valueOf(f.getValue()))) {
                return false;
            }
        }
        Map<?, ?> base =
                r.get("settings") instanceof Map<?, ?> s && s.get("base_arm") instanceof Map<?, ?> b
                        ? b
                        : Map.of();
        for (Map.Entry<?, ?> a : arm.entrySet()) {
            String axis = a.getKey().toString();
            if (section.varying().contains(axis)
                    || section.fixed().containsKey(axis)
                    || !base.containsKey(axis)) {
                continue;
            }
            if (!Objects.equals(String.valueOf(a.getValue()), String.valueOf(base.get(axis)))) {
                return false;
            }
        }
        return true;
    }

    /** The arm's values of the section's varying axes: what tells its rows apart. */
    String shortLabel(ArmRow row) {
        StringBuilder sb = new StringBuilder();
        for (String axis : section.varying()) {
            if (!row.axis(axis).isEmpty()) {
                sb.append(sb.isEmpty() ? "" : " ").append(axis).append('=').append(row.axis(axis));
            }
        }
        return sb.isEmpty() ? row.armLabel : sb.toString();
    }

    String seriesName(ArmRow row) {
        List<String> parts = new ArrayList<>();
        if (manyRuns) {
            parts.add(row.run);
        }
        for (String s : section.series()) {
            if (!row.axis(s).isEmpty()) {
                parts.add(row.axis(s));
            }
        }
        return parts.isEmpty() ? section.chartMetric().label() : String.join(" / ", parts);
    }

    /** The series names, in order; arms that did not run are in the table only. */
    List<String> seriesNames() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (ArmRow row : rows) {
            if (!row.status().equals("unsupported")) {
                names.add(seriesName(row));
            }
        }
        return new ArrayList<>(names);
    }

    /** The ECharts option of the chart, or null when the section has none or nothing to plot. */
    Map<String, Object> chart(String footer) {
        if (section.chartType() == null
                || rows.stream().noneMatch(r -> !r.ok().isEmpty() || r.status().equals("failed"))) {
            return null;
        }
        List<Object> series = new ArrayList<>();
        List<String> legend = new ArrayList<>();
        for (String name : seriesNames()) {
            List<Object> data = new ArrayList<>();
            for (String x : categories) {
                Object point = null;
                for (ArmRow row : rows) {
                    if (seriesName(row).equals(name) && row.axis(section.x()).equals(x)) {
                        Stats st = row.stats(section.chartMetric());
                        if (st != null) {
                            point = st.median();
                        } else if (row.status().equals("failed")) {
                            // a failed arm stays on the chart: a zero bar labelled as failed
                            Map<String, Object> p = new LinkedHashMap<>();
                            p.put("value", 0);
                            p.put(
                                    "label",
                                    Map.of(
                                            "show",
                                            true,
                                            "formatter",
                                            "failed",
                                            "position",
                                            "top",
                                            "color",
                                            "#c0392b"));
                            point = p;
                        }
                    }
                }
                data.add(point);
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", name);
            s.put("type", section.chartType());
            s.put("data", data);
            s.put("connectNulls", false);
            series.add(s);
            legend.add(name);
        }
        if (section.verdicts()) {
            Map<String, List<Object>> byVerdict = new LinkedHashMap<>();
            for (ArmRow row : rows) {
                for (Map<String, Object> r : row.ok()) {
                    Double v = section.chartMetric().value().apply(r);
                    Object verdict = r.get("verdict");
                    if (v != null && verdict != null) {
                        byVerdict
                                .computeIfAbsent(verdict.toString(), k -> new ArrayList<>())
                                .add(
                                        List.of(
                                                row.axis(section.x()),
                                                v,
                                                row.armLabel + " rep " + r.get("rep")));
                    }
                }
            }
            for (Map.Entry<String, List<Object>> e : byVerdict.entrySet()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("name", "verdict: " + e.getKey());
                s.put("type", "scatter");
                s.put("data", e.getValue());
                s.put("symbol", symbol(e.getKey()));
                s.put("symbolSize", 9);
                s.put("itemStyle", Map.of("color", colour(e.getKey())));
                series.add(s);
                legend.add("verdict: " + e.getKey());
            }
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("animation", false);
        option.put(
                "title",
                Map.of(
                        "text",
                        section.title(),
                        "left",
                        "center",
                        "textStyle",
                        Map.of("fontSize", 14)));
        option.put("tooltip", Map.of("trigger", "item"));
        option.put("legend", Map.of("data", legend, "bottom", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 90, "right", 30, "top", 50, "bottom", 70));
        option.put(
                "xAxis",
                Map.of(
                        "axisLabel",
                        Map.of("interval", 0, "rotate", categories.size() > 5 ? 25 : 0),
                        "type",
                        "category",
                        "name",
                        section.x(),
                        "nameLocation",
                        "middle",
                        "nameGap",
                        28,
                        "data",
                        categories));
        option.put(
                "yAxis",
                Map.of("type", "value", "name", section.chartMetric().label(), "scale", false));
        option.put("series", series);
        Map<String, Object> chart = new LinkedHashMap<>();
        chart.put("id", section.id());
        chart.put("footer", footer);
        chart.put("option", option);
        return chart;
    }

    private static String symbol(String verdict) {
        return switch (verdict) {
            case "sink" -> "circle";
            case "generator" -> "triangle";
            case "budget" -> "rect";
            default -> "diamond";
        };
    }

    private static String colour(String verdict) {
        return switch (verdict) {
            case "sink" -> "#1a7f37";
            case "generator" -> "#9a6700";
            case "budget" -> "#cf222e";
            default -> "#8250df";
        };
    }
}
