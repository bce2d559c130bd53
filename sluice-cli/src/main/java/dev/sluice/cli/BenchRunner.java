package dev.sluice.cli;

import dev.sluice.rigs.Axis;
import dev.sluice.rigs.BenchContext;
import dev.sluice.rigs.Jsonl;
import dev.sluice.rigs.Progress;
import dev.sluice.rigs.Provenance;
import dev.sluice.rigs.Rig;
import dev.sluice.rigs.Target;
import dev.sluice.rigs.report.ReportBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Runs one or more rigs into {@code --out DIR}: the results file, then the report. */
final class BenchRunner implements Callable<Integer> {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    /** The options every rig takes. */
    static final class Common {
        @Option(
                names = "--out",
                required = true,
                paramLabel = "DIR",
                description = "where results.jsonl and report.html go")
        Path out;

        @Option(
                names = "--url",
                description =
                        "clickhouse:// URL of the server (default: $CLICKHOUSE_URL, else the private server)")
        String url;

        @Option(
                names = "--http-url",
                description =
                        "http:// URL of the same server, for the HTTP arms (default: $CLICKHOUSE_HTTP_URL)")
        String httpUrl;

        @Option(
                names = "--server-pid",
                description =
                        "the server's pid on this host, for its CPU from /proc (default: $CLICKHOUSE_PID)")
        String serverPid;

        @Option(
                names = "--kafka",
                description =
                        "Kafka bootstrap servers for the kafka rig (default: $KAFKA_BOOTSTRAP_SERVERS, else the private broker)")
        String kafka;

        @Option(names = "--reps", description = "repetitions of each arm (default: 3; --quick: 1)")
        Integer reps;

        @Option(
                names = "--window",
                description = "the steady-state window measured (default: 15s; --quick: 3s)")
        String window;

        @Option(
                names = "--warmup",
                description = "run before the window, not measured (default: 5s; --quick: 2s)")
        String warmup;

        @Option(names = "--quick", description = "the short variant of each rig (CI, demos)")
        boolean quick;

        @Option(
                names = "--seed",
                defaultValue = "20240101",
                description = "the data seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(
                names = "--append",
                description = "add to an existing DIR/results.jsonl instead of refusing")
        boolean append;
    }

    final Common common = new Common();
    private final List<Rig> rigs;
    CommandSpec spec;

    BenchRunner(List<Rig> rigs) {
        this.rigs = rigs;
    }

    @Override
    public Integer call() throws Exception {
        BenchContext.Options options =
                new BenchContext.Options(
                        common.reps != null ? common.reps : common.quick ? 1 : 3,
                        duration(common.window, common.quick ? "3s" : "15s", "--window"),
                        duration(common.warmup, common.quick ? "2s" : "5s", "--warmup"),
                        common.quick,
                        common.seed);
        Map<Rig, Map<String, List<String>>> axes = new LinkedHashMap<>();
        for (Rig rig : rigs) {
            axes.put(rig, axes(rig));
            rig.check(axes.get(rig));
        }
        Path dir = common.out.toAbsolutePath();
        Files.createDirectories(dir);
        Path results = dir.resolve(Jsonl.FILE_NAME);
        if (Files.exists(results) && !common.append) {
            throw new CliException(
                    results + " exists: choose another --out, or --append to add to it");
        }
        Map<String, String> server = server();
        Target target =
                Target.connect(
                        server.get("CLICKHOUSE_URL"),
                        server.get("CLICKHOUSE_HTTP_URL"),
                        server.get("CLICKHOUSE_PID"),
                        server.getOrDefault("CLICKHOUSE_CLIENT_BIN", "clickhouse-client"));
        Path home = home();
        Provenance provenance =
                new Provenance(
                        Provenance.gitCommit(home),
                        target.version(),
                        target.revision(),
                        options.seed(),
                        Map.of());
        Progress progress = new Progress(System.out, ProgressLine.stdoutIsTerminal());
        System.out.printf(
                Locale.ROOT,
                "sluice bench: ClickHouse %s (revision %d) at %s%s; results in %s%n",
                target.version(),
                target.revision(),
                ConnectionConfigs.address(target.nativeUrl()),
                target.colocated()
                        ? ", pid " + target.pid() + " (server CPU from /proc)"
                        : " (server CPU from the query log)",
                results);
        Path work = Files.createTempDirectory("sluice-bench-");
        BenchContext ctx =
                new BenchContext(
                        target,
                        new Jsonl(results),
                        progress,
                        provenance,
                        options,
                        work,
                        sluiceCommand(),
                        this::kafka);
        List<String> failed = new ArrayList<>();
        try {
            for (Map.Entry<Rig, Map<String, List<String>>> e : axes.entrySet()) {
                try {
                    e.getKey().run(ctx, e.getValue());
                } catch (RuntimeException ex) {
                    if (rigs.size() == 1) {
                        throw ex;
                    }
                    failed.add(e.getKey().name());
                    System.err.println(
                            "sluice bench " + e.getKey().name() + ": " + ex.getMessage());
                } finally {
                    report(dir, results);
                }
            }
        } finally {
            deleteTree(work);
        }
        if (!failed.isEmpty()) {
            throw new CliException(
                    "rigs that stopped with an error: "
                            + String.join(", ", failed)
                            + " (their records so far are in the report)");
        }
        return 0;
    }

    private static void report(Path dir, Path results) throws IOException {
        if (Files.exists(results)) {
            Path html = dir.resolve("report.html");
            ReportBuilder.write(List.of(results), html);
            System.out.println("report: " + html);
        }
    }

    /** The rig's axes: given flags, else its quick or full defaults. */
    private Map<String, List<String>> axes(Rig rig) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Axis a : rig.axes()) {
            String given =
                    spec.findOption("--" + a.name()) == null
                            ? null
                            : spec.findOption("--" + a.name()).getValue();
            List<String> values =
                    given != null
                            ? Arrays.stream(given.split(","))
                                    .map(String::strip)
                                    .filter(s -> !s.isEmpty())
                                    .toList()
                            : common.quick ? a.quick() : a.defaults();
            if (values.isEmpty()) {
                throw new IllegalArgumentException("--" + a.name() + " needs at least one value");
            }
            out.put(a.name(), values);
        }
        return out;
    }

    static Duration duration(String given, String fallback, String flag) {
        String v = given == null ? fallback : given.strip();
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    flag + ": '" + v + "' is not a duration like 15s, 500ms or 2m");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** The server: flags, else the environment, else the private server (started if needed). */
    private Map<String, String> server() {
        Map<String, String> env = new LinkedHashMap<>();
        String url = common.url;
        if (url == null || url.isBlank()) {
            url = System.getenv("CLICKHOUSE_URL");
            if (url == null || url.isBlank()) {
                System.out.println(
                        "No CLICKHOUSE_URL: starting the project's private ClickHouse...");
                env.putAll(LocalClickHouse.start());
            } else {
                for (String k :
                        List.of(
                                "CLICKHOUSE_URL",
                                "CLICKHOUSE_HTTP_URL",
                                "CLICKHOUSE_PID",
                                "CLICKHOUSE_CLIENT_BIN")) {
                    String v = System.getenv(k);
                    if (v != null && !v.isBlank()) {
                        env.put(k, v);
                    }
                }
            }
        } else {
            env.put("CLICKHOUSE_URL", url);
        }
        if (common.httpUrl != null) {
            env.put("CLICKHOUSE_HTTP_URL", common.httpUrl);
        }
        if (common.serverPid != null) {
            env.put("CLICKHOUSE_PID", common.serverPid);
        }
        return env;
    }

    private String kafkaBootstrap;

    private synchronized String kafka() {
        if (kafkaBootstrap == null) {
            String k =
                    common.kafka != null ? common.kafka : System.getenv("KAFKA_BOOTSTRAP_SERVERS");
            if (k == null || k.isBlank()) {
                System.out.println(
                        "No KAFKA_BOOTSTRAP_SERVERS: starting the project's private Kafka broker...");
                k =
                        LocalClickHouse.startService("kafka", "KAFKA_BOOTSTRAP_SERVERS")
                                .get("KAFKA_BOOTSTRAP_SERVERS");
            }
            kafkaBootstrap = k;
        }
        return kafkaBootstrap;
    }

    private static Path home() {
        String home = System.getProperty("sluice.home", System.getenv("SLUICE_HOME"));
        return home == null || home.isBlank() ? null : Path.of(home);
    }

    /**
     * How to run this sluice as a process ({@code sluice load} arms): this JVM's java with this
     * jar, or null when not running from the jar.
     */
    static List<String> sluiceCommand() {
        try {
            Path jar =
                    Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(jar) || !jar.toString().endsWith(".jar")) {
                return null;
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            return List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString());
        } catch (java.net.URISyntaxException | SecurityException e) {
            return null;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
