package dev.sluice.bench;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.NativeConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code sluice load} benchmark: whole processes, as users run them, against the same server
 * and table shape in one run.
 *
 * <ul>
 *   <li>{@code client-tsv}: {@code clickhouse-client --query "INSERT INTO t FORMAT TabSeparated" <
 *       events.tsv}
 *   <li>{@code sluice-tsv}: {@code sluice load events.tsv --into t --no-header}
 *   <li>{@code sluice-ndjson}: {@code sluice load events.ndjson --into t --field raw=$} (four
 *       top-level keys into columns, the whole line into {@code raw})
 *   <li>{@code client-ndjson}: {@code clickhouse-client ... FORMAT JSONEachRow} of the same rows
 *       pre-extracted (the four fields plus the line as a JSON string), for reference
 * </ul>
 *
 * <p>Every run gets a fresh {@code MergeTree ORDER BY (tenant, ts)} table, is checked against the
 * generated rows' checksums, and dropped. Arms alternate, reversing their order every repeat. Per
 * run: wall time from process start to exit (rows/s), the pipeline's own elapsed time from sluice's
 * summary line, the client's CPU and maximum RSS from {@code /usr/bin/time} (the whole process: JVM
 * start, JIT and GC included), the server's CPU from {@code /proc/<server pid>/stat}, and the
 * machine's load average before and after.
 *
 * <p>Output: one JSON line per run appended to {@code <out-dir>/load-<date>.jsonl}, and a Markdown
 * summary (medians and ranges) on stdout.
 */
public final class LoadBench {
    static final String CLIENT_TSV = "client-tsv";
    static final String SLUICE_TSV = "sluice-tsv";
    static final String SLUICE_NDJSON = "sluice-ndjson";
    static final String CLIENT_NDJSON = "client-ndjson";
    static final List<String> ALL_ARMS =
            List.of(CLIENT_TSV, SLUICE_TSV, SLUICE_NDJSON, CLIENT_NDJSON);

    private static final Pattern SUMMARY = Pattern.compile("([\\d,]+) rows written in ([\\d.]+) s");

    private final Options opt;
    private final Map<String, Object> provenance = new LinkedHashMap<>();
    private Path jsonl;
    private Path tsv;
    private Path ndjson;
    private Path extracted;
    private String tsvSums;
    private String jsonSums;
    private int tableSeq;

    private LoadBench(Options opt) {
        this.opt = opt;
    }

    public static void main(String[] args) throws Exception {
        Options opt = Options.parse(args);
        if (opt == null) {
            return;
        }
        new LoadBench(opt).run();
    }

    /** What one run measured; -1 where it does not apply or was not available. */
    record Run(
            String arm,
            String kind,
            int repeat,
            long rows,
            double wallSeconds,
            double pipelineSeconds,
            double clientUserSeconds,
            double clientSystemSeconds,
            long maxRssKiB,
            double serverCpuSeconds,
            long parts,
            String loadBefore,
            String loadAfter) {

        double rowsPerSecond() {
            return rows / wallSeconds;
        }

        double pipelineRowsPerSecond() {
            return pipelineSeconds > 0 ? rows / pipelineSeconds : Double.NaN;
        }

        double clientCpuPerMillion() {
            return (clientUserSeconds + clientSystemSeconds) / (rows / 1e6);
        }

        double serverCpuPerMillion() {
            return serverCpuSeconds / (rows / 1e6);
        }
    }

    private void run() throws Exception {
        ConnectionConfig base = ConnectionConfig.parse(opt.url);
        Files.createDirectories(opt.outDir);
        Files.createDirectories(opt.workDir);
        jsonl = opt.outDir.resolve("load-" + Instant.now().toString().substring(0, 10) + ".jsonl");
        String version;
        try (NativeConnection c = NativeConnection.open(base)) {
            version = String.valueOf(c.queryRows("SELECT version()").get(0).get(0));
            c.execute("CREATE DATABASE IF NOT EXISTS " + opt.database);
        }
        provenance.put("bench", "load");
        provenance.put("server_version", version);
        provenance.put("server_pid", opt.serverPid);
        provenance.put("host", Summaries.hostName());
        provenance.put("cores", Runtime.getRuntime().availableProcessors());
        provenance.put("git_commit", opt.gitCommit);
        provenance.put("sluice_jar", opt.sluiceJar.toString());
        provenance.put("sluice_java", opt.java);
        provenance.put("sluice_java_opts", opt.sluiceJavaOpts);
        provenance.put("sluice_args", opt.sluiceArgs);
        provenance.put("date", Instant.now().toString());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tsv_rows", opt.rows);
        config.put("ndjson_rows", opt.jsonRows);
        config.put("repeat", opt.repeat);
        config.put("seed", opt.seed);
        config.put("arms", opt.arms);
        config.put("url", base.address());
        config.put("table", "MergeTree ORDER BY (tenant, ts)");
        provenance.put("config", config);

        generate();
        for (int w = 1; w <= opt.warmup; w++) {
            for (String arm : opt.arms) {
                runArm(arm, "warmup", w);
            }
        }
        List<Run> timed = new ArrayList<>();
        String loadAtStart = loadAverage();
        for (int r = 1; r <= opt.repeat; r++) {
            List<String> order = new ArrayList<>(opt.arms);
            if (r % 2 == 0) {
                Collections.reverse(order);
            }
            for (String arm : order) {
                timed.add(runArm(arm, "timed", r));
            }
        }
        String loadAtEnd = loadAverage();
        System.out.println();
        System.out.println(summary(timed, loadAtStart, loadAtEnd));
        log("results appended to %s", jsonl);
        if (!opt.keepFiles) {
            for (Path p : new Path[] {tsv, ndjson, extracted}) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ---- The input files ----

    private void generate() throws IOException {
        String tag = opt.seed + ".";
        tsv = opt.workDir.resolve("events-" + opt.rows + "-" + tag + "tsv");
        ndjson = opt.workDir.resolve("events-" + opt.jsonRows + "-" + tag + "ndjson");
        extracted = opt.workDir.resolve("events-" + opt.jsonRows + "-" + tag + "extracted.ndjson");
        long t0 = System.nanoTime();
        EventsData data = EventsData.generate(opt.rows, opt.seed);
        EventsFiles.writeTsv(data, tsv);
        tsvSums = data.checksums().render();
        log(
                "wrote %s (%,d bytes, %,d rows) in %.1f s",
                tsv, Files.size(tsv), opt.rows, (System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        jsonSums = EventsFiles.writeNdjson(opt.jsonRows, opt.seed, ndjson, extracted).render();
        log(
                "wrote %s (%,d bytes, %.0f bytes/line) and %s (%,d bytes) in %.1f s",
                ndjson,
                Files.size(ndjson),
                (double) Files.size(ndjson) / opt.jsonRows,
                extracted,
                Files.size(extracted),
                (System.nanoTime() - t0) / 1e9);
    }

    // ---- One run ----

    private Run runArm(String arm, String kind, int repeat) throws Exception {
        boolean json = arm.endsWith("ndjson");
        String table = opt.database + ".load_" + arm.replace('-', '_') + "_" + (++tableSeq);
        try (NativeConnection admin = NativeConnection.open(opt.url)) {
            admin.execute("DROP TABLE IF EXISTS " + table);
            admin.execute(
                    "CREATE TABLE "
                            + table
                            + " ("
                            + (json ? EventsFiles.JSON_COLUMNS_DDL : EventsData.COLUMNS_DDL)
                            + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
        }
        waitForQuietServer();
        List<String> cmd = new ArrayList<>();
        Path input = null;
        if (arm.startsWith("client-")) {
            cmd.addAll(clientCommand(table, json ? "JSONEachRow" : "TabSeparated"));
            input = json ? extracted : tsv;
        } else {
            cmd.add(opt.java);
            cmd.addAll(opt.sluiceJavaOpts);
            cmd.add("--enable-native-access=ALL-UNNAMED");
            cmd.add("-jar");
            cmd.add(opt.sluiceJar.toString());
            cmd.add("load");
            cmd.add(json ? ndjson.toString() : tsv.toString());
            cmd.add("--into");
            cmd.add(table);
            cmd.add("--url");
            cmd.add(opt.url);
            if (json) {
                cmd.add("--field");
                cmd.add("raw=$");
            } else {
                cmd.add("--no-header");
            }
            cmd.addAll(opt.sluiceArgs);
        }
        Measured m = measure(cmd, input);
        long rows = json ? opt.jsonRows : opt.rows;
        long parts;
        try (NativeConnection admin = NativeConnection.open(opt.url)) {
            String sums = json ? EventsFiles.JSON_SUMS_SQL : EventsData.Checksums.SQL;
            List<Object> row = admin.queryRows(sums + table).get(0);
            String got = String.join("\t", row.stream().map(String::valueOf).toList());
            String want = json ? jsonSums : tsvSums;
            if (!got.equals(want)) {
                throw new IllegalStateException(
                        arm + ": table " + table + " holds " + got + ", expected " + want);
            }
            int dot = table.indexOf('.');
            parts =
                    ((Number)
                                    admin.queryRows(
                                                    "SELECT count() FROM system.parts WHERE active"
                                                            + " AND database = '"
                                                            + table.substring(0, dot)
                                                            + "' AND table = '"
                                                            + table.substring(dot + 1)
                                                            + "'")
                                            .get(0)
                                            .get(0))
                            .longValue();
            admin.execute("DROP TABLE " + table);
        }
        double pipeline = -1;
        Matcher s = SUMMARY.matcher(m.stdout);
        if (s.find()) {
            pipeline = Double.parseDouble(s.group(2));
        }
        Run run =
                new Run(
                        arm,
                        kind,
                        repeat,
                        rows,
                        m.wallSeconds,
                        pipeline,
                        m.userSeconds,
                        m.systemSeconds,
                        m.maxRssKiB,
                        m.serverSeconds,
                        parts,
                        m.loadBefore,
                        m.loadAfter);
        if (!kind.equals("warmup")) {
            record(run);
        }
        log(
                "%-14s %-6s %d: %,9.0f rows/s%s, client %.2f CPU-s/M rows, server %.2f CPU-s/M"
                        + " rows, max RSS %,d MiB, %d parts, load %s",
                arm,
                kind,
                repeat,
                run.rowsPerSecond(),
                pipeline > 0
                        ? String.format(
                                Locale.ROOT, " (pipeline %,.0f)", run.pipelineRowsPerSecond())
                        : "",
                run.clientCpuPerMillion(),
                run.serverCpuPerMillion(),
                run.maxRssKiB / 1024,
                parts,
                m.loadAfter);
        return run;
    }

    private List<String> clientCommand(String table, String format) {
        ConnectionConfig c = ConnectionConfig.parse(opt.url);
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                opt.clientBin,
                                "--host",
                                c.host(),
                                "--port",
                                Integer.toString(c.port()),
                                "--user",
                                c.user(),
                                "--query",
                                "INSERT INTO " + table + " FORMAT " + format));
        if (!c.password().isEmpty()) {
            cmd.add("--password");
            cmd.add(c.password().reveal());
        }
        return cmd;
    }

    private record Measured(
            double wallSeconds,
            double userSeconds,
            double systemSeconds,
            long maxRssKiB,
            double serverSeconds,
            String stdout,
            String loadBefore,
            String loadAfter) {}

    /**
     * Runs {@code cmd} under {@code /usr/bin/time} (CPU and maximum RSS of the whole process) with
     * {@code input} as stdin; wall time is measured here, from start to exit.
     */
    private Measured measure(List<String> cmd, Path input) throws Exception {
        Path timeFile = Files.createTempFile(opt.workDir, "time", ".txt");
        Path out = Files.createTempFile(opt.workDir, "out", ".txt");
        Path err = Files.createTempFile(opt.workDir, "err", ".txt");
        List<String> full = new ArrayList<>();
        boolean timed = Files.isExecutable(Path.of(opt.timeBin));
        if (timed) {
            full.addAll(List.of(opt.timeBin, "-f", "%e %U %S %M", "-o", timeFile.toString()));
        }
        full.addAll(cmd);
        ProcessBuilder pb = new ProcessBuilder(full).directory(opt.workDir.toFile());
        pb.redirectInput(
                input != null
                        ? ProcessBuilder.Redirect.from(input.toFile())
                        : ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        String loadBefore = loadAverage();
        long child0 = ProcStat.childCpuTicks("self");
        long server0 = serverTicks();
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + String.join(" ", cmd));
        }
        long t1 = System.nanoTime();
        long server1 = serverTicks();
        long child1 = ProcStat.childCpuTicks("self");
        String loadAfter = loadAverage();
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);
        String times = Files.readString(timeFile).strip();
        for (Path f : new Path[] {timeFile, out, err}) {
            Files.deleteIfExists(f);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(
                    "exit "
                            + p.exitValue()
                            + ": "
                            + String.join(" ", cmd)
                            + "\n"
                            + stdout
                            + "\n"
                            + stderr);
        }
        double user;
        double system;
        long rss = -1;
        if (timed) {
            // The last line: /usr/bin/time may put a "Command exited..." line before it.
            String[] lines = times.split("\n");
            String[] f = lines[lines.length - 1].trim().split("\\s+");
            user = Double.parseDouble(f[1]);
            system = Double.parseDouble(f[2]);
            rss = Long.parseLong(f[3]);
        } else {
            user = ProcStat.seconds(child1 - child0); // user and system together
            system = 0;
        }
        return new Measured(
                (t1 - t0) / 1e9,
                user,
                system,
                rss,
                ProcStat.seconds(server1 - server0),
                stdout,
                loadBefore,
                loadAfter);
    }

    // ---- The server and the machine ----

    private long serverTicks() {
        return ProcStat.cpuTicks(opt.serverPid);
    }

    /** Waits (at most 30 s) until the server burns under 3% of a core: merges and flushes done. */
    private void waitForQuietServer() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long prev = serverTicks();
        while (System.nanoTime() < deadline) {
            Thread.sleep(500);
            long now = serverTicks();
            if (now - prev <= ProcStat.TICKS_PER_SECOND * 0.5 * 0.03) {
                return;
            }
            prev = now;
        }
    }

    /** The 1, 5 and 15 minute load averages. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    // ---- Output ----

    private void record(Run r) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>(provenance);
        m.put("arm", r.arm);
        m.put("kind", r.kind);
        m.put("repeat", r.repeat);
        m.put("rows", r.rows);
        m.put("wall_s", r.wallSeconds);
        m.put("rows_per_s", r.rowsPerSecond());
        if (r.pipelineSeconds > 0) {
            m.put("pipeline_s", r.pipelineSeconds);
            m.put("pipeline_rows_per_s", r.pipelineRowsPerSecond());
        }
        m.put("client_user_s", r.clientUserSeconds);
        m.put("client_system_s", r.clientSystemSeconds);
        m.put("client_cpu_s_per_m_rows", r.clientCpuPerMillion());
        m.put("max_rss_kib", r.maxRssKiB);
        m.put("server_cpu_s", r.serverCpuSeconds);
        m.put("server_cpu_s_per_m_rows", r.serverCpuPerMillion());
        m.put("parts", r.parts);
        m.put("load_before", r.loadBefore);
        m.put("load_after", r.loadAfter);
        Files.writeString(
                jsonl,
                Json.write(m) + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    String summary(List<Run> timed, String loadAtStart, String loadAtEnd) {
        StringBuilder sb = new StringBuilder();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "TSV %,d rows, NDJSON %,d rows, %d repeats; server %s, %s, %d cores;"
                                + " load average %s at the start, %s at the end;"
                                + " median [min-max]%n%n",
                        opt.rows,
                        opt.jsonRows,
                        opt.repeat,
                        provenance.get("server_version"),
                        provenance.get("host"),
                        Runtime.getRuntime().availableProcessors(),
                        loadAtStart,
                        loadAtEnd));
        sb.append(
                "| arm | rows/s (process start to exit) | rows/s (pipeline's own) | client CPU-s /"
                        + " M rows | server CPU-s / M rows | max RSS MiB | parts |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String arm : opt.arms) {
            List<Run> runs = timed.stream().filter(r -> r.arm.equals(arm)).toList();
            boolean sluice = arm.startsWith("sluice-");
            sb.append("| ").append(arm);
            sb.append(" | ").append(stat(runs, Run::rowsPerSecond, "%,.0f"));
            sb.append(" | ").append(sluice ? stat(runs, Run::pipelineRowsPerSecond, "%,.0f") : "-");
            sb.append(" | ").append(stat(runs, Run::clientCpuPerMillion, "%.2f"));
            sb.append(" | ").append(stat(runs, Run::serverCpuPerMillion, "%.2f"));
            sb.append(" | ").append(stat(runs, r -> r.maxRssKiB / 1024.0, "%,.0f"));
            sb.append(" | ").append(stat(runs, r -> r.parts, "%.0f"));
            sb.append(" |\n");
        }
        sb.append('\n');
        double client = medianOf(timed, CLIENT_TSV, Run::rowsPerSecond);
        double tsvRate = medianOf(timed, SLUICE_TSV, Run::rowsPerSecond);
        if (!Double.isNaN(client) && !Double.isNaN(tsvRate)) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "- sluice-tsv / client-tsv: %.2fx (target >= 1.0x)%n",
                            tsvRate / client));
        }
        double jsonRate = medianOf(timed, SLUICE_NDJSON, Run::rowsPerSecond);
        if (!Double.isNaN(jsonRate)) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "- sluice-ndjson: %,.0f rows/s (target >= 300,000), %.2f client CPU-s"
                                    + " / M rows (target <= 2.5)%n",
                            jsonRate,
                            medianOf(timed, SLUICE_NDJSON, Run::clientCpuPerMillion)));
        }
        return sb.toString();
    }

    private static double medianOf(List<Run> runs, String arm, ToDoubleFunction<Run> f) {
        return Summaries.median(
                runs.stream().filter(r -> r.arm.equals(arm)).mapToDouble(f).toArray());
    }

    private static String stat(List<Run> runs, ToDoubleFunction<Run> f, String format) {
        return Summaries.stat(runs.stream().mapToDouble(f).toArray(), format);
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "bench-load: " + format + "%n", args);
    }

    // ---- Command line ----

    static final class Options {
        String url = envOr("CLICKHOUSE_URL", "clickhouse://default@127.0.0.1:9000/default");
        String serverPid = System.getenv("CLICKHOUSE_PID");
        String clientBin = envOr("CLICKHOUSE_CLIENT_BIN", "clickhouse-client");
        Path sluiceJar = Path.of("sluice-cli/target/sluice-cli.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> sluiceJavaOpts = split(envOr("SLUICE_JAVA_OPTS", ""));
        List<String> sluiceArgs = List.of();
        String timeBin = "/usr/bin/time";
        String database = "bench";
        int rows = 2_000_000;
        int jsonRows = 500_000;
        int repeat = 3;
        int warmup = 1;
        long seed = EventsData.DEFAULT_SEED;
        List<String> arms = ALL_ARMS;
        Path outDir = Path.of("bench-results");
        Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "sluice-bench-load");
        String gitCommit = envOr("SLUICE_GIT_COMMIT", "unknown");
        boolean keepFiles;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    System.out.println(USAGE);
                    return null;
                }
                if (a.equals("--keep-files")) {
                    o.keepFiles = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
                }
                String v = args[++i];
                switch (a) {
                    case "--url" -> o.url = v;
                    case "--server-pid" -> o.serverPid = v;
                    case "--client-bin" -> o.clientBin = v;
                    case "--sluice-jar" -> o.sluiceJar = Path.of(v);
                    case "--java" -> o.java = v;
                    case "--sluice-java-opts" -> o.sluiceJavaOpts = split(v);
                    case "--sluice-args" -> o.sluiceArgs = split(v);
                    case "--database" -> o.database = v;
                    case "--rows" -> o.rows = Integer.parseInt(v);
                    case "--json-rows" -> o.jsonRows = Integer.parseInt(v);
                    case "--repeat" -> o.repeat = Integer.parseInt(v);
                    case "--warmup" -> o.warmup = Integer.parseInt(v);
                    case "--seed" -> o.seed = Long.parseLong(v);
                    case "--arms" -> o.arms = Arrays.asList(v.split(","));
                    case "--out-dir" -> o.outDir = Path.of(v);
                    case "--work-dir" -> o.workDir = Path.of(v);
                    case "--git-commit" -> o.gitCommit = v;
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown option " + a + "\n" + USAGE);
                }
            }
            if (o.serverPid == null || o.serverPid.isBlank()) {
                throw new IllegalArgumentException(
                        "the server's pid is needed for its CPU time: --server-pid or CLICKHOUSE_PID");
            }
            for (String arm : o.arms) {
                if (!ALL_ARMS.contains(arm)) {
                    throw new IllegalArgumentException("unknown arm " + arm + "\n" + USAGE);
                }
            }
            o.sluiceJar = o.sluiceJar.toAbsolutePath();
            o.outDir = o.outDir.toAbsolutePath();
            o.workDir = o.workDir.toAbsolutePath();
            return o;
        }

        private static List<String> split(String s) {
            return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
        }

        private static String envOr(String name, String fallback) {
            String v = System.getenv(name);
            return v == null || v.isBlank() ? fallback : v;
        }
    }

    static final String USAGE =
            """
            java -cp sluice-bench.jar dev.sluice.bench.LoadBench [options]
              --url URL              clickhouse://user@host:port/db (env CLICKHOUSE_URL)
              --server-pid PID       the server process, for its CPU time (env CLICKHOUSE_PID)
              --client-bin PATH      clickhouse-client (env CLICKHOUSE_CLIENT_BIN)
              --sluice-jar PATH      the shaded CLI jar (sluice-cli/target/sluice-cli.jar)
              --java PATH            the java that runs it (this JVM's)
              --sluice-java-opts S   JVM options for sluice (env SLUICE_JAVA_OPTS), e.g. JFR
              --sluice-args S        extra arguments for every sluice load
              --rows N               TSV rows (2000000)
              --json-rows N          NDJSON rows (500000)
              --repeat N             timed runs per arm (3)
              --warmup N             untimed runs per arm first (1)
              --arms A,B,...         client-tsv,sluice-tsv,sluice-ndjson,client-ndjson
              --seed N               data seed
              --database NAME        database for the scratch tables (bench)
              --out-dir DIR          where the JSONL results go (bench-results)
              --work-dir DIR         where the input files go ($TMPDIR/sluice-bench-load)
              --git-commit SHA       provenance (env SLUICE_GIT_COMMIT)
              --keep-files           keep the input files
            """;
}
