package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.sort.ShardKey;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What a writer knows about its table, learned once when it opens: the table as every shard
 * describes it (they must agree on the insertable columns), the columns the writer sends and how
 * its batches become INSERTs (client-side DEFAULTs, pre-sorting, partition split: {@link
 * InsertPlan}), how each shard treats an INSERT sent again ({@link OutcomePolicy}: the table drops
 * it, or an interrupted one is looked up on its server — docs/pipeline.md, "Interrupted INSERTs"),
 * the sharding key, and what a user should be told about all this.
 *
 * <p>Immutable: a writer reads its layout per batch, so a later re-discovery (a table altered while
 * data flows) can replace it as a whole. One layout describes one table.
 */
public final class TableLayout {
    private final SinkSpec sink;
    private final List<TargetTable> tables;
    private final TargetColumns columns;
    private final InsertPlan plan;
    private final List<OutcomePolicy> outcomes;
    private final ShardKey shardKey;
    private final List<String> deliveryWarnings;
    private final List<String> deliveryNotes;
    private final String shardKeyNote;

    private TableLayout(
            SinkSpec sink,
            List<TargetTable> tables,
            TargetColumns columns,
            InsertPlan plan,
            List<OutcomePolicy> outcomes,
            ShardKey shardKey,
            List<String> deliveryWarnings,
            List<String> deliveryNotes,
            String shardKeyNote) {
        this.sink = sink;
        this.tables = List.copyOf(tables);
        this.columns = columns;
        this.plan = plan;
        this.outcomes = List.copyOf(outcomes);
        this.shardKey = shardKey;
        this.deliveryWarnings = List.copyOf(deliveryWarnings);
        this.deliveryNotes = List.copyOf(deliveryNotes);
        this.shardKeyNote = shardKeyNote;
    }

    /**
     * Describes {@code sink}'s table on the first answering replica of every shard and decides how
     * batches of the columns {@code chooser} picks become INSERTs.
     *
     * @param chooser the columns to send, given the table (e.g. every insertable column); throws
     *     {@link IllegalArgumentException} naming a column the table cannot take
     * @throws WriterException when a shard cannot be reached or describes the table differently,
     *     when a column cannot be sent, when the sharding key cannot be computed here, or when the
     *     settings would break what an acknowledgement means; the message says what to fix
     */
    public static TableLayout discover(
            SinkSpec sink, Connections connections, Function<TableSchema, TargetColumns> chooser) {
        checkSettings(sink.settings());
        List<TargetTable> tables = new ArrayList<>();
        for (int s = 0; s < sink.shards().size(); s++) {
            tables.add(describe(sink, connections, s));
        }
        TableSchema schema = tables.get(0).schema();
        for (int s = 1; s < tables.size(); s++) {
            String diff = difference(schema, tables.get(s).schema());
            if (diff != null) {
                throw new ShardsDisagree(
                        "the table differs between shard 0 and shard " + s + ": " + diff);
            }
        }
        List<OutcomePolicy> outcomes = outcomePolicies(sink, tables);
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        describeDelivery(tables, outcomes, warnings, notes);
        TargetColumns columns;
        InsertPlan plan;
        try {
            // Expression transforms compute now(), today() and dates in the server's time zone.
            columns =
                    chooser.apply(schema).inZone(Bindings.zone(tables.get(0).server().timezone()));
            plan = tables.get(0).insertPlan(columns, sink);
        } catch (IllegalArgumentException e) {
            throw new WriterException(e.getMessage(), e);
        }
        List<String> shardNote = new ArrayList<>(1);
        ShardKey key = shardKey(sink, schema, columns, tables.get(0), shardNote);
        return new TableLayout(
                sink,
                tables,
                columns,
                plan,
                outcomes,
                key,
                warnings,
                notes,
                shardNote.isEmpty() ? null : shardNote.get(0));
    }

    /**
     * The shards describe the table differently: an error at start-up; while data flows, what an
     * {@code ALTER ... ON CLUSTER} looks like until it has run on every shard.
     */
    static final class ShardsDisagree extends WriterException {
        ShardsDisagree(String message) {
            super(message);
        }
    }

    /** Every insertable column of the table: the default choice. */
    public static TargetColumns allColumns(TableSchema schema) {
        return new TargetColumns(schema, schema.insertableColumns());
    }

    /**
     * The named columns, in the order given.
     *
     * @throws IllegalArgumentException naming a column the table lacks or cannot take in an INSERT
     */
    public static TargetColumns namedColumns(TableSchema schema, List<String> names) {
        List<TableSchema.Column> out = new ArrayList<>();
        for (String name : names) {
            TableSchema.Column found = null;
            for (TableSchema.Column c : schema.columns()) {
                if (c.name().equals(name)) {
                    found = c;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException(
                        "column " + name + " is not in " + schema.qualifiedName());
            }
            out.add(found);
        }
        return new TargetColumns(schema, out);
    }

    /** The sink this layout was discovered for (with its shards). */
    public SinkSpec sink() {
        return sink;
    }

    /** The table's name, as the sink names it. */
    public String table() {
        return sink.table();
    }

    /** The table as shard 0 describes it. */
    public TableSchema schema() {
        return tables.get(0).schema();
    }

    /** Per shard: the table, its server and what holds for a batch sent again there. */
    public List<TargetTable> tables() {
        return tables;
    }

    /** The columns the writer sends, in block order. */
    public TargetColumns columns() {
        return columns;
    }

    /** How batches become INSERTs. */
    public InsertPlan plan() {
        return plan;
    }

    /** Per shard: how an INSERT whose acknowledgement was lost is handled. */
    public List<OutcomePolicy> outcomes() {
        return outcomes;
    }

    /** The sharding key rows are routed by ({@code shard_by}), or null. */
    public ShardKey shardKey() {
        return shardKey;
    }

    /**
     * Warnings about batches sent again (a shard whose table cannot deduplicate, and what the
     * writer does instead).
     */
    public List<String> deliveryWarnings() {
        return deliveryWarnings;
    }

    /** Notes about batches sent again (a shard whose table drops them). */
    public List<String> deliveryNotes() {
        return deliveryNotes;
    }

    /** What start-up says about the sharding key, or null without one. */
    public String shardKeyNote() {
        return shardKeyNote;
    }

    /** Every warning a user should see: delivery, then the plan's. */
    public List<String> warnings() {
        List<String> out = new ArrayList<>(deliveryWarnings);
        out.addAll(plan.warnings());
        return List.copyOf(out);
    }

    /** Every note: delivery, the plan's (defaults, presort, split), the sharding key. */
    public List<String> notes() {
        List<String> out = new ArrayList<>(deliveryNotes);
        out.addAll(plan.notes());
        if (shardKeyNote != null) {
            out.add(shardKeyNote);
        }
        return List.copyOf(out);
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

    private static String human(Duration d) {
        long s = d.toSeconds();
        if (s % 60 == 0 && s >= 60) {
            return s / 60 + " min";
        }
        return d.toMillis() % 1000 == 0 ? s + " s" : d.toMillis() + " ms";
    }

    /**
     * The sharding key of {@code shard_by}, checked now: an expression sluice cannot compute, or
     * that is not an integer, stops the start with the reason.
     */
    private static ShardKey shardKey(
            SinkSpec sink,
            TableSchema schema,
            TargetColumns columns,
            TargetTable first,
            List<String> notes) {
        String expression = sink.shardBy();
        if (expression == null) {
            return null;
        }
        List<Integer> weights = new ArrayList<>();
        for (ShardSpec s : sink.shards()) {
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
            throw new WriterException("sink.clickhouse.shard_by: " + e.getMessage(), e);
        }
    }

    /** Settings the writer owns, or that would break what an acknowledgement means. */
    static void checkSettings(Map<String, String> settings) {
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            String value = e.getValue().trim();
            if (name.equals("insert_deduplication_token")) {
                throw new WriterException(
                        "sink setting insert_deduplication_token is set by sluice per batch;"
                                + " remove it");
            }
            if (name.equals("wait_for_async_insert") && value.equals("0")) {
                throw new WriterException(
                        "sink setting wait_for_async_insert=0 acknowledges inserts before they are"
                                + " written, so a crash could lose committed rows; remove it");
            }
        }
    }

    /** The table as the first replica of shard {@code s} that answers describes it. */
    private static TargetTable describe(SinkSpec sink, Connections connections, int s) {
        ShardSpec shard = sink.shards().get(s);
        RuntimeException last = null;
        for (String url : shard.replicas()) {
            try {
                return connections.describe(url);
            } catch (RuntimeException e) {
                last = e;
                if (!(e instanceof ConnectionException)) {
                    break; // the replica answered: another one would say the same
                }
            }
        }
        throw new WriterException(
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
}
