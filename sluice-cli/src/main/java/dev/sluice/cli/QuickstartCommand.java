package dev.sluice.cli;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.time.Clock;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice quickstart}: the first thing to run. Uses {@code CLICKHOUSE_URL} or starts the
 * project's private ClickHouse, creates a demo table and runs the generator pipeline into it.
 */
@Command(
        name = "quickstart",
        mixinStandardHelpOptions = true,
        description = {
            "Load demo events into ClickHouse: uses CLICKHOUSE_URL (or --url), else starts the"
                    + " project's private ClickHouse (installing it when missing).",
            "Creates (replaces) the demo table, runs the generator pipeline into it with live"
                    + " progress, and prints a summary and a query to try next."
        })
final class QuickstartCommand implements Callable<Integer> {
    static final String EVENTS_COLUMNS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    @Option(names = "--url", description = "ClickHouse URL (default: $CLICKHOUSE_URL, else local)")
    String url;

    @Option(
            names = "--rows",
            defaultValue = "10000000",
            description = "Events to insert (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(
            names = "--table",
            defaultValue = "sluice_demo.events",
            description = "Demo table, replaced on each run (default: ${DEFAULT-VALUE})")
    String table;

    @Option(
            names = "--compression",
            defaultValue = "lz4",
            description = "lz4, zstd or none (default: ${DEFAULT-VALUE})")
    String compression;

    @Option(
            names = "--batch-rows",
            defaultValue = "1048576",
            description = "Rows per INSERT (default: ${DEFAULT-VALUE})")
    int batchRows;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed")
    long seed;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        if (rows <= 0) {
            throw new IllegalArgumentException("--rows must be positive");
        }
        String resolved = url;
        String clientHint = "clickhouse-client";
        if (resolved == null || resolved.isBlank()) {
            resolved = System.getenv("CLICKHOUSE_URL");
        }
        if (resolved == null || resolved.isBlank()) {
            out.println("No CLICKHOUSE_URL: starting the project's private ClickHouse...");
            resolved = LocalClickHouse.start().get("CLICKHOUSE_URL");
            clientHint = LocalClickHouse.home().resolve("scripts/clickhouse") + " client";
        }
        ConnectionConfig config = ConnectionConfig.parse(resolved);
        try (ClickHouseClient c = ClickHouseClient.open(config)) {
            out.println("Connected to " + config + " — " + c.server());
            int dot = table.indexOf('.');
            if (dot > 0) {
                c.execute("CREATE DATABASE IF NOT EXISTS " + table.substring(0, dot));
            }
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " ("
                            + EVENTS_COLUMNS
                            + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
        }
        out.printf(
                Locale.ROOT,
                "Running the generator pipeline: %,d events into %s...%n",
                rows,
                table);
        PipelineSpec spec = spec(resolved);
        int code =
                new PipelineRunner(out, System.err)
                        .run(spec, new SpecFactories(spec, Clock.SYSTEM, System.in), rows);
        if (code != 0) {
            return code;
        }
        try (ClickHouseClient c = ClickHouseClient.open(config)) {
            long count = (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
            out.printf(Locale.ROOT, "The table now holds %,d rows. Try:%n", count);
        }
        out.println(
                "  "
                        + clientHint
                        + " --query \"SELECT kind, count() AS n, uniqExact(tenant) AS tenants FROM "
                        + table
                        + " GROUP BY kind ORDER BY n DESC LIMIT 5\"");
        out.println(
                "Next: ./sluice load --help; for the examples/ pipelines, point CLICKHOUSE_URL at"
                        + " this server ("
                        + (clientHint.startsWith("clickhouse-client")
                                ? "it is already set"
                                : "eval \"$(scripts/clickhouse env)\"")
                        + ") and run ./sluice check examples/generator-to-clickhouse.yaml");
        return 0;
    }

    private PipelineSpec spec(String target) {
        int processors = Runtime.getRuntime().availableProcessors();
        return new PipelineSpec(
                "quickstart",
                ConfigDefaults.threads(processors),
                new GeneratorSource(rows, 0, seed, ConfigDefaults.GENERATOR_PAYLOAD_ARENA),
                new DecodeSpec(Format.GENERATOR, List.of(), false, Map.of(), false, ','),
                List.of(),
                new SinkSpec(
                        List.of(new ShardSpec(List.of(target), 1)),
                        table,
                        new BatchSpec(batchRows, 128L << 20, Duration.ofSeconds(1)),
                        ConfigDefaults.INFLIGHT_PER_SHARD,
                        compression,
                        false,
                        Map.of(),
                        ConfigDefaults.RETRY),
                new ErrorsSpec(ErrorPolicy.FAIL, ConfigDefaults.deadLetterPath("quickstart"), -1),
                new BackpressureSpec(
                        ConfigDefaults.MAX_INFLIGHT_BYTES,
                        ConfigDefaults.HIGH_WATERMARK,
                        ConfigDefaults.LOW_WATERMARK),
                new CheckpointSpec(ConfigDefaults.CHECKPOINT_INTERVAL, null),
                new PipelineSpec.AdminSpec(null));
    }
}
