package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.defaults.DefaultsOptions;
import dev.sluice.clickhouse.defaults.DefaultsPlan;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.PartitionSplitter;
import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.metrics.Metrics;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * How the writers turn a sealed batch into INSERTs, decided once at start-up for the target table
 * and the pipeline's columns: which DEFAULTs of fields some records lack are computed here and
 * which are left to the server ({@link DefaultsPlan}), and whether batches are pre-sorted by the
 * table's sorting key and split by its partition key. {@link #notes()} and {@link #warnings()} are
 * what start-up and {@code sluice check} report. Immutable; each writer thread gets its own {@link
 * BatchShaper}.
 */
public final class InsertPlan {
    private final TableSchema table;
    private final ZoneId zone;
    private final DefaultsOptions options;
    private final DefaultsPlan defaults;
    private final boolean presort;
    private final boolean split;
    private final List<String> notes;
    private final List<String> warnings;

    private InsertPlan(
            TableSchema table,
            ZoneId zone,
            DefaultsOptions options,
            DefaultsPlan defaults,
            boolean presort,
            boolean split,
            List<String> notes,
            List<String> warnings) {
        this.table = table;
        this.zone = zone;
        this.options = options;
        this.defaults = defaults;
        this.presort = presort;
        this.split = split;
        this.notes = List.copyOf(notes);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * The plan for batches of {@code columns} (the pipeline's columns, in block order) into {@code
     * table} on {@code server}, whose version decides what a DEFAULT's reference to another column
     * means and whose time zone is {@code today()}'s.
     *
     * @param presort sort each batch by the sorting key (when the key is supported)
     * @param partitionSplit split each batch by the partition key (when the key is supported)
     * @throws IllegalArgumentException when a column is MATERIALIZED or ALIAS (an INSERT cannot
     *     send it) or not in the table; the message names it
     */
    public static InsertPlan of(
            TableSchema table,
            ServerInfo server,
            List<String> columns,
            boolean presort,
            boolean partitionSplit) {
        ZoneId zone = Bindings.zone(server.timezone());
        DefaultsOptions options = DefaultsOptions.forServer(server);
        DefaultsPlan defaults = DefaultsPlan.of(table, columns, zone, options);
        List<String> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        describeDefaults(defaults, notes);
        boolean sort = false;
        if (presort) {
            Presorter sorter = Presorter.of(table, columns, zone);
            sort = sorter.supported();
            if (sort) {
                notes.add("batches are pre-sorted by the sorting key (" + table.sortingKey() + ")");
            } else {
                warnings.add(
                        "presort is on, but batches go unsorted: " + sorter.unsupportedReason());
            }
        }
        boolean split = false;
        if (partitionSplit) {
            PartitionSplitter splitter = PartitionSplitter.of(table, columns, zone);
            split = splitter.supported();
            if (split) {
                notes.add(
                        "batches are split by the partition key ("
                                + table.partitionKey()
                                + "): one INSERT per partition");
            } else {
                warnings.add(
                        "partition_split is on, but batches go unsplit: "
                                + splitter.unsupportedReason());
            }
        }
        return new InsertPlan(table, zone, options, defaults, sort, split, notes, warnings);
    }

    private static void describeDefaults(DefaultsPlan plan, List<String> notes) {
        List<String> client = new ArrayList<>();
        List<String> server = new ArrayList<>();
        for (DefaultsPlan.Decision d : plan.decisions()) {
            switch (d.action()) {
                case NONE -> {}
                case CLIENT -> client.add(d.column() + " DEFAULT " + d.expression());
                case SERVER ->
                        server.add(
                                d.column()
                                        + " DEFAULT "
                                        + d.expression()
                                        + " ("
                                        + d.reason()
                                        + ")");
            }
        }
        if (!client.isEmpty()) {
            notes.add(
                    "records lacking these fields get the DEFAULT computed by sluice: "
                            + String.join(", ", client));
        }
        if (!server.isEmpty()) {
            notes.add(
                    "records lacking these fields go in INSERTs of their own without the column,"
                            + " so the server computes the DEFAULT: "
                            + String.join("; ", server));
        }
    }

    /** Which DEFAULTs are computed here and which are left to the server. */
    public DefaultsPlan defaults() {
        return defaults;
    }

    /** True when batches are pre-sorted: asked for, and the sorting key is supported. */
    public boolean presort() {
        return presort;
    }

    /** True when batches are split by partition: asked for, and the partition key is supported. */
    public boolean partitionSplit() {
        return split;
    }

    /** What start-up says about defaults, pre-sorting and splitting, one line each. */
    public List<String> notes() {
        return notes;
    }

    /** Asked-for features that cannot work for this table, with the reason (said once). */
    public List<String> warnings() {
        return warnings;
    }

    TableSchema table() {
        return table;
    }

    ZoneId zone() {
        return zone;
    }

    DefaultsOptions options() {
        return options;
    }

    /** The shaper of one writer thread (it keeps buffers). */
    BatchShaper newShaper(Metrics metrics) {
        return new BatchShaper(this, metrics);
    }
}
