package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code presort: auto} in a real pipeline against the real server, with batches piling up: one
 * writer thread, small batches, and a table whose every INSERT sleeps on the server (a DEFAULT only
 * the server computes). Every row arrives with its values; the writer sorted batches that had
 * others waiting behind them and sent the last one (nothing behind it) as it came; the server found
 * exactly the blocks the client sorted already sorted.
 */
@Timeout(300)
class PresortAutoIT {
    private static final int ROWS = 4_000;
    private static final int BATCH_ROWS = 200;
    private static final List<String> COLUMNS = List.of("ts", "tenant", "kind", "id", "payload");

    /** Row k: random tenant and time (so a batch is not in key order), unique id. */
    private static List<String> row(long k) {
        Random rnd = new Random(k * 0x9E3779B97F4A7C15L);
        long ts = 1_548_000_000L + rnd.nextInt(2_000_000);
        return List.of(
                Long.toString(ts),
                Integer.toString(rnd.nextInt(50)),
                "k" + rnd.nextInt(5),
                Long.toString(k),
                "payload-" + k);
    }

    @Test
    void autoSortsTheBatchesWithOthersWaitingAndEveryRowArrivesAsSent() throws Exception {
        String table = TestServer.newTable("presort_auto");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (ts DateTime, tenant UInt32, kind String, id UInt64, payload String,"
                        + " slow UInt8 DEFAULT sleep(0.2)) ENGINE = MergeTree ORDER BY (tenant,"
                        + " ts)");
        DecodeSpec csv = new DecodeSpec(Format.CSV, COLUMNS, false, Map.of(), false, ',');
        MemorySource source =
                new MemorySource("mem")
                        .partition(
                                "events",
                                ROWS,
                                k -> {
                                    List<String> r = row(k);
                                    return String.join(",", r);
                                });
        PipelineSpec spec =
                new PipelineSpec(
                        "presort-auto",
                        1,
                        new PipelineSpec.StdinSource(1 << 20),
                        csv,
                        List.of(),
                        PipelineSpec.SinkSpec.builder(
                                        List.of(new ShardSpec(List.of(TestServer.url()), 1)), table)
                                .batch(
                                        new PipelineSpec.BatchSpec(
                                                BATCH_ROWS, 64 << 20, Duration.ofSeconds(5)))
                                .inflightPerShard(1) // one writer: its queue is the backlog
                                .presort(PresortMode.AUTO)
                                .build(),
                        new PipelineSpec.ErrorsSpec(ErrorPolicy.FAIL, null, -1),
                        new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                        new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), null),
                        new PipelineSpec.AdminSpec(null));

        Pipeline p = Pipeline.start(spec, factories(source, csv), Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(p.notes()).anyMatch(n -> n.contains("(presort: auto)"));

        // Every row, value by value.
        List<List<String>> expected = new ArrayList<>();
        for (long k = 0; k < ROWS; k++) {
            expected.add(row(k));
        }
        assertThat(
                        rows(
                                "SELECT toUInt32(ts), tenant, kind, id, payload FROM "
                                        + table
                                        + " ORDER BY id"))
                .isEqualTo(expected);

        double sorted = counter(p, "outcome=\"sorted\"");
        double alreadySorted = counter(p, "outcome=\"already_sorted\"");
        double unsorted = counter(p, "outcome=\"unsorted\"");
        double skipped = counter(p, "outcome=\"skipped_no_backlog\"");
        System.out.printf(
                "presort auto, %d batches of %d rows: sorted %.0f, already_sorted %.0f, unsorted"
                        + " %.0f, skipped_no_backlog %.0f%n",
                ROWS / BATCH_ROWS, BATCH_ROWS, sorted, alreadySorted, unsorted, skipped);
        // One decision per batch (one block each: every row has every sent column).
        assertThat(sorted + alreadySorted + unsorted + skipped).isEqualTo(ROWS / BATCH_ROWS);
        assertThat(unsorted).isZero(); // the key (tenant, ts) is computed here
        // The last batch is taken with nothing behind it: always skipped. The others wait behind
        // a 0.2 s INSERT each while the pipeline seals 200 rows in far less: sorted.
        assertThat(skipped).isGreaterThanOrEqualTo(1);
        assertThat(sorted).isGreaterThanOrEqualTo(1);

        // The server found sorted exactly the blocks the client sorted (or found in order).
        List<long[]> inserts = insertEvents(table);
        assertThat(inserts).hasSize(ROWS / BATCH_ROWS);
        long foundSorted = inserts.stream().filter(e -> e[1] == 1).count();
        assertThat(foundSorted).isEqualTo((long) (sorted + alreadySorted));
        assertThat(inserts.stream().filter(e -> e[1] == 0).count()).isEqualTo((long) skipped);
        TestServer.execute("DROP TABLE " + table);
    }

    private static Factories factories(MemorySource source, DecodeSpec csv) {
        return new Factories() {
            @Override
            public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
                return source;
            }

            @Override
            public TargetColumns targetColumns(TableSchema table) {
                return DecoderFactory.targetColumns(csv, List.of(), table);
            }

            @Override
            public Decoder decoder(TargetColumns target) {
                return DecoderFactory.create(csv, target);
            }

            @Override
            public List<Transform> transforms(TargetColumns target) {
                return List.of();
            }

            @Override
            public DeadLetters deadLetters() {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static List<List<String>> rows(String sql) {
        try (NativeConnection c = TestServer.connect()) {
            List<List<String>> out = new ArrayList<>();
            for (List<Object> row : c.queryRows(sql)) {
                List<String> r = new ArrayList<>();
                for (Object v : row) {
                    r.add(
                            v instanceof byte[] b
                                    ? new String(b, StandardCharsets.UTF_8)
                                    : String.valueOf(v));
                }
                out.add(r);
            }
            return out;
        }
    }

    /** The presort counter's value for the series with {@code label}. */
    private static double counter(Pipeline p, String label) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, p.registry().scrape());
        Matcher m =
                Pattern.compile("(?m)^etl_sink_presort_blocks_total\\{([^}]*)\\} ([0-9.eE+-]+)$")
                        .matcher(out.toString(StandardCharsets.UTF_8));
        double sum = 0;
        while (m.find()) {
            if (m.group(1).contains(label)) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /**
     * {blocks written, blocks found already sorted} of each INSERT into {@code table} that wrote
     * something, from the query log (written just after the answer: polled).
     */
    private static List<long[]> insertEvents(String table) throws InterruptedException {
        String sql =
                "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                        + " 'MergeTreeDataWriterBlocks')],"
                        + " ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                        + " 'MergeTreeDataWriterBlocksAlreadySorted')]"
                        + " FROM system.query_log WHERE type = 2 AND position(query, 'INSERT INTO "
                        + table
                        + " ') = 1";
        List<long[]> events = new ArrayList<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            TestServer.execute("SYSTEM FLUSH LOGS");
            events.clear();
            for (List<String> r : rows(sql)) {
                long blocks = Long.parseLong(r.get(0));
                if (blocks > 0) {
                    events.add(new long[] {blocks, Long.parseLong(r.get(1))});
                }
            }
            if (events.size() >= ROWS / BATCH_ROWS) {
                break;
            }
            Thread.sleep(100);
        }
        return events;
    }
}
