package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end insert benchmark: the same events rows into the same server and table shape, by {@code
 * clickhouse-client} reading a Native file and by Sluice's native connection, side by side in one
 * run.
 *
 * <p>Per timed run it records wall time, client CPU (Sluice: the inserting thread inside the
 * insert, and the whole JVM process including GC and JIT; clickhouse-client: its whole process),
 * and the server's CPU from {@code /proc/<server pid>/stat}. Bytes on the wire are counted in
 * separate runs through a loopback {@link ByteCountingProxy}, the same way for both clients. Arms
 * alternate between repeats; each run gets a fresh table, checked against checksums of the
 * generated rows and dropped.
 *
 * <p>Output: one JSON line per run appended to {@code <out-dir>/insert-<date>.jsonl}, and a
 * Markdown summary on stdout.
 */
public final class InsertBench {
    private static final String CLICKHOUSE_CLIENT = "clickhouse-client";

    private final Options opt;
    private final Map<String, Object> provenance = new LinkedHashMap<>();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.ThreadMXBean allocations =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /**
     * One long-lived connection per Sluice arm for the direct runs, as a sink holds one: the steady
     * state, where each insert refills the previous insert's column buffers.
     */
    private final Map<String, NativeConnection> connections = new LinkedHashMap<>();

    private EventsData data;
    private EventsData.Checksums expected;
    private Path nativeFile;
    private Path jsonl;
    private int tableSeq;

    private InsertBench(Options opt) {
        this.opt = opt;
    }

    public static void main(String[] args) throws Exception {
        Options opt = Options.parse(args);
        if (opt == null) {
            return;
        }
        new InsertBench(opt).run();
    }

    /** What one timed or counting run measured. */
    record Run(
            String arm,
            String kind,
            int repeat,
            long rows,
            double wallSeconds,
            double clientCpuInsideSeconds,
            double clientCpuProcessSeconds,
            double serverCpuSeconds,
            long wireBytesUp,
            long wireBytesDown,
            long sluiceWireBytes,
            long sluiceSocketBytes,
            long allocatedBytes) {

        double rowsPerSecond() {
            return rows / wallSeconds;
        }

        double perMillion(double seconds) {
            return seconds / (rows / 1e6);
        }
    }

    private void run() throws Exception {
        ConnectionConfig base = ConnectionConfig.parse(opt.url);
        Files.createDirectories(opt.outDir);
        jsonl =
                opt.outDir.resolve(
                        "insert-" + Instant.now().toString().substring(0, 10) + ".jsonl");
        String version;
        try (NativeConnection c = NativeConnection.open(base)) {
            version = String.valueOf(c.queryRows("SELECT version()").get(0).get(0));
            c.execute("CREATE DATABASE IF NOT EXISTS " + opt.database);
        }
        provenance.put("server_version", version);
        provenance.put("server_pid", opt.serverPid);
        provenance.put("host", Summaries.hostName());
        provenance.put("cores", Runtime.getRuntime().availableProcessors());
        provenance.put("git_commit", opt.gitCommit);
        provenance.put(
                "jvm",
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        provenance.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        provenance.put("date", Instant.now().toString());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("rows", opt.rows);
        config.put("repeat", opt.repeat);
        config.put("block_rows", opt.blockRows);
        config.put("seed", opt.seed);
        config.put("arms", opt.arms);
        config.put("zstd_level", opt.zstdLevel);
        config.put("url", base.address());
        config.put("table", "MergeTree ORDER BY (tenant, ts): " + EventsData.COLUMNS_DDL);
        provenance.put("config", config);

        long t0 = System.nanoTime();
        data = EventsData.generate(opt.rows, opt.seed);
        expected = data.checksums();
        log("generated %,d rows in %.1f s", opt.rows, (System.nanoTime() - t0) / 1e9);
        if (opt.arms.contains(CLICKHOUSE_CLIENT)) {
            nativeFile = writeNativeFile();
        }

        // Warm-up: JIT for Sluice, page cache and server for clickhouse-client. Untimed.
        for (String arm : opt.arms) {
            runArm(arm, "warmup", 0, null);
        }
        // Bytes on the wire, each arm once through the counting proxy.
        List<Run> wire = new ArrayList<>();
        try (ByteCountingProxy proxy = new ByteCountingProxy(base.host(), base.port())) {
            for (String arm : opt.arms) {
                wire.add(runArm(arm, "wire", 0, proxy));
            }
        }
        // Timed runs: arms alternate direction each repeat, so neither always goes first.
        List<Run> timed = new ArrayList<>();
        for (int r = 1; r <= opt.repeat; r++) {
            List<String> order = new ArrayList<>(opt.arms);
            if (r % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String arm : order) {
                timed.add(runArm(arm, "timed", r, null));
            }
        }
        for (NativeConnection c : connections.values()) {
            c.close();
        }
        System.out.println();
        System.out.println(summary(timed, wire));
        log("results appended to %s", jsonl);
        if (!opt.keepFile && nativeFile != null) {
            Files.deleteIfExists(nativeFile);
        }
    }

    // ---- One run of one arm ----

    private Run runArm(String arm, String kind, int repeat, ByteCountingProxy proxy)
            throws Exception {
        String table = opt.database + ".events_" + arm.replace('-', '_') + "_" + (++tableSeq);
        try (NativeConnection admin = NativeConnection.open(opt.url)) {
            admin.execute("DROP TABLE IF EXISTS " + table);
            admin.execute(
                    "CREATE TABLE "
                            + table
                            + " ("
                            + EventsData.COLUMNS_DDL
                            + ") ENGINE = MergeTree ORDER BY (tenant, ts)");
        }
        waitForQuietServer();
        if (proxy != null) {
            proxy.resetCounters();
        }
        Run run =
                arm.equals(CLICKHOUSE_CLIENT)
                        ? clickhouseClient(table, kind, repeat, proxy)
                        : sluice(arm, table, kind, repeat, proxy);
        try (NativeConnection admin = NativeConnection.open(opt.url)) {
            List<Object> row = admin.queryRows(EventsData.Checksums.SQL + table).get(0);
            String got = String.join("\t", row.stream().map(String::valueOf).toList());
            if (!got.equals(expected.render())) {
                throw new IllegalStateException(
                        arm + ": table " + table + " holds " + got + ", expected " + expected);
            }
            admin.execute("DROP TABLE " + table);
        }
        if (!kind.equals("warmup")) {
            record(run);
        }
        log(
                "%-18s %-6s %d: %,9.0f rows/s, client %.3f/%.3f CPU-s, server %.3f CPU-s%s",
                arm,
                kind,
                repeat,
                run.rowsPerSecond(),
                run.clientCpuInsideSeconds,
                run.clientCpuProcessSeconds,
                run.serverCpuSeconds,
                proxy == null ? "" : String.format(", %,d bytes up", run.wireBytesUp));
        return run;
    }

    private Run clickhouseClient(String table, String kind, int repeat, ByteCountingProxy proxy)
            throws Exception {
        ConnectionConfig c = ConnectionConfig.parse(opt.url);
        int port = proxy != null ? proxy.port() : c.port();
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                opt.clientBin,
                                "--host",
                                c.host(),
                                "--port",
                                Integer.toString(port),
                                "--user",
                                c.user(),
                                // LZ4 is the default; say so, so the comparison cannot drift.
                                "--compression",
                                "1",
                                "--network_compression_method",
                                "lz4",
                                "--query",
                                "INSERT INTO " + table + " FORMAT Native"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (!c.password().isEmpty()) {
            pb.environment().put("CLICKHOUSE_PASSWORD", c.password().reveal());
            cmd.add(cmd.size() - 2, "--password");
            cmd.add(cmd.size() - 2, c.password().reveal());
            pb.command(cmd);
        }
        pb.redirectInput(nativeFile.toFile());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Path err = Files.createTempFile("bench-insert", ".err");
        pb.redirectError(err.toFile());

        long child0 = ProcStat.childCpuTicks("self");
        long server0 = serverTicks();
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("clickhouse-client timed out");
        }
        long t1 = System.nanoTime();
        long server1 = serverTicks();
        // The JVM reaped the child in waitFor, which adds its CPU to our cutime/cstime.
        long child1 = ProcStat.childCpuTicks("self");
        String stderr = Files.readString(err);
        Files.deleteIfExists(err);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(
                    "clickhouse-client failed (" + p.exitValue() + "): " + stderr);
        }
        long up = 0;
        long down = 0;
        if (proxy != null) {
            Thread.sleep(200); // let the relay threads count the last bytes
            up = proxy.upstreamBytes();
            down = proxy.downstreamBytes();
        }
        double clientCpu = ProcStat.seconds(child1 - child0);
        return new Run(
                CLICKHOUSE_CLIENT,
                kind,
                repeat,
                opt.rows,
                (t1 - t0) / 1e9,
                clientCpu,
                clientCpu,
                ProcStat.seconds(server1 - server0),
                up,
                down,
                -1,
                -1,
                -1);
    }

    private Run sluice(String arm, String table, String kind, int repeat, ByteCountingProxy proxy)
            throws Exception {
        CompressionMethod method = CompressionMethod.parse(arm.substring("sluice-".length()));
        ConnectionConfig.Builder b =
                ConnectionConfig.parse(opt.url).toBuilder()
                        .compression(method)
                        .zstdLevel(opt.zstdLevel);
        if (proxy != null) {
            b.host("127.0.0.1").port(proxy.port());
        }
        InsertOptions options = InsertOptions.DEFAULTS.withMaxBlockRows(opt.blockRows);
        EventsData d = data;
        int rows = d.rows;
        InsertResult result;
        long socketBytes;
        long t0;
        long t1;
        long cpu0;
        long cpu1;
        long proc0;
        long proc1;
        long server0;
        long server1;
        long alloc0;
        long alloc1;
        NativeConnection c =
                proxy != null
                        ? NativeConnection.open(b.build())
                        : connections.computeIfAbsent(arm, a -> NativeConnection.open(b.build()));
        try {
            long socket0 = c.socketBytesWritten();
            server0 = serverTicks();
            proc0 = ProcStat.cpuTicks("self");
            alloc0 = allocations.getCurrentThreadAllocatedBytes();
            cpu0 = threads.getCurrentThreadCpuTime();
            t0 = System.nanoTime();
            try (Insert insert = c.insert(table, List.of(), Map.of(), options)) {
                Column ts = insert.column("ts");
                Column tenant = insert.column("tenant");
                Column kindColumn = insert.column("kind");
                Column id = insert.column("id");
                Column payload = insert.column("payload");
                for (int r = 0; r < rows; r++) {
                    ts.appendLong(d.ts[r]);
                    tenant.appendLong(d.tenant[r]);
                    kindColumn.appendBytes(d.kinds[d.kindIndex[r]]);
                    id.appendUnsignedLong(d.id[r]);
                    payload.appendBytes(d.payloads[d.payloadIndex[r]]);
                    insert.endRow();
                }
                result = insert.finish();
            }
            t1 = System.nanoTime();
            cpu1 = threads.getCurrentThreadCpuTime();
            alloc1 = allocations.getCurrentThreadAllocatedBytes();
            proc1 = ProcStat.cpuTicks("self");
            server1 = serverTicks();
            socketBytes = c.socketBytesWritten() - socket0;
        } finally {
            if (proxy != null) {
                c.close();
            }
        }
        long up = 0;
        long down = 0;
        if (proxy != null) {
            Thread.sleep(200);
            up = proxy.upstreamBytes();
            down = proxy.downstreamBytes();
        }
        if (result.rows() != rows) {
            throw new IllegalStateException(arm + ": sent " + result.rows() + " rows of " + rows);
        }
        return new Run(
                arm,
                kind,
                repeat,
                rows,
                (t1 - t0) / 1e9,
                (cpu1 - cpu0) / 1e9,
                ProcStat.seconds(proc1 - proc0),
                ProcStat.seconds(server1 - server0),
                up,
                down,
                result.wireBytes(),
                socketBytes,
                alloc1 - alloc0);
    }

    // ---- The Native file for clickhouse-client ----

    /**
     * The rows as an HTTP/file Native stream (revision 0: no BlockInfo) in blocks of {@code
     * blockRows}, the blocks clickhouse-client will send as they are.
     */
    private Path writeNativeFile() throws IOException {
        Path file =
                opt.outDir
                        .resolve("events-" + opt.rows + "-" + opt.seed + ".native")
                        .toAbsolutePath();
        long t0 = System.nanoTime();
        try (OutputStream os =
                Files.newOutputStream(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)) {
            WireOutput out =
                    new WireOutput(
                            1 << 20,
                            (buf, off, len) -> {
                                try {
                                    os.write(buf, off, len);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
            Block block = EventsData.newBlock();
            for (int from = 0; from < data.rows; from += opt.blockRows) {
                block.reset();
                data.appendTo(block, from, Math.min(data.rows, from + opt.blockRows));
                NativeBlockCodec.write(block, out, 0);
            }
            out.flush();
        }
        log(
                "wrote %s (%,d bytes) in %.1f s",
                file, Files.size(file), (System.nanoTime() - t0) / 1e9);
        return file;
    }

    // ---- Server CPU ----

    private long serverTicks() {
        return ProcStat.cpuTicks(opt.serverPid);
    }

    /** Waits (at most 15 s) until the server burns under 3% of a core: merges and flushes done. */
    private void waitForQuietServer() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
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

    // ---- Output ----

    private void record(Run r) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>(provenance);
        m.put("arm", r.arm);
        m.put("kind", r.kind);
        m.put("repeat", r.repeat);
        m.put("rows", r.rows);
        m.put("wall_s", r.wallSeconds);
        m.put("rows_per_s", r.rowsPerSecond());
        m.put("client_cpu_inside_s", r.clientCpuInsideSeconds);
        m.put("client_cpu_process_s", r.clientCpuProcessSeconds);
        m.put("server_cpu_s", r.serverCpuSeconds);
        m.put("client_cpu_inside_s_per_m_rows", r.perMillion(r.clientCpuInsideSeconds));
        m.put("client_cpu_process_s_per_m_rows", r.perMillion(r.clientCpuProcessSeconds));
        m.put("server_cpu_s_per_m_rows", r.perMillion(r.serverCpuSeconds));
        if (r.allocatedBytes >= 0) {
            m.put("allocated_bytes_per_row_inside_insert", (double) r.allocatedBytes / r.rows);
        }
        if (r.kind.equals("wire")) {
            m.put("wire_bytes_up", r.wireBytesUp);
            m.put("wire_bytes_down", r.wireBytesDown);
            if (r.sluiceWireBytes >= 0) {
                m.put("sluice_data_packet_bytes", r.sluiceWireBytes);
                m.put("sluice_socket_bytes", r.sluiceSocketBytes);
            }
            if (nativeFile != null && r.arm.equals(CLICKHOUSE_CLIENT)) {
                m.put("native_file_bytes", Files.size(nativeFile));
            }
        }
        Files.writeString(
                jsonl,
                Json.write(m) + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    String summary(List<Run> timed, List<Run> wire) {
        StringBuilder sb = new StringBuilder();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "%,d rows x %d repeats, server %s, %s, %d cores; median [min-max]%n%n",
                        opt.rows,
                        opt.repeat,
                        provenance.get("server_version"),
                        provenance.get("host"),
                        Runtime.getRuntime().availableProcessors()));
        sb.append(
                "| arm | rows/s | client CPU-s / M rows (inside insert) | client CPU-s / M rows"
                        + " (whole process) | server CPU-s / M rows | wire bytes | bytes/row |"
                        + " allocated B/row (inserting thread) |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String arm : opt.arms) {
            List<Run> runs = timed.stream().filter(r -> r.arm.equals(arm)).toList();
            Run w = wire.stream().filter(r -> r.arm.equals(arm)).findFirst().orElse(null);
            sb.append("| ").append(arm);
            sb.append(" | ").append(stat(runs, Run::rowsPerSecond, "%,.0f"));
            sb.append(" | ")
                    .append(stat(runs, r -> r.perMillion(r.clientCpuInsideSeconds), "%.3f"));
            sb.append(" | ")
                    .append(stat(runs, r -> r.perMillion(r.clientCpuProcessSeconds), "%.3f"));
            sb.append(" | ").append(stat(runs, r -> r.perMillion(r.serverCpuSeconds), "%.3f"));
            sb.append(" | ").append(w == null ? "-" : String.format("%,d", w.wireBytesUp));
            sb.append(" | ")
                    .append(
                            w == null
                                    ? "-"
                                    : String.format(
                                            Locale.ROOT, "%.2f", (double) w.wireBytesUp / w.rows));
            sb.append(" | ")
                    .append(
                            arm.equals(CLICKHOUSE_CLIENT)
                                    ? "-"
                                    : stat(runs, r -> (double) r.allocatedBytes / r.rows, "%.2f"));
            sb.append(" |\n");
        }
        return sb.toString();
    }

    private static String stat(
            List<Run> runs, java.util.function.ToDoubleFunction<Run> f, String format) {
        return Summaries.stat(runs.stream().mapToDouble(f).toArray(), format);
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "bench-insert: " + format + "%n", args);
    }

    // ---- Command line ----

    static final class Options {
        String url = envOr("CLICKHOUSE_URL", "clickhouse://default@127.0.0.1:9000/default");
        String serverPid = System.getenv("CLICKHOUSE_PID");
        String clientBin = envOr("CLICKHOUSE_CLIENT_BIN", CLICKHOUSE_CLIENT);
        String database = "bench";
        int rows = 2_000_000;
        int repeat = 3;
        int blockRows = 1_048_576;
        long seed = EventsData.DEFAULT_SEED;
        int zstdLevel = 1; // the server's network_zstd_compression_level default
        List<String> arms = List.of(CLICKHOUSE_CLIENT, "sluice-lz4", "sluice-zstd", "sluice-none");
        Path outDir = Path.of("bench-results");
        String gitCommit = envOr("SLUICE_GIT_COMMIT", "unknown");
        boolean keepFile;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    System.out.println(USAGE);
                    return null;
                }
                if (a.equals("--keep-file")) {
                    o.keepFile = true;
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
                    case "--database" -> o.database = v;
                    case "--rows" -> o.rows = Integer.parseInt(v);
                    case "--repeat" -> o.repeat = Integer.parseInt(v);
                    case "--block-rows" -> o.blockRows = Integer.parseInt(v);
                    case "--seed" -> o.seed = Long.parseLong(v);
                    case "--zstd-level" -> o.zstdLevel = Integer.parseInt(v);
                    case "--arms" -> o.arms = Arrays.asList(v.split(","));
                    case "--out-dir" -> o.outDir = Path.of(v);
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
                if (!arm.equals(CLICKHOUSE_CLIENT) && !arm.matches("sluice-(lz4|zstd|none)")) {
                    throw new IllegalArgumentException("unknown arm " + arm + "\n" + USAGE);
                }
            }
            return o;
        }

        private static String envOr(String name, String fallback) {
            String v = System.getenv(name);
            return v == null || v.isBlank() ? fallback : v;
        }
    }

    static final String USAGE =
            """
            java -cp sluice-bench.jar dev.sluice.bench.InsertBench [options]
              --url URL           clickhouse://user@host:port/db (env CLICKHOUSE_URL)
              --server-pid PID    the server process, for its CPU time (env CLICKHOUSE_PID)
              --client-bin PATH   clickhouse-client (env CLICKHOUSE_CLIENT_BIN)
              --rows N            rows per run (2000000)
              --repeat N          timed runs per arm (3)
              --block-rows N      rows per block, both clients (1048576)
              --arms A,B,...      clickhouse-client,sluice-lz4,sluice-zstd,sluice-none
              --zstd-level N      Sluice's zstd level (1, the server's network default)
              --seed N            data seed
              --database NAME     database for the scratch tables (bench)
              --out-dir DIR       where the JSONL results go (bench-results)
              --git-commit SHA    provenance (env SLUICE_GIT_COMMIT)
              --keep-file         keep the Native file for clickhouse-client
            """;
}
