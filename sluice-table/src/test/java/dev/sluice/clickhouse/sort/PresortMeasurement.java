package dev.sluice.clickhouse.sort;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Measures client-side pre-sorting end to end (a {@code main}, not a test; run it with {@code
 * scripts/bench-presort}): 2M events rows into a MergeTree ordered by (tenant, ts), in 1M-row
 * blocks, over the native protocol with LZ4, for random-order and nearly-sorted input (sorted, then
 * 1% of the rows swapped to random places), with pre-sorting on and off. Arms alternate (ABBA) and
 * each combination is repeated; every run goes into a fresh table with merges stopped, so the
 * server's CPU is the insert's alone.
 *
 * <p>Reported per run: rows/s (wall clock of sort + insert), client CPU (this thread's CPU time:
 * sort, encode, compress, send; the sort alone too), server CPU from the server process's {@code
 * /proc/<pid>/stat} utime+stime, and from the INSERTs' {@code system.query_log} ProfileEvents
 * (UserTimeMicroseconds + SystemTimeMicroseconds; MergeTreeDataWriterBlocksAlreadySorted of
 * MergeTreeDataWriterBlocks). Then a Markdown table of medians with min–max.
 *
 * <p>Environment: {@code CLICKHOUSE_URL} and {@code CLICKHOUSE_PID}. Options: {@code --rows N},
 * {@code --block N}, {@code --repeat N}, {@code --clk-tck N} (clock ticks per second, default 100).
 */
public final class PresortMeasurement {
    private static final String DATABASE = "sluice_bench";
    private static final String DDL =
            " (ts DateTime, tenant UInt32, kind String, id UInt64, payload String)"
                    + " ENGINE = MergeTree ORDER BY (tenant, ts)";
    private static final String[] KINDS = {"view", "click", "purchase", "signup", "logout"};

    private final NativeConnection connection;
    private final long serverPid;
    private final int clockTicks;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private int tableSeq;

    private PresortMeasurement(NativeConnection connection, long serverPid, int clockTicks) {
        this.connection = connection;
        this.serverPid = serverPid;
        this.clockTicks = clockTicks;
    }

    /** One run's figures. */
    record Run(
            String input,
            boolean presort,
            long rows,
            double seconds,
            double clientCpuMs,
            double sortCpuMs,
            double serverProcCpuMs,
            double serverQueryCpuMs,
            long blocks,
            long alreadySorted) {
        double rowsPerSecond() {
            return rows / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        int rows = 2_000_000;
        int block = 1_000_000;
        int repeat = 3;
        int clkTck = 100;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--block" -> block = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--clk-tck" -> clkTck = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String url = System.getenv("CLICKHOUSE_URL");
        String pid = System.getenv("CLICKHOUSE_PID");
        if (url == null || pid == null) {
            throw new IllegalStateException("set CLICKHOUSE_URL and CLICKHOUSE_PID");
        }
        try (NativeConnection c = NativeConnection.open(url)) {
            new PresortMeasurement(c, Long.parseLong(pid.trim()), clkTck).run(rows, block, repeat);
        }
    }

    private void run(int rows, int blockRows, int repeat) throws IOException, InterruptedException {
        connection.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        System.out.printf(
                Locale.ROOT,
                "server %s, %d cores here, %d rows in %d-row blocks, %d repeats%n",
                connection.server(),
                Runtime.getRuntime().availableProcessors(),
                rows,
                blockRows,
                repeat);
        double idle = idleServerCpuMsPerSecond();
        System.out.printf(Locale.ROOT, "server CPU while idle: %.1f ms/s%n", idle);

        // Warm up both code paths (JIT) on a small input; not recorded.
        List<Block> warm = blocks(order(200_000, false), 100_000);
        measure("warm-up", warm, false);
        measure("warm-up", warm, true);

        List<Run> runs = new ArrayList<>();
        for (String input : List.of("random", "nearly-sorted")) {
            List<Block> data = blocks(order(rows, input.equals("nearly-sorted")), blockRows);
            for (int r = 0; r < repeat; r++) {
                boolean first = r % 2 == 0; // ABBA: off,on then on,off
                runs.add(measure(input, data, !first));
                runs.add(measure(input, data, first));
            }
            data.clear();
        }
        for (Run run : runs) {
            System.out.printf(
                    Locale.ROOT,
                    "run %-13s presort=%-5s %,10.0f rows/s  client %7.0f ms (sort %5.0f)  server"
                            + " /proc %7.0f ms  query_log %7.0f ms  already sorted %d/%d%n",
                    run.input(),
                    run.presort(),
                    run.rowsPerSecond(),
                    run.clientCpuMs(),
                    run.sortCpuMs(),
                    run.serverProcCpuMs(),
                    run.serverQueryCpuMs(),
                    run.alreadySorted(),
                    run.blocks());
        }
        System.out.println();
        System.out.println(table(runs));
    }

    // ---- Data ----

    /**
     * Row numbers in input order: random rows as generated, or sorted by (tenant, ts) with 1% of
     * the positions swapped with random others.
     */
    private static int[] order(int rows, boolean nearlySorted) {
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        if (!nearlySorted) {
            return order;
        }
        long[] keys = new long[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = ((long) tenant(i) << 32) | ts(i);
        }
        Integer[] boxed = new Integer[rows];
        for (int i = 0; i < rows; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(keys[a], keys[b]));
        for (int i = 0; i < rows; i++) {
            order[i] = boxed[i];
        }
        Random rnd = new Random(7);
        for (int k = 0; k < rows / 100; k++) {
            int a = rnd.nextInt(rows);
            int b = rnd.nextInt(rows);
            int t = order[a];
            order[a] = order[b];
            order[b] = t;
        }
        return order;
    }

    // Row i's fields, a pure function of i: the same rows for every input order.
    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        return x;
    }

    private static int tenant(int i) {
        return (int) (Long.remainderUnsigned(mix(i * 3L + 1), 1000));
    }

    private static long ts(int i) {
        return 1_700_000_000L + Long.remainderUnsigned(mix(i * 3L + 2), 86_400);
    }

    private static List<Block> blocks(int[] order, int blockRows) {
        List<Block> out = new ArrayList<>();
        byte[] payload = new byte[220];
        for (int start = 0; start < order.length; start += blockRows) {
            Block b =
                    Block.forHeader(
                            List.of("ts", "tenant", "kind", "id", "payload"),
                            List.of("DateTime", "UInt32", "String", "UInt64", "String"));
            Column ts = b.column(0);
            Column tenant = b.column(1);
            Column kind = b.column(2);
            Column id = b.column(3);
            Column text = b.column(4);
            for (int k = start; k < Math.min(order.length, start + blockRows); k++) {
                int i = order[k];
                ts.appendLong(ts(i));
                tenant.appendLong(tenant(i));
                kind.appendString(
                        KINDS[(int) Long.remainderUnsigned(mix(i * 3L + 3), KINDS.length)]);
                id.appendLong(i);
                long x = mix(i);
                int len = 180 + (int) Long.remainderUnsigned(x, 41);
                for (int p = 0; p < len; p++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                    payload[p] = (byte) (33 + (x >>> 58) + (x >>> 60));
                }
                text.appendBytes(payload, 0, len);
            }
            out.add(b);
        }
        return out;
    }

    // ---- One run ----

    private Run measure(String input, List<Block> data, boolean presort)
            throws IOException, InterruptedException {
        String table = DATABASE + ".presort_" + (++tableSeq) + "_" + ProcessHandle.current().pid();
        connection.execute("DROP TABLE IF EXISTS " + table);
        connection.execute("CREATE TABLE " + table + DDL);
        connection.execute("SYSTEM STOP MERGES " + table);
        TableSchema schema = SchemaDiscovery.describe(connection, table);
        List<String> names = List.of("ts", "tenant", "kind", "id", "payload");
        Presorter presorter = Presorter.of(schema, names, ZoneId.of("UTC"));
        if (!presorter.supported()) {
            throw new IllegalStateException(presorter.unsupportedReason());
        }
        Block spare = Presorter.emptyLike(data.get(0));
        List<String> queryIds = new ArrayList<>();
        long rows = 0;
        long sortCpu = 0;
        System.gc();
        Thread.sleep(300); // let the server settle after CREATE
        long procBefore = serverCpuTicks();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (Block b : data) {
            Block send = b;
            if (presort) {
                long s0 = threads.getCurrentThreadCpuTime();
                send = presorter.sort(b, spare, 0);
                sortCpu += threads.getCurrentThreadCpuTime() - s0;
            }
            String queryId = "presort-" + table + "-" + queryIds.size();
            queryIds.add(queryId);
            connection.insert(table, send, Map.of("log_queries", "1"), queryId);
            rows += b.rows();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long clientCpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        long procAfter = serverCpuTicks();
        long[] events = queryEvents(queryIds);
        connection.execute("DROP TABLE " + table);
        return new Run(
                input,
                presort,
                rows,
                seconds,
                clientCpu / 1e6,
                sortCpu / 1e6,
                (procAfter - procBefore) * 1000.0 / clockTicks,
                events[0] / 1000.0,
                events[1],
                events[2]);
    }

    /** utime + stime of the server process, in clock ticks. */
    private long serverCpuTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + serverPid + "/stat"));
        // Fields after the command name (which is in parentheses and may hold spaces).
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15
    }

    private double idleServerCpuMsPerSecond() throws IOException, InterruptedException {
        long before = serverCpuTicks();
        Thread.sleep(3000);
        return (serverCpuTicks() - before) * 1000.0 / clockTicks / 3.0;
    }

    /** {user+system CPU µs, writer blocks, blocks already sorted} summed over the queries. */
    private long[] queryEvents(List<String> queryIds) throws InterruptedException {
        long[] sum = new long[3];
        for (String id : queryIds) {
            List<List<Object>> r = finished(id);
            for (int k = 0; k < 3; k++) {
                sum[k] += ((Number) r.get(0).get(k)).longValue();
            }
        }
        return sum;
    }

    /**
     * The query's QueryFinish row; the server writes it just after answering, so it may take a
     * moment and another flush to appear.
     */
    private List<List<Object>> finished(String id) throws InterruptedException {
        for (int attempt = 0; attempt < 50; attempt++) {
            connection.execute("SYSTEM FLUSH LOGS");
            List<List<Object>> r =
                    connection.queryRows(
                            "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                                    + " 'UserTimeMicroseconds')] +"
                                    + " ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                                    + " 'SystemTimeMicroseconds')],"
                                    + " ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                                    + " 'MergeTreeDataWriterBlocks')],"
                                    + " ProfileEvents.Values[indexOf(ProfileEvents.Names,"
                                    + " 'MergeTreeDataWriterBlocksAlreadySorted')]"
                                    + " FROM system.query_log WHERE query_id = '"
                                    + id
                                    + "' AND type = 2");
            if (!r.isEmpty()) {
                return r;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no query_log row for " + id);
    }

    // ---- Report ----

    private static String table(List<Run> runs) {
        StringBuilder sb = new StringBuilder();
        sb.append("| input | presort | rows/s | client CPU ms (sort) | server CPU ms (/proc) |")
                .append(" server CPU ms (query_log) | blocks found sorted |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        for (String input : List.of("random", "nearly-sorted")) {
            for (boolean presort : List.of(false, true)) {
                List<Run> rs = new ArrayList<>();
                for (Run r : runs) {
                    if (r.input().equals(input) && r.presort() == presort) {
                        rs.add(r);
                    }
                }
                if (rs.isEmpty()) {
                    continue;
                }
                sb.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %s | %s (%s) | %s | %s | %d/%d |%n",
                                input,
                                presort ? "on" : "off",
                                stat(rs, Run::rowsPerSecond, "%,.0f"),
                                stat(rs, Run::clientCpuMs, "%.0f"),
                                stat(rs, Run::sortCpuMs, "%.0f"),
                                stat(rs, Run::serverProcCpuMs, "%.0f"),
                                stat(rs, Run::serverQueryCpuMs, "%.0f"),
                                rs.stream().mapToLong(Run::alreadySorted).sum(),
                                rs.stream().mapToLong(Run::blocks).sum()));
            }
        }
        sb.append("\nmedian [min–max] of the runs of each arm");
        return sb.toString();
    }

    private static String stat(
            List<Run> runs, java.util.function.ToDoubleFunction<Run> f, String format) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        double median =
                v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return String.format(Locale.ROOT, format, median)
                + " ["
                + String.format(Locale.ROOT, format, v[0])
                + "–"
                + String.format(Locale.ROOT, format, v[v.length - 1])
                + "]";
    }
}
