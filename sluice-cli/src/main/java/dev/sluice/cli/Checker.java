package dev.sluice.cli;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.kafka.KafkaCheck;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.avro.AvroCheck;
import dev.sluice.pipeline.decode.avro.AvroDecoder;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.SizingRule;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.TableRoute;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.writer.RetryDeduplication;
import dev.sluice.pipeline.writer.TargetTable;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code sluice check}: everything a run would find wrong, found without writing a row — the target
 * table on every replica, the column mapping and its types and defaults, deduplication, the budget
 * against the sizing rule, and a dry decode of the first records of the input.
 */
final class Checker {
    static final int SAMPLE_RECORDS = 1000;

    private final PrintStream out;
    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    Checker(PrintStream out) {
        this.out = out;
    }

    /** Returns the exit code: 0 when nothing is wrong. */
    int check(PipelineSpec spec, Factories factories, boolean sampleInput) {
        TargetTable first = null;
        TableRoute route = spec.sink().route();
        if (route.template()) {
            out.println(
                    "note  records go to the table their topic names ("
                            + route.describe()
                            + "); each is described when its first record arrives");
        }
        List<SinkSpec> sinks = new ArrayList<>();
        for (String table : route.knownTables()) {
            sinks.add(
                    route.single()
                            ? spec.sink()
                            : spec.sink().toBuilder().table(table).tables(Map.of()).build());
        }
        for (SinkSpec sink : sinks) {
            TargetTable t =
                    checkTable(
                            spec,
                            factories,
                            sink,
                            route.single() ? "" : "table " + sink.table() + " ");
            first = first == null ? t : first;
        }
        AvroCheck.Report avro = null;
        if (spec.decode().format() == Format.AVRO) {
            avro = AvroCheck.report(spec.decode().avro(), Clock.SYSTEM, System::getenv);
            for (AvroCheck.Finding f : avro.findings()) {
                if (f.ok()) {
                    out.println("ok    " + f.text());
                } else {
                    problems.add(f.text());
                }
            }
        }
        if (first != null) {
            checkMapping(spec, factories, first, sampleInput, avro);
        }
        String budget = SizingRule.check(spec);
        if (budget != null) {
            problems.add(budget);
        } else {
            out.printf(
                    Locale.ROOT,
                    "ok    in-flight budget %s (sizing rule minimum %s)%n",
                    PipelineRunner.bytes(SizingRule.budget(spec)),
                    PipelineRunner.bytes(SizingRule.minimumBudget(spec)));
        }
        warnings.forEach(w -> out.println("warn  " + w));
        problems.forEach(p -> out.println("FAIL  " + p));
        if (problems.isEmpty()) {
            out.println("check passed" + (warnings.isEmpty() ? "" : " with warnings"));
            return 0;
        }
        out.println("check failed: " + problems.size() + " problem(s)");
        return 1;
    }

    /**
     * Describes {@code sink}'s table on every replica of every shard, reporting each; returns the
     * first description, or null when none answered.
     */
    private TargetTable checkTable(
            PipelineSpec spec, Factories factories, SinkSpec sink, String prefix) {
        TargetTable first = null;
        for (int s = 0; s < sink.shards().size(); s++) {
            ShardSpec shard = sink.shards().get(s);
            for (String url : shard.replicas()) {
                String where = prefix + "shard " + (s + 1) + " replica " + redact(url);
                try {
                    TargetTable t = factories.describe(url, sink);

                    out.println(
                            "ok    "
                                    + where
                                    + ": "
                                    + t.server()
                                    + ", table "
                                    + t.schema().qualifiedName()
                                    + " ("
                                    + t.schema().engine()
                                    + ")");
                    RetryDeduplication dedup = t.deduplication();
                    if (dedup.deduplicates()) {
                        out.println("ok    " + where + ": " + dedup.statement());
                    } else {
                        String policy =
                                OutcomePolicy.effective(spec.sink().onUnknownOutcome(), false)
                                        .label();
                        warnings.add(
                                where
                                        + ": "
                                        + dedup.statement()
                                        + "; "
                                        + (t.logging().usable()
                                                ? "an INSERT interrupted after its data was sent is"
                                                        + " looked up in the server's query log ("
                                                        + t.logging().detail()
                                                        + ")"
                                                : t.logging().detail()
                                                        + ", so an INSERT interrupted after its"
                                                        + " data was sent cannot be looked up")
                                        + "; when its outcome stays unknown: on_unknown_outcome: "
                                        + policy);
                    }
                    first = first == null ? t : first;
                } catch (RuntimeException e) {
                    problems.add(where + ": " + e.getMessage());
                }
            }
        }
        return first;
    }

    private void checkMapping(
            PipelineSpec spec,
            Factories factories,
            TargetTable table,
            boolean sampleInput,
            AvroCheck.Report avro) {
        TableSchema schema = table.schema();
        TargetColumns target;
        try {
            target = factories.targetColumns(schema);
        } catch (RuntimeException e) {
            problems.add("column mapping: " + e.getMessage());
            return;
        }
        for (TableSchema.Column c : target.columns()) {
            out.println(
                    "ok    column "
                            + c.name()
                            + " "
                            + c.typeName()
                            + (c.hasDefault()
                                    ? "  (" + c.defaultKind() + " " + c.defaultExpression() + ")"
                                    : ""));
        }
        for (TableSchema.Column c : schema.columns()) {
            if (target.indexOf(c.name()) < 0) {
                String how =
                        c.insertable()
                                ? (c.hasDefault()
                                        ? "filled by the server: "
                                                + c.defaultKind()
                                                + " "
                                                + c.defaultExpression()
                                        : "filled by the server with the type's default")
                                : "computed by the server (" + c.defaultKind() + ")";
                out.println("note  column " + c.name() + " is not in the input: " + how);
            }
        }
        try {
            InsertPlan plan = table.insertPlan(target, spec.sink());
            plan.notes().forEach(n -> out.println("note  " + n));
            warnings.addAll(plan.warnings());
        } catch (IllegalArgumentException e) {
            problems.add("column mapping: " + e.getMessage());
            return;
        }
        if (avro != null && avro.schema() != null) {
            checkAvroSchema(factories, target, avro);
        }
        if (!sampleInput) {
            return;
        }
        if (spec.source() instanceof PipelineSpec.KafkaSource kafka) {
            // Sampling would consume: the check reads the brokers' and the group's state instead.
            for (KafkaCheck.Line line : KafkaCheck.check(kafka, spec.name())) {
                if (line.ok()) {
                    out.println("ok    " + line.text());
                } else {
                    problems.add(line.text());
                }
            }
            return;
        }
        try {
            sample(spec, factories, target);
        } catch (Exception e) {
            problems.add("reading the input: " + e.getMessage());
        }
    }

    /** Whether records of the schema found (file, or the subject's latest) map onto the columns. */
    private void checkAvroSchema(Factories factories, TargetColumns target, AvroCheck.Report avro) {
        try {
            if (factories.decoder(target) instanceof AvroDecoder d) {
                String problem = d.problemWith(avro.schema(), avro.describe());
                if (problem == null) {
                    out.println("ok    " + avro.describe() + " maps onto the columns");
                } else {
                    problems.add(avro.describe() + ": " + problem);
                }
            }
        } catch (Exception e) {
            problems.add("avro decoder: " + e.getMessage());
        }
    }

    /** Decodes the first records of the input into a block that is never sent. */
    private void sample(PipelineSpec spec, Factories factories, TargetColumns target)
            throws Exception {
        Decoder decoder = factories.decoder(target);
        Block block = target.newBlock();
        PolledRecords batch = new PolledRecords();
        int decoded = 0;
        int bad = 0;
        try (Source source = factories.source(0, 1, LocalCheckpoints.inMemory())) {
            int n = source.poll(batch, SAMPLE_RECORDS, 1_000_000_000L);
            for (int i = 0; i < Math.max(0, n); i++) {
                if (batch.errors > 0 && batch.error[i] != null) {
                    problems.add(batch.describe(i) + ": " + batch.error[i]);
                    bad++;
                    continue;
                }
                if (i == 0 && batch.partitionStart && decoder.expectsHeader()) {
                    try {
                        decoder.header(batch, i);
                    } catch (RecordException e) {
                        problems.add(batch.describe(i) + ": header: " + e.getMessage());
                        return;
                    }
                    continue;
                }
                int start = block.rows();
                try {
                    decoder.decode(batch, i, new SampleRow(block, start));
                    decoded++;
                } catch (RecordException e) {
                    block.truncate(start);
                    if (bad++ < 5) {
                        problems.add(batch.describe(i) + ": " + e.getMessage());
                    }
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "%s  decoded %d of the first %d records%n",
                bad == 0 ? "ok  " : "FAIL",
                decoded,
                decoded + bad);
    }

    private record SampleRow(Block block, int row) implements RowTarget {
        @Override
        public void absent(int column) {}
    }

    private static String redact(String url) {
        return dev.sluice.clickhouse.client.ConnectionConfig.redact(url);
    }
}
