package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.ShardKey;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.transform.Transform;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
     * @param columns the table's insertable columns that the decoder or a transform feeds
     * @param plan how batches become INSERTs, for the first shard's server (time zone, version)
     * @param outcomes per shard: how an INSERT whose acknowledgement was lost is handled
     * @param notes what start-up says about deduplication, defaults, pre-sorting and splitting
     */
    record Result(
            TargetColumns columns,
            InsertPlan plan,
            List<OutcomePolicy> outcomes,
            List<String> warnings,
            List<String> notes,
            ShardKey shardKey) {}

    private Startup() {}

    static Result run(PipelineSpec spec, Factories factories) throws PipelineException {
        checkSettings(spec.sink().settings());
        List<TargetTable> tables = new ArrayList<>();
        for (int s = 0; s < spec.sink().shards().size(); s++) {
            tables.add(describe(spec, factories, s));
        }
        TableSchema schema = tables.get(0).schema();
        for (int s = 1; s < tables.size(); s++) {
            String diff = difference(schema, tables.get(s).schema());
            if (diff != null) {
                throw new PipelineException(
                        "the table differs between shard 0 and shard " + s + ": " + diff);
            }
        }
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<OutcomePolicy> outcomes = outcomePolicies(spec.sink(), tables);
        describeDelivery(tables, outcomes, warnings, notes);
        String budget = SizingRule.check(spec);
        if (budget != null) {
            warnings.add(budget);
        }
        TargetColumns columns;
        InsertPlan plan;
        try {
            // Expression transforms compute now(), today() and dates in the server's time zone.
            columns =
                    factories
                            .targetColumns(schema)
                            .inZone(Bindings.zone(tables.get(0).server().timezone()));
            plan = tables.get(0).insertPlan(columns, spec.sink());
        } catch (IllegalArgumentException e) {
            throw new PipelineException(e.getMessage(), e);
        }
        warnings.addAll(plan.warnings());
        notes.addAll(plan.notes());
        ShardKey shardKey = shardKey(spec, schema, columns, tables.get(0), notes);
        return new Result(
                columns, plan, outcomes, List.copyOf(warnings), List.copyOf(notes), shardKey);
    }

    /** Per shard: resend without asking where the table deduplicates, else look up first. */
    static List<OutcomePolicy> outcomePolicies(SinkSpec sink, List<TargetTable> tables) {
        List<OutcomePolicy> out = new ArrayList<>();
        for (TargetTable t : tables) {
            boolean dedup = t.deduplication().deduplicates();
            out.add(
                    new OutcomePolicy(
                            dedup,
                            OutcomePolicy.effective(sink.onUnknownOutcome(), dedup),
                            t.logging(),
                            sink.outcomeTimeout()));
        }
        return List.copyOf(out);
    }

    /**
     * What holds for batches sent again, per table — a note where the table drops them, one warning
     * where it cannot, saying what sluice does instead — said once when every shard is alike, else
     * per shard.
     */
    static void describeDelivery(
            List<TargetTable> tables,
            List<OutcomePolicy> outcomes,
            List<String> warnings,
            List<String> notes) {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < tables.size(); s++) {
            RetryDeduplication d = tables.get(s).deduplication();
            lines.add(
                    d.deduplicates()
                            ? d.statement()
                            : d.statement() + "; " + instead(outcomes.get(s)));
        }
        boolean alike = lines.stream().distinct().count() == 1;
        for (int s = 0; s < lines.size(); s++) {
            if (alike && s > 0) {
                break;
            }
            String line = (alike ? "" : "shard " + s + ": ") + lines.get(s);
            if (outcomes.get(s).deduplicates()) {
                notes.add(line);
            } else {
                warnings.add(line);
            }
        }
    }

    /** What sluice does with an interrupted INSERT on a table that cannot deduplicate. */
    private static String instead(OutcomePolicy p) {
        String policy = "on_unknown_outcome: " + p.onUnknown().label();
        String unknown =
                p.onUnknown() == OnUnknownOutcome.FAIL
                        ? "the pipeline stops naming the batch and its query_id (" + policy + ")"
                        : "it is sent again and its rows are counted as possibly written twice ("
                                + policy
                                + ")";
        if (p.logging().usable()) {
            return "an INSERT interrupted after its data was sent is looked up in system.processes"
                    + " and system.query_log for up to "
                    + human(p.timeout())
                    + " before it is sent again, and so is a batch replayed after a restart ("
                    + p.logging().detail()
                    + "); if the server cannot tell, "
                    + unknown;
        }
        return p.logging().detail()
                + ", so an INSERT interrupted after its data was sent cannot be looked up: "
                + unknown;
    }

    private static String human(java.time.Duration d) {
        long s = d.toSeconds();
        if (s % 60 == 0 && s >= 60) {
            return s / 60 + " min";
        }
        return d.toMillis() % 1000 == 0 ? s + " s" : d.toMillis() + " ms";
    }

    /**
     * The sharding key of {@code sink.clickhouse.shard_by}, checked now: an expression sluice
     * cannot compute, or that is not an integer, stops the start with the reason.
     */
    private static ShardKey shardKey(
            PipelineSpec spec,
            TableSchema schema,
            TargetColumns columns,
            TargetTable first,
            List<String> notes)
            throws PipelineException {
        String expression = spec.sink().shardBy();
        if (expression == null) {
            return null;
        }
        List<Integer> weights = new ArrayList<>();
        for (ShardSpec s : spec.sink().shards()) {
            weights.add(s.weight());
        }
        List<String> names = new ArrayList<>();
        columns.columns().forEach(c -> names.add(c.name()));
        try {
            ShardKey key =
                    ShardKey.of(
                            expression,
                            schema,
                            names,
                            Bindings.zone(first.server().timezone()),
                            weights);
            notes.add(
                    "rows go to the shard a Distributed table with sharding key "
                            + expression
                            + " would pick, over "
                            + weights.size()
                            + " shards of weights "
                            + weights);
            return key;
        } catch (UnsupportedExpressionException e) {
            throw new PipelineException("sink.clickhouse.shard_by: " + e.getMessage(), e);
        }
    }

    /** Settings the runtime owns, or that would break at-least-once (property 1). */
    private static void checkSettings(Map<String, String> settings) throws PipelineException {
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            String value = e.getValue().trim();
            if (name.equals("insert_deduplication_token")) {
                throw new PipelineException(
                        "sink setting insert_deduplication_token is set by sluice per batch;"
                                + " remove it");
            }
            if (name.equals("wait_for_async_insert") && value.equals("0")) {
                throw new PipelineException(
                        "sink setting wait_for_async_insert=0 acknowledges inserts before they are"
                                + " written, so a crash could lose committed rows; remove it");
            }
        }
    }

    /** The table as the first replica of shard {@code s} that answers describes it. */
    private static TargetTable describe(PipelineSpec spec, Factories factories, int s)
            throws PipelineException {
        ShardSpec shard = spec.sink().shards().get(s);
        RuntimeException last = null;
        for (String url : shard.replicas()) {
            try {
                return factories.describe(url, spec.sink());
            } catch (RuntimeException e) {
                last = e;
                if (!(e instanceof ConnectionException)) {
                    break; // the replica answered: another one would say the same
                }
            }
        }
        throw new PipelineException(
                "shard "
                        + s
                        + " ("
                        + ConnectionConfig.redact(String.join(", ", shard.replicas()))
                        + "): "
                        + last.getMessage(),
                last);
    }

    private static String difference(TableSchema a, TableSchema b) {
        List<TableSchema.Column> ca = a.insertableColumns();
        List<TableSchema.Column> cb = b.insertableColumns();
        for (int i = 0; i < Math.max(ca.size(), cb.size()); i++) {
            if (i >= ca.size() || i >= cb.size()) {
                return "column counts " + ca.size() + " and " + cb.size();
            }
            if (!ca.get(i).name().equals(cb.get(i).name())
                    || !ca.get(i).typeName().equals(cb.get(i).typeName())) {
                return "column "
                        + (i + 1)
                        + " is "
                        + ca.get(i).name()
                        + " "
                        + ca.get(i).typeName()
                        + " on one and "
                        + cb.get(i).name()
                        + " "
                        + cb.get(i).typeName()
                        + " on the other";
            }
        }
        return null;
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
