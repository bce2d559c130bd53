package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.ShardKey;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.TableRoute;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.writer.TableLayout;
import dev.sluice.pipeline.writer.WriterException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the pipeline learns and checks before it reads a record: the table on every shard (the same
 * everywhere), the columns it will write and how batches of them become INSERTs (defaults,
 * pre-sorting, partition split), the settings it must not let through, and the warnings a user
 * should see — whether batches sent again are dropped by the table and, where not, how an
 * interrupted INSERT is handled (property 2), a budget below the sizing rule (property 3), a
 * presort or partition split that cannot work for the table.
 */
final class Startup {

    /**
     * @param layout what the sink's writer learned of its one table, or of the first of the tables
     *     known before any record arrives (the rest is taken from it); null when every table
     *     follows from the records' topics
     * @param columns the table's insertable columns that the decoder or a transform feeds
     * @param plan how batches become INSERTs, for the first shard's server (time zone, version)
     * @param outcomes per shard: how an INSERT whose acknowledgement was lost is handled
     * @param notes what start-up says about deduplication, defaults, pre-sorting and splitting
     * @param layouts every table known before any record arrives: the sink's one table, or those
     *     its map of topics names
     */
    record Result(
            TableLayout layout,
            TargetColumns columns,
            InsertPlan plan,
            List<OutcomePolicy> outcomes,
            List<String> warnings,
            List<String> notes,
            ShardKey shardKey,
            List<TableLayout> layouts) {}

    private Startup() {}

    static Result run(PipelineSpec spec, Factories factories) throws PipelineException {
        TableRoute route;
        try {
            route = spec.sink().route();
        } catch (IllegalArgumentException e) {
            throw new PipelineException("sink.clickhouse: " + e.getMessage(), e);
        }
        List<TableLayout> layouts = new ArrayList<>();
        for (String table : route.knownTables()) {
            SinkSpec one =
                    route.single()
                            ? spec.sink()
                            : spec.sink().toBuilder().table(table).tables(Map.of()).build();
            try {
                layouts.add(
                        TableLayout.discover(
                                one, factories.connections(one), factories::targetColumns));
            } catch (WriterException e) {
                throw new PipelineException(
                        (route.single() ? "" : "table " + table + ": ") + e.getMessage(),
                        e.getCause() != null ? e.getCause() : e);
            }
        }
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (TableLayout layout : layouts) {
            String prefix = route.single() ? "" : "table " + layout.table() + ": ";
            layout.deliveryWarnings().forEach(w -> warnings.add(prefix + w));
            layout.deliveryNotes().forEach(n -> notes.add(prefix + n));
        }
        String budget = SizingRule.check(spec);
        if (budget != null) {
            warnings.add(budget);
        }
        for (TableLayout layout : layouts) {
            String prefix = route.single() ? "" : "table " + layout.table() + ": ";
            layout.plan().warnings().forEach(w -> warnings.add(prefix + w));
            layout.plan().notes().forEach(n -> notes.add(prefix + n));
            if (layout.shardKeyNote() != null) {
                notes.add(prefix + layout.shardKeyNote());
            }
        }
        if (route.template()) {
            notes.add(
                    "records go to the table their topic names ("
                            + route.describe()
                            + "); each table is described, and its deduplication and defaults"
                            + " decided, when its first record arrives");
        }
        TableLayout first = layouts.isEmpty() ? null : layouts.get(0);
        return new Result(
                first,
                first == null ? null : first.columns(),
                first == null ? null : first.plan(),
                first == null ? null : first.outcomes(),
                List.copyOf(warnings),
                List.copyOf(notes),
                first == null ? null : first.shardKey(),
                List.copyOf(layouts));
    }

    /**
     * The insertable columns some part of the chain feeds, in table order: {@link
     * Factories#targetColumns}'s default. A decoder and transforms are created for all of them
     * first, to learn which they feed.
     *
     * @throws IllegalArgumentException when they feed none
     */
    static TargetColumns fedColumns(TableSchema schema, Factories factories) {
        TargetColumns all = new TargetColumns(schema, schema.insertableColumns());
        TreeSet<Integer> fed = new TreeSet<>();
        for (int c : factories.decoder(all).fedColumns()) {
            fed.add(c);
        }
        for (Transform t : factories.transforms(all)) {
            for (int c : t.producedColumns()) {
                fed.add(c);
            }
        }
        if (fed.isEmpty()) {
            throw new IllegalArgumentException(
                    "no column of "
                            + schema.qualifiedName()
                            + " is fed by the input or a transform");
        }
        if (fed.size() == all.size()) {
            return all;
        }
        List<TableSchema.Column> columns = new ArrayList<>();
        for (int c : fed) {
            columns.add(all.columns().get(c));
        }
        return new TargetColumns(schema, columns);
    }
}
