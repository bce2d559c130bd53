package dev.sluice.rigs.peers;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.rigs.Arms;
import dev.sluice.rigs.Axis;
import dev.sluice.rigs.BenchContext;
import dev.sluice.rigs.BenchRecord;
import dev.sluice.rigs.ByteCountingProxy;
import dev.sluice.rigs.Parts;
import dev.sluice.rigs.Rig;
import dev.sluice.rigs.Target;
import dev.sluice.rigs.Units;
import dev.sluice.rigs.data.EventsData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Peers side by side: the same rows into the same table shape ({@code MergeTree ORDER BY (tenant,
 * ts)}), one run, arms alternated. For every arm the rows that landed are checked — {@code count()}
 * and {@code sum(cityHash64(...))} against a reference table loaded once and itself checked value
 * by value against the generated rows — so an arm that lands fewer rows than it claims is shown as
 * failed, with what it reported, never dropped.
 *
 * <p>Each arm first runs once through a loopback byte-counting proxy (its warm-up, and where its
 * wire bytes come from; 18.16's query log has no network counters), then once per repetition
 * against the server directly.
 */
public final class PeersRig implements Rig {
    public static final String NAME = "peers";

    static final String COLUMNS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";
    static final String ENGINE = "MergeTree ORDER BY (tenant, ts)";
    static final String HASH_SQL =
            "SELECT count(), sum(cityHash64(ts, tenant, kind, id, payload)) FROM ";

    static final List<String> PEERS =
            List.of(
                    "sluice-native",
                    "sluice-http",
                    "sluice-load-tsv",
                    "sluice-load-ndjson",
                    "clickhouse-client-native",
                    "clickhouse-client-tsv",
                    "client-v2-pojo",
                    "client-v2-pojo-defaults",
                    "jdbc-v2");

    private static final List<Axis> AXES =
            List.of(
                    new Axis("peer", PEERS, PEERS, String.join(", ", PEERS)),
                    new Axis(
                            "rows",
                            List.of("2000000"),
                            List.of("200000"),
                            "rows inserted by each arm"),
                    new Axis(
                            "block-rows",
                            List.of("1048576"),
                            List.of("100000"),
                            "rows per block / INSERT / batch"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Sluice (library native and HTTP, sluice load TSV and NDJSON), clickhouse-client, client-v2"
                + " and jdbc-v2: the same rows into the same table, landed rows checked";
    }

    @Override
    public List<Axis> axes() {
        return AXES;
    }

    List<Peer> peers(BenchContext ctx) {
        String client = ctx.target().clientBin();
        List<String> sluice = ctx.sluiceCommand();
        List<Peer> out = new ArrayList<>();
        out.add(new SluiceNativePeer());
        out.add(new SluiceHttpPeer());
        if (sluice != null) {
            out.add(
                    ProcessPeer.sluiceLoad(
                            "sluice-load-tsv",
                            sluice,
                            run -> run.files().tsv(),
                            List.of("--no-header")));
            out.add(
                    ProcessPeer.sluiceLoad(
                            "sluice-load-ndjson", sluice, run -> run.files().ndjson(), List.of()));
        }
        out.add(
                ProcessPeer.clickhouseClient(
                        "clickhouse-client-native",
                        client,
                        "Native",
                        run -> run.files().nativeFile()));
        out.add(
                ProcessPeer.clickhouseClient(
                        "clickhouse-client-tsv", client, "TabSeparated", run -> run.files().tsv()));
        out.add(new ClientV2Peer(false));
        out.add(new ClientV2Peer(true));
        out.add(new JdbcV2Peer());
        return out;
    }

    /** Why {@code peer} cannot run here, or null. */
    static String unsupported(String peer, BenchContext ctx) {
        if (peer.startsWith("sluice-load") && ctx.sluiceCommand() == null) {
            return "not running from the sluice jar, so sluice load cannot be started as a process";
        }
        if (!peer.equals("sluice-native")
                && !peer.startsWith("sluice-load")
                && !peer.startsWith("clickhouse-client")
                && ctx.target().httpUrl() == null) {
            return "no HTTP URL of the server (--http-url or CLICKHOUSE_HTTP_URL)";
        }
        if (peer.startsWith("clickhouse-client") && !runnable(ctx.target().clientBin())) {
            return "clickhouse-client (" + ctx.target().clientBin() + ") cannot be run here";
        }
        return null;
    }

    private static boolean runnable(String bin) {
        try {
            Process p = new ProcessBuilder(bin, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception {
        List<String> names = new ArrayList<>();
        for (String p : axes.get("peer")) {
            names.add(Units.oneOf(p, "peer", PEERS));
        }
        List<Integer> rowsList =
                axes.get("rows").stream().map(v -> Units.positiveInt(v, "rows")).toList();
        List<Integer> blockList =
                axes.get("block-rows").stream()
                        .map(v -> Units.positiveInt(v, "block-rows"))
                        .toList();
        Map<String, Object> base = new LinkedHashMap<>();
        base.put("peer", names.get(0));
        base.put("rows", rowsList.get(0));
        base.put("block_rows", blockList.get(0));
        ctx.progress().rig(NAME, names.size() * rowsList.size() * blockList.size(), ctx.reps());
        for (int rows : rowsList) {
            for (int blockRows : blockList) {
                compare(ctx, names, rows, blockRows, base);
            }
        }
    }

    private void compare(
            BenchContext ctx, List<String> names, int rows, int blockRows, Map<String, Object> base)
            throws Exception {
        Target target = ctx.target();
        Map<String, Peer> all = new LinkedHashMap<>();
        for (Peer p : peers(ctx)) {
            all.put(p.name(), p);
        }
        List<Peer> runnable = new ArrayList<>();
        for (String n : names) {
            String why = unsupported(n, ctx);
            Map<String, Object> arm = arm(n, rows, blockRows);
            if (why != null) {
                ctx.progress().note("unsupported: " + n + ": " + why);
                ctx.write(ctx.record(NAME, arm, 1, settings(base, null)).unsupported(why));
            } else {
                runnable.add(all.get(n));
            }
        }
        ctx.progress().arms(runnable.size());
        EventsData data = EventsData.generate(rows, ctx.seed());
        Path dir = Files.createDirectories(ctx.workDir().resolve("peers-" + rows));
        PeerFiles files = PeerFiles.write(data, blockRows, dir);
        ConnectionConfig nat = ConnectionConfig.parse(target.nativeUrl());
        int httpPort =
                target.httpUrl() == null ? -1 : ConnectionConfig.parse(target.httpUrl()).port();
        String password = nat.password().isEmpty() ? "" : nat.password().reveal();
        String reference = Target.DATABASE + ".peers_reference";
        String expected =
                reference(ctx, data, files, nat, httpPort, password, blockRows, reference, dir);
        Map<String, Long> wire = new LinkedHashMap<>();
        try (ByteCountingProxy nativeProxy = new ByteCountingProxy(nat.host(), nat.port());
                ByteCountingProxy httpProxy =
                        httpPort < 0 ? null : new ByteCountingProxy(nat.host(), httpPort)) {
            for (Peer p : runnable) {
                String table = table(ctx);
                nativeProxy.resetCounters();
                if (httpProxy != null) {
                    httpProxy.resetCounters();
                }
                PeerRun run =
                        new PeerRun(
                                data,
                                files,
                                table,
                                "127.0.0.1",
                                nativeProxy.port(),
                                httpProxy == null ? -1 : httpProxy.port(),
                                nat.user(),
                                password,
                                nat.database(),
                                blockRows,
                                dir);
                try {
                    p.insert(run);
                    Thread.sleep(200); // the relay threads count the last bytes
                    wire.put(
                            p.name(),
                            nativeProxy.upstreamBytes()
                                    + (httpProxy == null ? 0 : httpProxy.upstreamBytes()));
                } catch (Exception e) {
                    ctx.progress().note(p.name() + " (counting pass): " + e.getMessage());
                } finally {
                    target.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
        for (int rep = 1; rep <= ctx.reps(); rep++) {
            for (Peer p : Arms.order(runnable, rep)) {
                Map<String, Object> arm = arm(p.name(), rows, blockRows);
                ctx.progress().arm(runnable.indexOf(p) + 1, rep, Arms.label(arm));
                String table = table(ctx);
                PeerRun run =
                        new PeerRun(
                                data,
                                files,
                                table,
                                nat.host(),
                                nat.port(),
                                httpPort,
                                nat.user(),
                                password,
                                nat.database(),
                                blockRows,
                                dir);
                BenchRecord r = ctx.record(NAME, arm, rep, settings(base, p));
                try {
                    measure(ctx, p, run, r, rows, expected, wire.get(p.name()), files);
                } finally {
                    target.execute("DROP TABLE IF EXISTS " + table);
                }
                ctx.write(r);
                ctx.progress()
                        .repDone(
                                r.ok()
                                        ? String.format(
                                                Locale.ROOT,
                                                "%,.0f rows/s",
                                                ((Number) r.get("rows_per_s")).doubleValue())
                                        : r.get("status") + ": " + r.get("reason"));
            }
        }
        target.execute("DROP TABLE IF EXISTS " + reference);
    }

    private static Map<String, Object> arm(String peer, int rows, int blockRows) {
        Map<String, Object> arm = new LinkedHashMap<>();
        arm.put("peer", peer);
        arm.put("rows", rows);
        arm.put("block_rows", blockRows);
        return arm;
    }

    private static Map<String, Object> settings(Map<String, Object> base, Peer p) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("base_arm", base);
        s.put("fixture", "events rows (payload arena 2048: low entropy) into " + ENGINE);
        s.put("table", COLUMNS + " ENGINE = " + ENGINE);
        s.put(
                "wire_bytes_source",
                "a counting pass through a loopback proxy (client → server bytes)");
        if (p != null) {
            s.put("client", p.description());
        }
        return s;
    }

    /**
     * A fresh table in the URL's database: client-v2 0.10 resolves table names in its endpoint's
     * database whatever {@code setDefaultDatabase} says (against 18.16), so the arms share that.
     */
    private static String table(BenchContext ctx) {
        Target target = ctx.target();
        String table =
                ctx.newTable(
                        ConnectionConfig.parse(target.nativeUrl()).database(),
                        "sluice_bench_peers");
        target.execute("DROP TABLE IF EXISTS " + table);
        target.execute("CREATE TABLE " + table + " (" + COLUMNS + ") ENGINE = " + ENGINE);
        return table;
    }

    /**
     * Loads the reference table with Sluice's native insert, checks it value by value (sums
     * computed here from the generated rows), and returns its count and content hash.
     */
    private static String reference(
            BenchContext ctx,
            EventsData data,
            PeerFiles files,
            ConnectionConfig nat,
            int httpPort,
            String password,
            int blockRows,
            String reference,
            Path dir) {
        Target target = ctx.target();
        target.execute("DROP TABLE IF EXISTS " + reference);
        target.execute("CREATE TABLE " + reference + " (" + COLUMNS + ") ENGINE = " + ENGINE);
        new SluiceNativePeer()
                .insert(
                        new PeerRun(
                                data,
                                files,
                                reference,
                                nat.host(),
                                nat.port(),
                                httpPort,
                                nat.user(),
                                password,
                                nat.database(),
                                blockRows,
                                dir));
        List<Object> sums = target.query(EventsData.Checksums.SQL + reference).get(0);
        String got = String.join("\t", sums.stream().map(String::valueOf).toList());
        String want = data.checksums().render();
        if (!got.equals(want)) {
            throw new IllegalStateException(
                    "the reference table holds " + got + ", the generated rows sum to " + want);
        }
        return hash(target, reference);
    }

    private static String hash(Target target, String table) {
        List<Object> row = target.query(HASH_SQL + table).get(0);
        return row.get(0) + "\t" + row.get(1);
    }

    private static void measure(
            BenchContext ctx,
            Peer p,
            PeerRun run,
            BenchRecord r,
            int rows,
            String expected,
            Long wire,
            PeerFiles files)
            throws IOException {
        Target target = ctx.target();
        long server0 = ctx.serverCpu().mark();
        Peer.Outcome o;
        try {
            o = p.insert(run);
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            long landed = target.queryLong("SELECT count() FROM " + run.table());
            r.extra("rows_landed", landed);
            r.failed("error: " + why + "; " + landed + " of " + rows + " rows landed");
            return;
        }
        ctx.serverCpu().measure(server0, run.table(), r);
        String got = hash(target, run.table());
        long landed = Long.parseLong(got.substring(0, got.indexOf('\t')));
        r.extra("rows_landed", landed);
        r.extra("rows_reported", o.reportedRows());
        r.extra("client_reported", o.reported());
        r.extra("content_matches_reference", got.equals(expected));
        o.extra().forEach(r::extra);
        r.throughput(rows, o.seconds());
        r.set("client_cpu_s", o.clientCpuSeconds());
        if (wire != null) {
            r.set("wire_bytes", wire);
        } else {
            r.absent("wire_bytes", "the counting pass failed");
        }
        Object uncompressed = o.extra().get("uncompressed_bytes");
        if (uncompressed != null) {
            r.set("uncompressed_bytes", uncompressed);
        } else if (p.name().startsWith("clickhouse-client") || p.name().startsWith("sluice-load")) {
            Path input =
                    p.name().endsWith("native")
                            ? files.nativeFile()
                            : p.name().endsWith("tsv") ? files.tsv() : files.ndjson();
            r.set("uncompressed_bytes", Files.size(input));
        } else {
            r.absent("uncompressed_bytes", "the client does not report it");
        }
        r.absent("verdict", "no limiter verdict: a peer's insert is not a pipeline");
        r.absent("inflight_budget_bytes", "not a pipeline");
        Parts.record(target, run.table(), r);
        r.cpuBound(Runtime.getRuntime().availableProcessors(), target.colocated());
        if (landed != rows || !got.equals(expected)) {
            r.failed(
                    String.format(
                            Locale.ROOT,
                            "%s — but %,d of %,d rows landed%s",
                            o.reported(),
                            landed,
                            rows,
                            landed == rows
                                    ? " and their content differs from the reference (sum(cityHash64))"
                                    : ""));
        }
    }
}
