package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.defaults.DefaultsOptions;
import dev.sluice.clickhouse.defaults.DefaultsPlan;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.PartitionSplitter;
import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.metrics.Metrics;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
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
    private final PresortMode presort;
    private final boolean split;
    private final List<String> notes;
    private final List<String> warnings;

    private InsertPlan(
            TableSchema table,
            ZoneId zone,
            DefaultsOptions options,
            DefaultsPlan defaults,
            PresortMode presort,
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
        return of(table, server, columns, PresortMode.of(presort), partitionSplit);
    }

    /**
     * The plan for batches of {@code columns} (the pipeline's columns, in block order) into {@code
     * table} on {@code server}, whose version decides what a DEFAULT's reference to another column
     * means and whose time zone is {@code today()}'s.
     *
     * @param presort whether batches are sorted by the sorting key (when the key is supported);
     *     with {@code partitionSplit}, {@code auto} sorts every batch (see {@link #presort()})
     * @param partitionSplit split each batch by the partition key (when the key is supported)
     * @throws IllegalArgumentException when a column is MATERIALIZED or ALIAS (an INSERT cannot
     *     send it) or not in the table; the message names it
     */
    public static InsertPlan of(
            TableSchema table,
            ServerInfo server,
            List<String> columns,
            PresortMode presort,
            boolean partitionSplit) {
        ZoneId zone = Bindings.zone(server.timezone());
        DefaultsOptions options = DefaultsOptions.forServer(server);
        DefaultsPlan defaults = DefaultsPlan.of(table, columns, zone, options);
        List<String> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        describeDefaults(defaults, notes);
        PresortMode sort = PresortMode.OFF;
        if (presort != PresortMode.OFF) {
            Presorter sorter = Presorter.of(table, columns, zone);
            if (sorter.supported()) {
                sort = presort;
            } else {
                warnings.add(
                        "presort is "
                                + presort.label()
                                + ", but batches go unsorted: "
                                + sorter.unsupportedReason());
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
        if (sort == PresortMode.AUTO && split) {
            // A split batch's INSERTs are numbered (/p<j>) by the partitions' first rows in the
            // sorted batch: a replay must sort as the first run did, or /p0 would name other rows
            // under the same token. So with the split, every batch is sorted.
            sort = PresortMode.ON;
        }
        switch (sort) {
            case OFF -> {}
            case ON ->
                    notes.add(
                            "batches are pre-sorted by the sorting key ("
                                    + table.sortingKey()
                                    + ")"
                                    + (presort == PresortMode.AUTO
                                            ? " (presort: auto sorts every batch it splits by"
                                                    + " partition)"
                                            : ""));
            case AUTO ->
                    notes.add(
                            "batches are pre-sorted by the sorting key ("
                                    + table.sortingKey()
                                    + ") when their shard's writer has more batches waiting"
                                    + " (presort: auto)");
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

    /**
     * Whether batches are pre-sorted: {@code off} when not asked for or when the sorting key is not
     * supported; {@code on} for {@code auto} with the partition split (its INSERTs' numbering
     * follows the sorted order, which a replay must reproduce).
     */
    public PresortMode presort() {
        return presort;
    }

    /**
     * Whether the batch a writer is about to shape is pre-sorted: decided once per batch, in the
     * writer's thread, and kept for all its attempts.
     *
     * @param backlog the writer's queue holds at least one more sealed batch behind this one
     */
    PresortDecision presortFor(boolean backlog) {
        return PresortDecision.of(presort, backlog);
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
