package dev.sluice.cli;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.compress.CompressionMethod;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice quickstart}: the first thing to run. Uses {@code CLICKHOUSE_URL} or starts the
 * project's private ClickHouse, creates a demo table and streams synthetic events into it.
 */
@Command(
        name = "quickstart",
        mixinStandardHelpOptions = true,
        description = {
            "Load demo events into ClickHouse: uses CLICKHOUSE_URL (or --url), else starts the"
                    + " project's private ClickHouse (installing it when missing).",
            "Creates (replaces) the demo table, inserts the rows over the native protocol with"
                    + " live progress, and prints a summary and a query to try next."
        })
final class QuickstartCommand implements Callable<Integer> {
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
            names = "--block-rows",
            defaultValue = "1048576",
            description = "Rows per Native block (default: ${DEFAULT-VALUE})")
    int blockRows;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed")
    long seed;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        if (rows < 0) {
            throw new IllegalArgumentException("--rows must not be negative");
        }
        String resolved = url;
        String clientHint;
        if (resolved == null || resolved.isBlank()) {
            resolved = System.getenv("CLICKHOUSE_URL");
        }
        if (resolved == null || resolved.isBlank()) {
            out.println("No CLICKHOUSE_URL: starting the project's private ClickHouse...");
            Map<String, String> env = LocalClickHouse.start();
            resolved = env.get("CLICKHOUSE_URL");
            clientHint = LocalClickHouse.home().resolve("scripts/clickhouse") + " client";
        } else {
            clientHint = "clickhouse-client";
        }
        ConnectionConfig config =
                ConnectionConfig.parse(resolved).toBuilder()
                        .compression(CompressionMethod.parse(compression))
                        .build();

        try (NativeConnection c = NativeConnection.open(config)) {
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
                            + EventsGenerator.TABLE_COLUMNS
                            + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
            out.printf(Locale.ROOT, "Inserting %,d events into %s...%n", rows, table);

            EventsGenerator generator =
                    new EventsGenerator(seed, 2048, System.currentTimeMillis() / 1000 - 86_400);
            ProgressLine progress = new ProgressLine(out, ProgressLine.stdoutIsTerminal(), rows);
            InsertResult result;
            try (Insert insert =
                    c.insert(
                            table,
                            List.of(),
                            Map.of(),
                            InsertOptions.DEFAULTS.withMaxBlockRows(blockRows))) {
                long done = 0;
                while (done < rows) {
                    long chunk = Math.min(65_536, rows - done);
                    generator.appendTo(insert, chunk);
                    done += chunk;
                    progress.update(insert.rowsSent(), insert.uncompressedBytesSent());
                }
                result = insert.finish();
            }
            progress.finish();
            printSummary(out, result);
            long count = (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
            out.printf(Locale.ROOT, "The table now holds %,d rows. Try:%n", count);
            out.println(
                    "  "
                            + clientHint
                            + " --query \"SELECT kind, count() AS n, uniqExact(tenant) AS"
                            + " tenants FROM "
                            + table
                            + " GROUP BY kind ORDER BY n DESC LIMIT 5\"");
        }
        return 0;
    }

    private static void printSummary(PrintStream out, InsertResult r) {
        double seconds = r.elapsedNanos() / 1e9;
        out.printf(
                Locale.ROOT,
                "Done: %,d rows in %.2f s = %,.0f rows/s, %.1f MB/s of Native data%n",
                r.rows(),
                seconds,
                r.rows() / seconds,
                r.uncompressedBytes() / seconds / 1e6);
        out.printf(
                Locale.ROOT,
                "      %d blocks, %,d bytes on the wire for %,d bytes of data (%.2fx"
                        + " compression)%n",
                r.blocks(),
                r.wireBytes(),
                r.uncompressedBytes(),
                r.compressionRatio());
    }
}
