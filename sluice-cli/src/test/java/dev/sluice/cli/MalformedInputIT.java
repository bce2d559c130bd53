package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.it.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sluice load} of files that mix good records with every kind of bad one — broken JSON,
 * wrong types, numbers out of range, invalid UTF-8, a line over {@code --max-record-bytes}, a row
 * missing fields, an unknown field — plus a truncated .gz, under each error policy: every good row
 * lands, every bad record is accounted for with its position and reason, and the counts add up to
 * the input.
 *
 * <p>"Missing a required column": ClickHouse fills any column left out with its DEFAULT or its
 * type's default, so a JSON record without a key is not an error — it lands with the defaults (the
 * docs say so, and {@link #aJsonRecordWithoutAKeyLandsWithTheDefaults} pins it). What cannot be
 * read is a CSV/TSV row with fewer (or more) fields than the columns it must fill: its values would
 * land in the wrong columns, so it is rejected.
 */
class MalformedInputIT {
    private static final int MAX_RECORD = 8 * 1024;
    private static final int BATCH = 500;
    private static final String COLUMNS =
            "key UInt32, u8 UInt8, amount Decimal(9, 2), s String, ts DateTime,"
                    + " note String DEFAULT 'none'";
    private static final JsonFactory JSON = new JsonFactory();

    @TempDir Path dir;

    private static String url;

    @BeforeAll
    static void server() {
        url = TestServer.url();
    }

    // ---- The inputs ----

    /** One record of an input file and what must become of it. */
    record Rec(byte[] bytes, long key, String reason) {
        boolean good() {
            return reason == null;
        }
    }

    /** A file of records, with each record's position (byte offset) and line. */
    record Input(Path path, List<Rec> recs, long[] positions) {
        String name() {
            return path.toAbsolutePath().toString();
        }
    }

    /** The good record {@code k}: its values all follow from {@code k}. */
    private static Rec good(boolean json, long k) {
        String amount = (k / 100) + "." + String.format("%02d", k % 100);
        String ts = "2024-01-01 00:00:00".substring(0, 11) + time(k);
        String line =
                json
                        ? "{\"key\":"
                                + k
                                + ",\"u8\":"
                                + (k % 256)
                                + ",\"amount\":\""
                                + amount
                                + "\",\"s\":\"good "
                                + k
                                + "\",\"ts\":\""
                                + ts
                                + "\""
                                + (k % 3 == 0 ? ",\"note\":\"n" + k + "\"" : "")
                                + "}"
                        : k + "\t" + (k % 256) + "\t" + amount + "\tgood " + k + "\t" + ts;
        return new Rec(line.getBytes(StandardCharsets.UTF_8), k, null);
    }

    private static String time(long k) {
        long s = k % 86_400;
        return String.format("%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    private static Rec bad(String line, String reason) {
        return new Rec(line.getBytes(StandardCharsets.ISO_8859_1), -1, reason);
    }

    private static Rec bad(byte[] line, String reason) {
        return new Rec(line, -1, reason);
    }

    /** The bad records of each format, with a part of the reason each must be given. */
    private static List<Rec> badOnes(boolean json) {
        String overlong = "x".repeat(3 * MAX_RECORD);
        if (json) {
            return List.of(
                    bad("{\"key\":900001,\"u8\":1,\"s\":\"unterminated", "invalid JSON at byte"),
                    bad("{\"key\":900002,\"u8\":\"abc\",\"s\":\"x\"}", "column u8 (UInt8)"),
                    bad("{\"key\":900003,\"ts\":\"yesterday\"}", "column ts (DateTime)"),
                    bad("{\"key\":900004,\"u8\":300}", "value 300 is out of range"),
                    bad("{\"key\":-1}", "column key (UInt32): value -1 is out of range"),
                    bad("{\"key\":900006,\"amount\":1.234}", "more than 2 fractional digits"),
                    bad(
                            "{\"key\":900007,\"s\":\"bad \u00ff\u00fe here\"}",
                            "invalid JSON at byte 23: Invalid UTF-8"),
                    bad("{\"key\":900008,\"s\":\"" + overlong + "\"}", "max_record_bytes"),
                    bad("{\"key\":900009,\"zzz\":1}", "field zzz: table"),
                    bad("[1,2,3]", "a record must be a JSON object"),
                    bad("{\"key\":900011} x", "unexpected data after the end of the object"),
                    bad("{\"key\":900012,\"key\":900013}", "duplicate key"));
        }
        return List.of(
                bad("900101\tabc\t1.00\tx\t2024-01-01 00:00:00", "column u8 (UInt8)"),
                bad("900102\t300\t1.00\tx\t2024-01-01 00:00:00", "value 300 is out of range"),
                bad("900103\t5", "expected 5 tab-separated fields, found 2"),
                bad(
                        "900104\t5\t1.00\tx\t2024-01-01 00:00:00\textra",
                        "expected 5 tab-separated fields, found more"),
                bad("900105\t5\t1.234\tx\t2024-01-01 00:00:00", "more than 2 fractional digits"),
                bad("900106\t5\t1.00\tx\t2024-02-30 00:00:00", "column ts (DateTime)"),
                bad("900107\t999\t1.00\tbad \u00ff here\t2024-01-01 00:00:00", "out of range"),
                bad("900108\t5\t1.00\t" + overlong + "\t2024-01-01 00:00:00", "max_record_bytes"),
                bad("-5\t5\t1.00\tx\t2024-01-01 00:00:00", "column key (UInt32)"));
    }

    /**
     * {@code good} good records (keys from {@code firstKey}) with the bad ones spread among them:
     * the first after {@code firstBadAfter} good records, the others further on.
     */
    private Input file(boolean json, String name, int good, long firstKey, int firstBadAfter)
            throws IOException {
        List<Rec> bads = new ArrayList<>(badOnes(json));
        List<Rec> recs = new ArrayList<>();
        int gap = (good - firstBadAfter) / (bads.size() + 1);
        for (int i = 0; i < good; i++) {
            if (i >= firstBadAfter && (i - firstBadAfter) % gap == 0 && !bads.isEmpty()) {
                recs.add(bads.remove(0));
            }
            recs.add(good(json, firstKey + i));
        }
        if (!json) {
            // invalid UTF-8 in a String is no error outside JSON: the bytes land as they are
            recs.add(
                    new Rec(
                            (firstKey + good + "\t7\t7.00\tbin \u00ff\u00fe\t2024-01-01 00:00:07")
                                    .getBytes(StandardCharsets.ISO_8859_1),
                            firstKey + good,
                            null));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long[] positions = new long[recs.size()];
        for (int i = 0; i < recs.size(); i++) {
            positions[i] = out.size();
            out.write(recs.get(i).bytes);
            out.write('\n');
        }
        Path p = dir.resolve(name);
        Files.write(p, out.toByteArray());
        return new Input(p, recs, positions);
    }

    /**
     * {@code good} good records gzipped and cut at 60% of the compressed bytes. The records the cut
     * leaves whole are what a reader can recover; the partial last one is an error record.
     */
    private Input truncatedGzip(boolean json, String name, int good, long firstKey)
            throws IOException {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        for (int i = 0; i < good; i++) {
            plain.write(good(json, firstKey + i).bytes);
            plain.write('\n');
        }
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
            out.write(plain.toByteArray());
        }
        byte[] cut = Arrays.copyOf(gz.toByteArray(), gz.size() * 6 / 10);
        Path p = dir.resolve(name);
        Files.write(p, cut);
        // What survives the cut, as a reader sees it: whole lines, then a partial one.
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(cut))) {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                got.write(buf, 0, n);
            }
        } catch (EOFException expected) {
            // the cut
        }
        byte[] d = got.toByteArray();
        List<Rec> recs = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < d.length; i++) {
            if (d[i] == '\n') {
                recs.add(good(json, firstKey + recs.size()));
                positions.add((long) start);
                start = i + 1;
            }
        }
        assertThat(recs.size()).as("records before the cut").isBetween(good / 4, good - 1);
        recs.add(new Rec(Arrays.copyOfRange(d, start, d.length), -1, "truncated"));
        positions.add((long) start);
        return new Input(p, recs, positions.stream().mapToLong(Long::longValue).toArray());
    }

    /** The plain file and the truncated .gz of a format. */
    private List<Input> inputs(boolean json) throws IOException {
        String ext = json ? ".ndjson" : ".tsv";
        return List.of(
                file(json, "mixed" + ext, 2400, 1, 1234),
                truncatedGzip(json, "cut" + ext + ".gz", 3000, 100_000));
    }

    // ---- Running sluice ----

    private String newTable() {
        String t = TestServer.newTable("malformed");
        TestServer.execute(
                "CREATE TABLE " + t + " (" + COLUMNS + ") ENGINE = MergeTree ORDER BY key");
        return t;
    }

    private Result load(boolean json, String table, List<Input> inputs, String... more)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("load"));
        inputs.forEach(i -> args.add(i.path().toString()));
        args.addAll(
                List.of(
                        "--into",
                        table,
                        "--url",
                        url,
                        "--max-record-bytes",
                        MAX_RECORD + "B",
                        "--batch-rows",
                        Integer.toString(BATCH),
                        "--linger",
                        "1h")); // batches end at 500 rows only: what a failure leaves is exact
        if (!json) {
            args.addAll(List.of("--columns", "key,u8,amount,s,ts"));
        }
        args.addAll(Arrays.asList(more));
        return SluiceCli.run(dir, args.toArray(String[]::new));
    }

    // ---- The policies ----

    /**
     * {@code fail}: exit 1 with one line naming the first bad record (file:line, position) and its
     * reason; the batches sealed before it are written, nothing from the failing batch on; the
     * resume position printed is where the unwritten rows start, and {@code --resume --on-error
     * skip} then writes exactly the rest.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void failStopsAtTheFirstBadRecordAndResumeWritesTheRest(boolean json) throws Exception {
        List<Input> inputs = inputs(json);
        String table = newTable();
        Result r = load(json, table, inputs, "--threads", "1");
        assertThat(r.exitCode()).as(r.output()).isEqualTo(1);

        Input first = inputs.get(0);
        int bad = 0;
        while (first.recs().get(bad).good()) {
            bad++;
        }
        int goodBefore = bad; // the first bad record follows only good ones
        int written = goodBefore / BATCH * BATCH;
        long resumeAt = first.positions()[written];
        assertThat(r.errorLines()).as(r.output()).hasSize(1);
        assertThat(r.errorLines().get(0))
                .as(r.output())
                .startsWith(
                        "sluice: stopped at "
                                + first.name()
                                + ":"
                                + (bad + 1)
                                + " (position "
                                + first.positions()[bad]
                                + "): ")
                .contains(first.recs().get(bad).reason())
                .contains("; everything before position " + resumeAt + " is written")
                .contains("--resume")
                .doesNotContain("\tat ");
        assertThat(keys(table)).isEqualTo(goodKeys(first, 0, written));

        Result resumed =
                load(json, table, inputs, "--threads", "1", "--resume", "--on-error", "skip");
        assertThat(resumed.exitCode()).as(resumed.output()).isZero();
        assertThat(keys(table)).as("every good row exactly once").isEqualTo(allGoodKeys(inputs));
        assertThat(count(table)).isEqualTo(allGoodKeys(inputs).size());
        assertThat(resumed.stdout()).contains(String.format("; %,d skipped,", badCount(inputs)));
        assertValues(table, json);
    }

    /** {@code skip}: exit 0, every good row, and the summary counts every bad record. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void skipWritesEveryGoodRowAndCountsTheBadOnes(boolean json) throws Exception {
        List<Input> inputs = inputs(json);
        String table = newTable();
        Result r = load(json, table, inputs, "--on-error", "skip");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.errorLines()).as(r.output()).isEmpty();
        assertThat(keys(table)).isEqualTo(allGoodKeys(inputs));
        assertThat(count(table)).isEqualTo(allGoodKeys(inputs).size());
        assertThat(r.stdout())
                .contains(String.format("%,d rows written in", allGoodKeys(inputs).size()))
                .contains(String.format("; %,d skipped, 0 dead-lettered", badCount(inputs)));
        assertValues(table, json);
    }

    /**
     * {@code dead-letter}: exit 0, every good row, and every bad record in the dead-letter file
     * with its source, partition, position, line, reason and raw bytes; written + dead-lettered =
     * the records in the input. Two pipeline threads read the two files at once.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void deadLetterKeepsEveryBadRecordWithItsPositionAndReason(boolean json) throws Exception {
        List<Input> inputs = inputs(json);
        String table = newTable();
        Path dead = dir.resolve("dead.ndjson");
        Result r =
                load(
                        json,
                        table,
                        inputs,
                        "--threads",
                        "2",
                        "--on-error",
                        "dead-letter",
                        "--dead-letter",
                        dead.toString());
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(keys(table)).isEqualTo(allGoodKeys(inputs));
        long records = inputs.stream().mapToLong(i -> i.recs().size()).sum();
        List<String> lines = Files.readAllLines(dead);
        assertThat(count(table) + lines.size()).as("written + dead-lettered").isEqualTo(records);
        assertThat(r.stdout())
                .contains(String.format("; 0 skipped, %,d dead-lettered", badCount(inputs)));

        Map<String, Input> byName = new HashMap<>();
        inputs.forEach(i -> byName.put(i.name(), i));
        TreeSet<String> seen = new TreeSet<>();
        for (String line : lines) {
            Map<String, String> n = flatObject(line);
            assertThat(n.get("source")).isEqualTo("file");
            Input in = byName.get(n.get("partition"));
            assertThat(in).as("partition of %s", line).isNotNull();
            long pos = Long.parseLong(n.get("position"));
            int i = Arrays.binarySearch(in.positions(), pos);
            assertThat(i)
                    .as("a record starts at position %d: %s", pos, line)
                    .isGreaterThanOrEqualTo(0);
            Rec rec = in.recs().get(i);
            assertThat(rec.good()).as("dead-lettered a good record: %s", line).isFalse();
            assertThat(seen.add(in.name() + "@" + pos)).as("twice: %s", line).isTrue();
            assertThat(n.get("reason")).contains(rec.reason());
            assertThat(n.get("line")).isEqualTo(Integer.toString(i + 1));
            byte[] raw =
                    n.containsKey("record")
                            ? n.get("record").getBytes(StandardCharsets.UTF_8)
                            : Base64.getDecoder().decode(n.get("record_base64"));
            if (rec.reason().equals("max_record_bytes")) {
                // only the first KiB of a record over the limit is kept
                assertThat(raw).isEqualTo(Arrays.copyOf(rec.bytes(), 1024));
            } else {
                assertThat(raw).isEqualTo(rec.bytes());
            }
            assertThat(n.containsKey("record_base64"))
                    .as("record_base64 exactly for bytes that are not UTF-8: %s", line)
                    .isEqualTo(!isUtf8(raw));
        }
        assertThat(seen).hasSize((int) badCount(inputs));
        assertValues(table, json);
    }

    /**
     * {@code --no-json-fast-path}: Jackson alone lands the same rows, value by value, and
     * dead-letters the same records with the same reasons as the default fast path, which hands it
     * the records it declines.
     */
    @Test
    void theJsonFastPathLandsAndRejectsWhatJacksonAloneDoes() throws Exception {
        List<Input> inputs = inputs(true);
        String[] tables = new String[2];
        List<List<String>> deadLetters = new ArrayList<>();
        for (int arm = 0; arm < 2; arm++) {
            tables[arm] = newTable();
            Path dead = dir.resolve("dead-" + arm + ".ndjson");
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "--threads",
                                    "1",
                                    "--on-error",
                                    "dead-letter",
                                    "--dead-letter",
                                    dead.toString()));
            if (arm == 1) {
                args.add("--no-json-fast-path");
            }
            Result r = load(true, tables[arm], inputs, args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.output()).isZero();
            List<String> lines = new ArrayList<>();
            for (String line : Files.readAllLines(dead)) {
                Map<String, String> n = flatObject(line);
                // the reasons name each arm's own table
                String reason = n.get("reason").replace(tables[arm], "TABLE");
                lines.add(n.get("partition") + "@" + n.get("position") + ": " + reason);
            }
            deadLetters.add(lines);
        }
        String all = "SELECT * FROM %s ORDER BY key FORMAT TabSeparated";
        String fast = TestServer.clickhouseClient(String.format(all, tables[0]));
        assertThat(fast.lines().count()).isEqualTo(allGoodKeys(inputs).size());
        assertThat(fast).isEqualTo(TestServer.clickhouseClient(String.format(all, tables[1])));
        assertThat(deadLetters.get(0)).hasSize((int) badCount(inputs));
        assertThat(deadLetters.get(0)).isEqualTo(deadLetters.get(1));
        assertValues(tables[0], true);
    }

    /** {@code --max-errors N}: N bad records are passed, the next one stops the load (exit 1). */
    @Test
    void maxErrorsStopsAfterThatMany() throws Exception {
        List<Input> inputs = inputs(true);
        String table = newTable();
        Path dead = dir.resolve("dead.ndjson");
        Result r =
                load(
                        true,
                        table,
                        inputs,
                        "--threads",
                        "1",
                        "--on-error",
                        "dead-letter",
                        "--dead-letter",
                        dead.toString(),
                        "--max-errors",
                        "3");
        assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
        Input first = inputs.get(0);
        int fourth = -1;
        for (int i = 0, n = 0; i < first.recs().size(); i++) {
            if (!first.recs().get(i).good() && ++n == 4) {
                fourth = i;
                break;
            }
        }
        assertThat(r.errorLines()).as(r.output()).hasSize(1);
        assertThat(r.errorLines().get(0))
                .startsWith(
                        "sluice: stopped at "
                                + first.name()
                                + ":"
                                + (fourth + 1)
                                + " (position "
                                + first.positions()[fourth]
                                + "): more than 3 records were rejected")
                .contains(first.recs().get(fourth).reason());
        assertThat(Files.readAllLines(dead)).hasSize(3);
    }

    /** No key for a column is no error: the row gets the column's DEFAULT or its type's default. */
    @Test
    void aJsonRecordWithoutAKeyLandsWithTheDefaults() throws Exception {
        String table = newTable();
        Path p = dir.resolve("sparse.ndjson");
        Files.writeString(
                p,
                "{\"key\":1,\"u8\":5,\"note\":\"given\"}\n{\"key\":2}\n{\"key\":3,\"u8\":null}\n");
        Result r = SluiceCli.run(dir, "load", p.toString(), "--into", table, "--url", url);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(
                        TestServer.clickhouseClient(
                                "SELECT key, u8, amount, s, ts, note FROM "
                                        + table
                                        + " ORDER BY key FORMAT TabSeparated"))
                .as("18.16 prints the zero DateTime as zeros")
                .isEqualTo(
                        "1\t5\t0.00\t\t0000-00-00 00:00:00\tgiven\n"
                                + "2\t0\t0.00\t\t0000-00-00 00:00:00\tnone\n"
                                + "3\t0\t0.00\t\t0000-00-00 00:00:00\tnone\n");
    }

    // ---- Expectations ----

    /** A dead-letter line: a flat JSON object, every value as text (null as null). */
    private static Map<String, String> flatObject(String line) throws IOException {
        Map<String, String> m = new HashMap<>();
        try (JsonParser p = JSON.createParser(line)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                m.put(name, v == JsonToken.VALUE_NULL ? null : p.getText());
            }
        }
        return m;
    }

    private static boolean isUtf8(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }

    private static List<Long> goodKeys(Input in, int from, int count) {
        List<Long> keys = new ArrayList<>();
        for (Rec r : in.recs()) {
            if (r.good()) {
                keys.add(r.key());
            }
        }
        return new ArrayList<>(new TreeSet<>(keys.subList(from, from + count)));
    }

    private static List<Long> allGoodKeys(List<Input> inputs) {
        TreeSet<Long> keys = new TreeSet<>();
        for (Input in : inputs) {
            for (Rec r : in.recs()) {
                if (r.good()) {
                    keys.add(r.key());
                }
            }
        }
        return new ArrayList<>(keys);
    }

    private static long badCount(List<Input> inputs) {
        return inputs.stream().flatMap(i -> i.recs().stream()).filter(r -> !r.good()).count();
    }

    private static List<Long> keys(String table) {
        String out =
                TestServer.clickhouseClient(
                        "SELECT DISTINCT key FROM " + table + " ORDER BY key FORMAT TabSeparated");
        List<Long> keys = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (!l.isEmpty()) {
                keys.add(Long.parseLong(l));
            }
        }
        return keys;
    }

    private static long count(String table) {
        return TestServer.single("SELECT count() FROM " + table);
    }

    /** Every row holds the values its key says (the good records' values follow from it). */
    private static void assertValues(String table, boolean json) {
        String out =
                TestServer.clickhouseClient(
                        "SELECT key, u8, amount, s, ts, note FROM "
                                + table
                                + " WHERE NOT startsWith(s, 'bin ') ORDER BY key"
                                + " FORMAT TabSeparated");
        for (String row : out.split("\n")) {
            long k = Long.parseLong(row.substring(0, row.indexOf('\t')));
            String amount = (k / 100) + "." + String.format("%02d", k % 100);
            String note = json && k % 3 == 0 ? "n" + k : "none";
            assertThat(row)
                    .isEqualTo(
                            k
                                    + "\t"
                                    + (k % 256)
                                    + "\t"
                                    + amount
                                    + "\tgood "
                                    + k
                                    + "\t2024-01-01 "
                                    + time(k)
                                    + "\t"
                                    + note);
        }
        if (!json) {
            assertThat(
                            TestServer.clickhouseClient(
                                    "SELECT hex(s) FROM "
                                            + table
                                            + " WHERE startsWith(s, 'bin ') FORMAT TabSeparated"))
                    .as("invalid UTF-8 in a TSV String lands byte for byte")
                    .isEqualTo("62696E20FFFE\n");
        }
    }
}
