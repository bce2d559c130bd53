package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.kafka.it.TestKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user gets wrong — the configuration, the URL, the password, the table, a column — ends in
 * exactly one clear line on stderr (no stack trace) and a non-zero exit. And {@code sluice check}
 * validates every example under {@code examples/} against the test server, and names the problem in
 * a broken one.
 */
class CliErrorsIT {
    @TempDir static Path dir;

    private static String url;
    private static String table;

    @BeforeAll
    static void setUp() throws IOException {
        url = TestServer.url();
        table = TestServer.newTable("cli_errors");
        TestServer.execute(
                "CREATE TABLE " + table + " (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
        Files.writeString(dir.resolve("in.tsv"), "1\ta\n2\tb\n");
    }

    /** Asserts a failure: the exit code, and stderr holding exactly one line with no trace. */
    private static String oneLine(Result r, int exitCode) {
        assertThat(r.exitCode()).as(r.output()).isEqualTo(exitCode);
        assertThat(r.stderr().strip().lines().toList()).as(r.output()).hasSize(1);
        assertThat(r.stderr()).as(r.output()).doesNotContain("\tat ").doesNotContain("Exception:");
        return r.stderr().strip();
    }

    private static Result load(String... more) throws Exception {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "load",
                                dir.resolve("in.tsv").toString(),
                                "--into",
                                table,
                                "--columns",
                                "k,s"));
        args.addAll(List.of(more));
        return SluiceCli.run(dir, args.toArray(String[]::new));
    }

    // ---- Configuration files ----

    private static Path pipeline(String name, String batch) throws IOException {
        return Files.writeString(
                dir.resolve(name),
                """
                source:
                  file:
                    paths: %s
                decode:
                  tsv:
                    columns: [k, s]
                sink:
                  clickhouse:
                    url: ${CLICKHOUSE_URL}
                    table: %s
                    batch:
                      %s
                """
                        .formatted(dir.resolve("in.tsv"), table, batch));
    }

    @Test
    void anUnknownKeyIsNamedWithItsPath() throws Exception {
        Path p = pipeline("unknown-key.yaml", "max_row: 10");
        for (String command : List.of("run", "check")) {
            Result r =
                    SluiceCli.run(dir, Map.of("CLICKHOUSE_URL", url), null, command, p.toString());
            assertThat(oneLine(r, 1))
                    .isEqualTo(
                            "sluice "
                                    + command
                                    + ": "
                                    + p
                                    + ":12:7: sink.clickhouse.batch.max_row: unknown key (did you"
                                    + " mean max_rows?)");
        }
    }

    @Test
    void aBadSizeIsNamedWithItsPath() throws Exception {
        Path p = pipeline("bad-size.yaml", "max_bytes: 12 parsecs");
        Result r = SluiceCli.run(dir, Map.of("CLICKHOUSE_URL", url), null, "run", p.toString());
        assertThat(oneLine(r, 1))
                .startsWith("sluice run: " + p + ":12:18: sink.clickhouse.batch.max_bytes: ")
                .contains("unknown size unit 'parsecs'");
        // the same for a flag: a usage error
        assertThat(oneLine(load("--url", url, "--batch-bytes", "12XB"), 2))
                .isEqualTo(
                        "sluice load: unknown size unit 'XB' in '12XB' (use B, KiB, MiB, GiB, TiB,"
                                + " k, m, g, KB, MB, GB)");
        assertThat(oneLine(load("--url", url, "--max-record-bytes", "0"), 2))
                .isEqualTo("sluice load: --max-record-bytes 0: expected 1 B to 1 GiB");
    }

    @Test
    void anUnsetVariableIsNamedWithTheKey() throws Exception {
        Path p = pipeline("unset.yaml", "max_rows: 10");
        Result r = SluiceCli.run(dir, Map.of(), null, "check", p.toString()); // no CLICKHOUSE_URL
        assertThat(oneLine(r, 1))
                .isEqualTo(
                        "sluice check: "
                                + p
                                + ":9:10: sink.clickhouse.url: environment variable CLICKHOUSE_URL"
                                + " is not set (give a default with ${CLICKHOUSE_URL:-value})");
    }

    @Test
    void aMissingFileIsNamed() throws Exception {
        Path nope = dir.resolve("nope.yaml");
        assertThat(oneLine(SluiceCli.run(dir, "run", nope.toString()), 1))
                .isEqualTo("sluice run: cannot read " + nope + ": no such file");
        Path input = dir.resolve("nothere.tsv");
        Result r =
                SluiceCli.run(
                        dir,
                        "load",
                        input.toString(),
                        "--into",
                        table,
                        "--url",
                        url,
                        "--columns",
                        "k,s");
        assertThat(oneLine(r, 1))
                .startsWith("sluice load: cannot start pipeline ")
                .endsWith(": no such file or no files in " + input);
    }

    // ---- The server ----

    @Test
    void aClosedPortIsOneLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free now, and closed once the socket is
        }
        String closed = "clickhouse://default@127.0.0.1:" + port + "/default";
        assertThat(oneLine(load("--url", closed), 1))
                .startsWith("sluice load: shard 0 (" + closed + "): cannot connect to ClickHouse")
                .contains("127.0.0.1:" + port);
        assertThat(oneLine(load("--url", "postgres://nope"), 2))
                .startsWith("sluice load: ")
                .contains("clickhouse://");
    }

    @Test
    void aPolicyForUnknownOutcomesOtherThanResendOrFailIsAUsageError() throws Exception {
        assertThat(oneLine(load("--url", url, "--on-unknown-outcome", "retry"), 2))
                .isEqualTo(
                        "sluice load: --on-unknown-outcome: expected resend or fail, got 'retry'");
        assertThat(oneLine(load("--url", url, "--outcome-timeout", "soon"), 2))
                .startsWith("sluice load: ")
                .contains("soon");
    }

    /**
     * The private server's {@code sluice} user: its password from the password file works, a wrong
     * one is refused in one line that never shows it.
     */
    @Test
    void aWrongPasswordIsRefusedAndNeverShown() throws Exception {
        String user = TestServer.env("CLICKHOUSE_PASSWORD_USER");
        String file = TestServer.env("CLICKHOUSE_PASSWORD_USER_FILE");
        // The private server always has one: where ClickHouse is required (CI), its absence fails.
        if ("1".equals(System.getenv("SLUICE_REQUIRE_CLICKHOUSE"))) {
            assertThat(user != null && file != null)
                    .as("the server has no password user (scripts/clickhouse)")
                    .isTrue();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(
                user != null && file != null,
                "the server has no password user (scripts/clickhouse)");
        ConnectionConfig c = ConnectionConfig.parse(url);
        String base = "clickhouse://" + user + "%s@" + c.host() + ":" + c.port() + "/default";
        Result ok =
                SluiceCli.run(dir, "ping", "--url", base.formatted("") + "?password_file=" + file);
        assertThat(ok.exitCode()).as(ok.output()).isZero();

        String secret = "Wr0ngPa55-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        Result r = load("--url", base.formatted(":" + secret));
        assertThat(oneLine(r, 1))
                .startsWith("sluice load: shard 0 (clickhouse://" + user + ":******@")
                .contains("Wrong password for user " + user);
        assertThat(r.stdout() + r.stderr()).doesNotContain(secret);
    }

    @Test
    void anUnknownTableIsOneLine() throws Exception {
        Result r =
                SluiceCli.run(
                        dir,
                        "load",
                        dir.resolve("in.tsv").toString(),
                        "--into",
                        TestServer.DATABASE + ".no_such_table",
                        "--url",
                        url,
                        "--columns",
                        "k,s");
        assertThat(oneLine(r, 1))
                .startsWith("sluice load: shard 0 (")
                .contains("table " + TestServer.DATABASE + ".no_such_table does not exist");
    }

    @Test
    void anUnknownColumnIsOneLine() throws Exception {
        Result r =
                SluiceCli.run(
                        dir,
                        "load",
                        dir.resolve("in.tsv").toString(),
                        "--into",
                        table,
                        "--url",
                        url,
                        "--columns",
                        "k,zz");
        assertThat(oneLine(r, 1))
                .isEqualTo(
                        "sluice load: columns: table "
                                + table
                                + " has no column zz (ignore_unknown skips such fields)");
    }

    // ---- sluice check on the examples ----

    /** A database of the examples' tables, dropped at the end. */
    private static String examplesDb;

    @AfterAll
    static void dropExamples() {
        if (examplesDb != null) {
            TestServer.execute("DROP DATABASE IF EXISTS " + examplesDb);
        }
    }

    /** What each example needs besides its table: environment variables and input files. */
    private static Map<String, String> exampleEnv(String example, String db) throws IOException {
        Map<String, String> env = new HashMap<>();
        ConnectionConfig c = ConnectionConfig.parse(url);
        String dbUrl = "clickhouse://" + c.user() + "@" + c.host() + ":" + c.port() + "/" + db;
        env.put("CLICKHOUSE_URL", dbUrl);
        Path in = Files.createDirectories(dir.resolve("examples-in").resolve(example));
        switch (example) {
            case "csv-with-header.yaml" -> {
                Files.writeString(
                        in.resolve("orders-1.csv"),
                        "order_id;placed_at;customer;total;note\n"
                                + "1;2026-05-01 10:00:00;\"Smith; John\";19.90;\"gift\nwrap\"\n");
                env.put("EXPORT_DIR", in.toString());
            }
            case "generator-to-clickhouse.yaml" -> {}
            case "kafka-to-clickhouse.yaml" -> {
                env.put("KAFKA_BOOTSTRAP_SERVERS", TestKafka.bootstrapServers());
                env.put("KAFKA_TOPIC", TestKafka.newTopic("example-events", 2));
            }
            case "ndjson-files.yaml" -> {
                Files.writeString(
                        in.resolve("requests-1.ndjson"),
                        "{\"ts\":\"2026-05-01T12:00:00.123Z\",\"host\":\"web-1\",\"req\":{\"path\":"
                                + "\"/\",\"status\":200},\"latency_ms\":1.5,\"user\":{\"id\":42}}\n");
                env.put("LOG_DIR", in.toString());
            }
            case "tsv-sharded.yaml" -> {
                try (OutputStream out =
                        new ZstdOutputStream(Files.newOutputStream(in.resolve("a.tsv.zst")))) {
                    out.write(
                            "2026-05-01 12:00:00\tweb-1\tcpu.user\t0.42\n"
                                    .getBytes(StandardCharsets.UTF_8));
                }
                env.put("SAMPLES", in.resolve("*.tsv.zst").toString());
                for (String shard : List.of("SHARD1_A", "SHARD1_B", "SHARD2_A", "SHARD2_B")) {
                    env.put(shard, dbUrl);
                }
            }
            default ->
                    throw new AssertionError(
                            "examples/"
                                    + example
                                    + " is new: tell CliErrorsIT.exampleEnv what it needs");
        }
        return env;
    }

    private static final Pattern CREATE =
            Pattern.compile("(?m)^#\\s+(CREATE TABLE [\\s\\S]*?)\\n#\\s*\\n");

    /**
     * The table an example documents in its header comment, created in {@code db}: a replicated
     * engine becomes MergeTree (the test server has no ZooKeeper), and on servers before 20.1,
     * which have no DateTime64, DateTime64(p) becomes DateTime.
     */
    private static void createTable(Path example, String db, int serverMajor) throws IOException {
        String text = Files.readString(example);
        Matcher m = CREATE.matcher(text);
        assertThat(m.find()).as("%s documents its CREATE TABLE", example).isTrue();
        String ddl = m.group(1).replaceAll("\\n#\\s*", " ");
        ddl = ddl.replaceFirst("CREATE TABLE (\\w+\\.)?", "CREATE TABLE " + db + ".");
        ddl = ddl.replaceAll("ReplicatedMergeTree\\([^)]*\\)", "MergeTree");
        if (serverMajor < 20) {
            ddl = ddl.replaceAll("DateTime64\\(\\d+\\)", "DateTime");
        }
        TestServer.execute(ddl);
    }

    private static int serverMajor() {
        try (NativeConnection c = TestServer.connect()) {
            String v = String.valueOf(c.queryRows("SELECT version()").get(0).get(0));
            return Integer.parseInt(v.substring(0, v.indexOf('.')));
        }
    }

    private static List<Path> examples() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isDirectory(root.resolve("examples"))) {
            root = root.getParent();
        }
        assertThat(root).as("the repository's examples/ directory").isNotNull();
        try (Stream<Path> s = Files.list(root.resolve("examples"))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void checkPassesEveryExampleAndNamesTheProblemInABrokenOne() throws Exception {
        examplesDb =
                "sluice_examples_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        TestServer.execute("CREATE DATABASE " + examplesDb);
        int major = serverMajor();
        List<Path> examples = examples();
        assertThat(examples).isNotEmpty();
        for (Path example : examples) {
            String name = example.getFileName().toString();
            Map<String, String> env = exampleEnv(name, examplesDb);
            createTable(example, examplesDb, major);
            Result r = SluiceCli.run(dir, env, null, "check", example.toString());
            assertThat(r.exitCode()).as("sluice check %s\n%s", name, r.output()).isZero();
            assertThat(r.stdout())
                    .as(name)
                    .contains("ok    configuration " + example)
                    .contains("check passed")
                    .doesNotContain("FAIL");
            if (name.startsWith("kafka")) {
                // A Kafka source is checked without consuming: brokers, topics, the group.
                assertThat(r.stdout())
                        .as(name)
                        .contains("ok    kafka " + env.get("KAFKA_BOOTSTRAP_SERVERS"));
            } else if (!name.startsWith("generator")) {
                assertThat(r.stdout()).as(name).contains("ok    decoded 1 of the first 1 records");
            }
        }

        // A broken variant of each kind: the configuration, the table, the input.
        Path generator =
                examples.stream()
                        .filter(p -> p.toString().contains("generator"))
                        .findFirst()
                        .orElseThrow();
        String text = Files.readString(generator);
        Map<String, String> env = exampleEnv("generator-to-clickhouse.yaml", examplesDb);

        Path typo =
                Files.writeString(dir.resolve("typo.yaml"), text.replace("max_rows:", "max_row:"));
        Result r = SluiceCli.run(dir, env, null, "check", typo.toString());
        assertThat(oneLine(r, 1))
                .contains("sink.clickhouse.batch.max_row: unknown key (did you mean max_rows?)");

        Path noTable =
                Files.writeString(
                        dir.resolve("no-table.yaml"),
                        text.replace("table: events", "table: no_events"));
        r = SluiceCli.run(dir, env, null, "check", noTable.toString());
        assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
        assertThat(r.stdout())
                .contains("FAIL  shard 1 replica ")
                .contains("table " + examplesDb + ".no_events does not exist")
                .contains("check failed: 1 problem(s)");

        Path csv =
                examples.stream()
                        .filter(p -> p.toString().contains("csv"))
                        .findFirst()
                        .orElseThrow();
        Map<String, String> csvEnv = exampleEnv("csv-with-header.yaml", examplesDb);
        Path badDir = Files.createDirectories(dir.resolve("bad-orders"));
        Path bad = badDir.resolve("orders-1.csv");
        Files.writeString(
                bad, "order_id;placed_at;customer;total;note\nx;2026-05-01 10:00:00;a;1;b\n");
        csvEnv.put("EXPORT_DIR", badDir.toString());
        r = SluiceCli.run(dir, csvEnv, null, "check", csv.toString());
        assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
        assertThat(r.stdout())
                .contains("FAIL  " + bad + ":2 (position ")
                .contains("column order_id (UInt64)")
                .contains("check failed");
    }
}
