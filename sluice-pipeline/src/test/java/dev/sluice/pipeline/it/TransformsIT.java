package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.Transforms;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Filters and computed columns through a whole pipeline into the server, against the server
 * computing the same expressions: the same NDJSON lines go through the pipeline (decoded, filtered
 * and computed column-wise, refused rows dead-lettered) into one table, and as raw lines into
 * another, from which {@code INSERT ... SELECT ... WHERE} computes the same columns with the same
 * expressions. Every row and value must match; {@code now()} and {@code today()} are the batch's.
 */
@Timeout(300)
class TransformsIT {
    private static final int RECORDS = 20_000;

    /** The computed columns, as the pipeline configures them (column → expression). */
    private static final Map<String, String> COMPUTED = new LinkedHashMap<>();

    static {
        COMPUTED.put("label", "concat(s, '-', toString(n))");
        COMPUTED.put("bucket", "n % 7");
        COMPUTED.put("user", "visitParamExtractUInt(raw(), 'user')");
        COMPUTED.put("plan", "visitParamExtractString(raw(), 'plan')");
        COMPUTED.put("tagged", "visitParamHas(raw(), 'tag') OR n < 0");
        COMPUTED.put("kind", "multiIf(n < 0, 'neg', n % 2 = 0, 'even', 'odd')");
        COMPUTED.put("price", "if(n > 0, n / 4, coalesce(NULL, 0.5))");
        COMPUTED.put("code", "toUInt16(visitParamExtractString(raw(), 'code'))");
        COMPUTED.put("at", "now()");
        COMPUTED.put("day", "today()");
    }

    private static final String FILTER = "n % 3 != 1 AND s IN ('a', 'b', 'c', 'e')";

    private static final String COLUMNS =
            "n Int64, s String, label String, bucket UInt8, user UInt64, plan String,"
                    + " tagged UInt8, kind String, price Float64, code UInt16, at DateTime,"
                    + " day Date";

    private static List<String> lines() {
        Random rnd = new Random(7);
        List<String> out = new ArrayList<>();
        String[] plans = {"free", "pro", "t\\u00e9am", "ent\\\"erprise"};
        for (int k = 0; k < RECORDS; k++) {
            long n = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(2000) - 1000;
            StringBuilder sb = new StringBuilder("{\"n\":").append(n);
            sb.append(",\"s\":\"").append((char) ('a' + rnd.nextInt(6))).append('"');
            sb.append(",\"meta\":{\"user\":").append(rnd.nextInt(1_000_000));
            sb.append(",\"plan\":\"").append(plans[rnd.nextInt(plans.length)]).append("\"}");
            if (rnd.nextBoolean()) {
                sb.append(",\"tag\":1");
            }
            // Every 50th record has a code toUInt16 refuses: dead-lettered.
            sb.append(",\"code\":\"")
                    .append(k % 50 == 7 ? "oops" : rnd.nextInt(65_536))
                    .append('"');
            out.add(sb.append('}').toString());
        }
        return out;
    }

    /** Collects dead letters in memory. */
    private static final class Letters implements DeadLetters {
        final List<String> records = new CopyOnWriteArrayList<>();
        final List<String> reasons = new CopyOnWriteArrayList<>();

        @Override
        public void write(PolledRecords batch, int index, String reason) {
            records.add(
                    new String(
                            batch.data,
                            batch.start[index],
                            batch.end[index] - batch.start[index],
                            StandardCharsets.UTF_8));
            reasons.add(reason);
        }

        @Override
        public void writeRow(
                String source, String partition, long position, byte[] row, String reason) {
            records.add(new String(row, StandardCharsets.UTF_8));
            reasons.add(reason);
        }

        @Override
        public void flush() {}

        @Override
        public long count() {
            return records.size();
        }

        @Override
        public void close() {}
    }

    @Test
    void theSameRowsAndValuesAsTheServerComputes() throws Exception {
        String url = TestServer.url();
        String ours = TestServer.newTable("transforms_ours");
        String raw = TestServer.newTable("transforms_raw");
        String theirs = TestServer.newTable("transforms_theirs");
        TestServer.execute("CREATE TABLE " + ours + " (" + COLUMNS + ") ENGINE = Memory");
        TestServer.execute("CREATE TABLE " + theirs + " (" + COLUMNS + ") ENGINE = Memory");
        TestServer.execute("CREATE TABLE " + raw + " (line String) ENGINE = Memory");
        List<String> lines = lines();

        List<TransformSpec> specs =
                List.of(
                        new TransformSpec("filter", Map.of("where", FILTER)),
                        new TransformSpec("computed", Map.of("columns", COMPUTED)),
                        new TransformSpec(
                                "drop", Map.of("fields", List.of("meta", "tag", "code"))));
        DecodeSpec json = new DecodeSpec(Format.JSON, List.of(), false, Map.of(), false, ',');
        Letters letters = new Letters();
        Factories factories =
                new Factories() {
                    @Override
                    public Source source(int reader, int readers, LocalCheckpoints c) {
                        return new MemorySource("mem").partition("lines", lines);
                    }

                    @Override
                    public Decoder decoder(TargetColumns target) {
                        return DecoderFactory.create(json, specs, target);
                    }

                    @Override
                    public TargetColumns targetColumns(
                            dev.sluice.clickhouse.schema.TableSchema table) {
                        return DecoderFactory.targetColumns(json, specs, table);
                    }

                    @Override
                    public List<Transform> transforms(TargetColumns target) {
                        return Transforms.create(specs, target, Clock.SYSTEM);
                    }

                    @Override
                    public DeadLetters deadLetters() {
                        return letters;
                    }
                };
        long before = System.currentTimeMillis() / 1000;
        Pipeline p = Pipeline.start(spec(url, ours), factories, Clock.SYSTEM);
        PipelineResult r = p.awaitCompletion();
        long after = System.currentTimeMillis() / 1000 + 1;
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);

        // The server's twin: the raw lines, then the same expressions over them.
        try (NativeConnection c = TestServer.connect()) {
            Block block =
                    new Block(List.of(ColumnFactory.create("line", "String")), List.of("String"));
            lines.forEach(l -> block.column(0).appendString(l));
            c.insert(raw, block, Map.of(), null);
        }
        String n = "visitParamExtractInt(line, 'n')";
        String s = "visitParamExtractString(line, 's')";
        StringBuilder select = new StringBuilder("SELECT ");
        select.append(n).append(" AS n, ").append(s).append(" AS s");
        for (Map.Entry<String, String> e : COMPUTED.entrySet()) {
            String expr = e.getValue().replace("raw()", "line");
            if (e.getKey().equals("at") || e.getKey().equals("day")) {
                expr = "toDateTime(0)"; // the batch's clock: compared apart
                expr = e.getKey().equals("day") ? "toDate(0)" : expr;
            }
            select.append(", CAST(")
                    .append(expr)
                    .append(", '")
                    .append(type(e.getKey()))
                    .append("') AS ")
                    .append(e.getKey());
        }
        select.append(" FROM ")
                .append(raw)
                .append(" WHERE ")
                .append(FILTER)
                .append(" AND visitParamExtractString(line, 'code') != 'oops'");
        TestServer.execute("INSERT INTO " + theirs + " " + select);

        String cols = "n, s, label, bucket, user, plan, tagged, kind, price, code";
        List<List<Object>> expected =
                rows("SELECT " + cols + " FROM " + theirs + " ORDER BY n, label, user");
        List<List<Object>> actual =
                rows("SELECT " + cols + " FROM " + ours + " ORDER BY n, label, user");
        assertThat(expected).hasSizeGreaterThan(RECORDS / 3);
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("row %d", i).isEqualTo(expected.get(i));
        }
        // now() and today(): the batch's, one value per batch, in the server's zone.
        assertThat(TestServer.single("SELECT min(toUInt32(at)) FROM " + ours))
                .isGreaterThanOrEqualTo(before);
        assertThat(TestServer.single("SELECT max(toUInt32(at)) FROM " + ours))
                .isLessThanOrEqualTo(after);
        assertThat(TestServer.single("SELECT countIf(day != toDate(at)) FROM " + ours)).isZero();
        // The refused records are dead-lettered with the reason; the filtered ones are not.
        long refused =
                lines.stream().filter(l -> l.contains("\"oops\"")).filter(l -> passes(l)).count();
        assertThat(letters.records).hasSize((int) refused);
        assertThat(letters.records).allMatch(l -> l.contains("\"oops\""));
        assertThat(letters.reasons)
                .allMatch(
                        m ->
                                m.equals(
                                        "column code (UInt16): 'oops' is not a plain UInt16 literal"));
        assertThat(r.stats().rowsWritten()).isEqualTo(expected.size());
    }

    /** Whether a line passes the filter (the rows the dead letters come from). */
    private static boolean passes(String line) {
        long n = Long.parseLong(line.substring(5, line.indexOf(',')));
        char s = line.charAt(line.indexOf("\"s\":\"") + 5);
        return n % 3 != 1 && "abce".indexOf(s) >= 0;
    }

    private static String type(String column) {
        for (String def : COLUMNS.split(", ")) {
            String[] nameType = def.split(" ", 2);
            if (nameType[0].equals(column)) {
                return nameType[1];
            }
        }
        throw new IllegalArgumentException(column);
    }

    private static List<List<Object>> rows(String sql) {
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> rows = c.queryRows(sql);
            for (List<Object> row : rows) {
                row.replaceAll(
                        v -> v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v);
            }
            return rows;
        }
    }

    private static PipelineSpec spec(String url, String table) {
        return new PipelineSpec(
                "it",
                1,
                new PipelineSpec.StdinSource(1 << 20),
                new DecodeSpec(Format.JSON, List.of(), false, Map.of(), false, ','),
                List.of(),
                new PipelineSpec.SinkSpec(
                        List.of(new ShardSpec(List.of(url), 1)),
                        table,
                        new PipelineSpec.BatchSpec(3_000, 64 << 20, Duration.ofSeconds(5)),
                        2,
                        "lz4",
                        false,
                        false,
                        Map.of(),
                        new PipelineSpec.RetrySpec(
                                Duration.ofMillis(20), Duration.ofMillis(500), 2.0, 0.2, 0)),
                new PipelineSpec.ErrorsSpec(ErrorPolicy.DEAD_LETTER, null, -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofSeconds(1), null),
                new PipelineSpec.AdminSpec(null));
    }
}
