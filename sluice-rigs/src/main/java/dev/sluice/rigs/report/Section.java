package dev.sluice.rigs.report;

import java.util.List;
import java.util.Map;

/**
 * One chart and its table: the records of {@code rig} whose arm differs from the run's base arm
 * only in {@code varying} axes (and matches {@code fixed}), plotted with {@code x} on the x-axis
 * and one series per combination of {@code series} axes.
 *
 * @param fixed axis values the arms must have, overriding the base (e.g. engine=MergeTree)
 * @param chartType {@code line} or {@code bar}; null for a table without a chart
 * @param verdicts plot every repetition as a point coloured by its limiter verdict
 * @param note shown under the title (e.g. what the data flatters)
 */
public record Section(
        String id,
        String rig,
        String title,
        List<String> varying,
        Map<String, Object> fixed,
        String x,
        List<String> series,
        Metric chartMetric,
        List<Metric> tableMetrics,
        String chartType,
        boolean verdicts,
        String note) {}
