package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code sluice run} on a file source at random points, then a restart of the
 * same command, several times, and a last run that finishes: every input row must be in the table
 * exactly once, and no row whose position had been committed is written again (property 1).
 *
 * <p>On 18.16 a plain MergeTree cannot deduplicate, so a restart's replay of the batches written
 * after the last commit would write their rows again; instead the replay looks each batch's INSERT
 * up in the server's query log (the test server logs queries) and sends again only those the server
 * did not write. Which rows were at stake is known exactly: those at or after the committed
 * position of their file at the kill ({@code committed.json} on disk is what was committed: it is
 * replaced atomically). Every row carries the number of the run that wrote it (a {@code constant}
 * transform fed from the environment), so the test can tell, per kill, which rows the killed run
 * wrote past its committed positions (those the replay had to find) and check that no later run
 * wrote a row before them.
 *
 * <p>The kill points come from a seeded random (printed; set {@code -Dsluice.it.seed=N} to repeat
 * one): the first kill at a random time after the start (it may land before the pipeline has
 * written or even connected), the third while the restarted run is still re-sending the batches of
 * the previous run's ledger, the others when the table holds a random number of rows (spread over
 * 5–90 % of the input, so also across the end of a file), so they land mid-stream whatever the
 * machine's speed.
 */
class KillRestartIT {
    private static final String TABLE = "sluice_test.resilience_kill";
    private static final int FILES = 4;
    private static final long ROWS_PER_FILE = 750_000;
    private static final long ROWS = FILES * ROWS_PER_FILE;

    /** Every line has this many bytes, so the position of a line is its index × LINE. */
    private static final int LINE = 48;

    private static final int KILLS = 5;
    private static final int THREADS = 2;
    private static final int INFLIGHT_PER_SHARD = 2;
    private static final int MAX_ROWS = 20_000;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    /** What was found at one kill. */
    private record Kill(
            int run,
            double atSeconds,
            long tableRows,
            Map<String, Long> committed,
            List<Checkpoints.LedgerEntry> ledger) {}

    @Test
    void killedRunsRestartAndLoseNothing() {
        assertTimeoutPreemptively(Duration.ofMinutes(4), this::killAndRestart);
    }

    private void killAndRestart() throws Exception {
        String url = QuickstartIT.url();
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        log("seed %d (repeat with -Dsluice.it.seed=%d)", seed, seed);
        Random random = new Random(seed);
        // Where the progress-driven kills aim, in rows in the table (duplicates included), spread
        // over most of the input: across file ends and the switch to the next files too.
        long[] targets = new long[KILLS];
        for (int i = 0; i < KILLS; i++) {
            targets[i] = (long) ((0.05 + 0.85 * random.nextDouble()) * ROWS);
        }
        Arrays.sort(targets);

        List<Path> files = writeInput();
        Path config = dir.resolve("pipeline.yaml");
        Files.writeString(config, pipeline(url));
        Path checkpoints = dir.resolve("checkpoints");
        try (NativeConnection c = NativeConnection.open(url)) {
            c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
            c.execute("DROP TABLE IF EXISTS " + TABLE);
            c.execute(
                    "CREATE TABLE "
                            + TABLE
                            + " (id UInt64, v String, run UInt32) ENGINE = MergeTree ORDER BY id");

            List<Kill> kills = new ArrayList<>();
            int run = 0;
            Integer exit = null;
            SluiceProcess last = null;
            while (exit == null) {
                run++;
                long before = rows(c);
                SluiceProcess p =
                        SluiceProcess.start(
                                dir,
                                Map.of("SLUICE_RUN", Integer.toString(run)),
                                "run",
                                config.toString());
                processes.add(p);
                last = p;
                if (kills.size() == KILLS) {
                    exit = p.waitFor(Duration.ofMinutes(2));
                    assertThat(exit).as("the last run finishes\n%s", p.output()).isNotNull();
                    log("run %d finished in %.2f s with exit code %d", run, p.elapsed(), exit);
                    break;
                }
                boolean killed;
                long replay = kills.isEmpty() ? 0 : ledgerRowsPast(kills.get(kills.size() - 1));
                // The replay adds only the rows the killed run had not written (the rest are
                // looked up and not sent again), so the table may never grow by all of it: the
                // trigger stays within what the input can still add, a batch before its end.
                replay = Math.min(replay, ROWS - before - MAX_ROWS);
                if (kills.isEmpty()) {
                    // At a random time: from JVM start-up to well into the first batches.
                    long millis = 200 + random.nextInt(1500);
                    log("run %d: to be killed %d ms after its start", run, millis);
                    killed = killAfter(p, Duration.ofMillis(millis));
                } else if (kills.size() == 2 && replay > MAX_ROWS) {
                    // Within the replay of the previous run's ledger: a crash while re-sending
                    // batches at their recorded boundaries.
                    long grow = MAX_ROWS + (long) (random.nextDouble() * (replay - MAX_ROWS));
                    log(
                            "run %d: to be killed during its replay of %,d rows, after %,d",
                            run, replay, grow);
                    killed = killWhenRows(c, p, before + grow, random.nextInt(50));
                } else {
                    // Once the table holds a random number of rows: mid-stream on any machine,
                    // and at least a batch further than the last kill.
                    long target = Math.max(targets[kills.size()], before + MAX_ROWS);
                    log("run %d: to be killed once the table holds %,d rows", run, target);
                    killed = killWhenRows(c, p, target, random.nextInt(150));
                }
                if (!killed) {
                    exit = p.waitFor(Duration.ZERO);
                    log("run %d ended by itself after %.2f s (exit %d)", run, p.elapsed(), exit);
                    break;
                }
                Kill k =
                        new Kill(
                                run,
                                p.elapsed(),
                                rows(c),
                                Checkpoints.committed(checkpoints),
                                Checkpoints.ledger(checkpoints));
                kills.add(k);
                log(
                        "run %d: kill -9 at %.2f s; table rows %,d; committed %s",
                        run, k.atSeconds(), k.tableRows(), describe(k.committed(), files));
            }
            assertThat(exit).as("exit code of the last run\n%s", last.output()).isZero();
            assertThat(last.stdout()).contains("rows written");
            assertThat(kills).as("kills before the input ran out").hasSizeGreaterThanOrEqualTo(3);
            check(c, files, kills);
            c.execute("DROP TABLE " + TABLE); // kept only when the test fails, to look into
        }
    }

    /** Kills {@code p} after {@code delay}; false when it ended by itself before. */
    private static boolean killAfter(SluiceProcess p, Duration delay) throws Exception {
        if (p.waitFor(delay) != null) {
            return false;
        }
        p.killHard();
        return true;
    }

    /**
     * Kills {@code p} once the table holds {@code target} rows, {@code extraMillis} later; false
     * when it ended by itself before.
     */
    private static boolean killWhenRows(
            NativeConnection c, SluiceProcess p, long target, int extraMillis) throws Exception {
        while (rows(c) < target) {
            if (p.waitFor(Duration.ofMillis(20)) != null) {
                return false;
            }
        }
        return killAfter(p, Duration.ofMillis(extraMillis));
    }

    private void check(NativeConnection c, List<Path> files, List<Kill> kills) {
        List<Object> totals =
                c.queryRows(
                                "SELECT count(), uniqExact(id), min(id), max(id),"
                                        + " countIf(length(v) + length(toString(id)) != "
                                        + (LINE - 2)
                                        + ") FROM "
                                        + TABLE)
                        .get(0);
        long count = (Long) totals.get(0);
        long unique = (Long) totals.get(1);
        long duplicates = count - unique;
        log(
                "table: %,d rows, %,d distinct ids (input %,d), %,d duplicates after %d kills",
                count, unique, ROWS, duplicates, kills.size());
        assertThat(unique).as("every input row is in the table").isEqualTo(ROWS);
        assertThat(totals.subList(2, 5)).containsExactly(0L, ROWS - 1, 0L);

        long explained = 0;
        long inflightRows = (long) (INFLIGHT_PER_SHARD + THREADS) * MAX_ROWS;
        for (Kill k : kills) {
            // Rows before the committed positions were acknowledged: no later run may write them.
            long rewritten =
                    (Long)
                            c.queryRows(
                                            "SELECT count() FROM "
                                                    + TABLE
                                                    + " WHERE run > "
                                                    + k.run()
                                                    + " AND ("
                                                    + committedIds(k.committed(), files)
                                                    + ")")
                                    .get(0)
                                    .get(0);
            // What the killed run wrote past them: each of those rows is written again later.
            long uncommitted =
                    (Long)
                            c.queryRows(
                                            "SELECT count() FROM "
                                                    + TABLE
                                                    + " WHERE run = "
                                                    + k.run()
                                                    + " AND NOT ("
                                                    + committedIds(k.committed(), files)
                                                    + ")")
                                    .get(0)
                                    .get(0);
            long ledgerRows = ledgerRowsPast(k);
            log(
                    "kill of run %d: %,d rows written but not committed (looked up by the"
                            + " replay); the ledger held %,d rows past the committed positions;"
                            + " (inflight_per_shard × shards + threads) × max_rows = %,d;"
                            + " committed rows written again: %,d",
                    k.run(), uncommitted, ledgerRows, inflightRows, rewritten);
            assertThat(rewritten)
                    .as("rows committed at the kill of run %d and written again later", k.run())
                    .isZero();
            // Every batch that may reach the server is in the ledger before its first send, so
            // nothing past the committed positions is on the server unless the ledger names it.
            // (The simpler (inflight_per_shard × shards + threads) × max_rows is not a bound:
            // batches acknowledged since the last commit — up to a checkpoint.interval's worth —
            // are replayed too; it is printed for comparison.)
            assertThat(uncommitted)
                    .as("rows the killed run %d wrote past its committed positions", k.run())
                    .isLessThanOrEqualTo(ledgerRows);
            explained += uncommitted;
        }
        log(
                "%,d rows written past committed positions were found in the server's query log by"
                        + " the replays, not written again",
                explained);
        assertThat(duplicates)
                .as("rows written twice: the replays found every written batch in the query log")
                .isZero();
    }

    /** Rows in the ledger's batches that end at or after their file's committed position. */
    private static long ledgerRowsPast(Kill k) {
        long rows = 0;
        for (Checkpoints.LedgerEntry e : k.ledger()) {
            if (e.last() >= k.committed().getOrDefault(e.partition(), 0L)) {
                rows += (e.last() - e.first()) / LINE + 1;
            }
        }
        return rows;
    }

    /** A SQL condition: the id is before its file's committed position. */
    private static String committedIds(Map<String, Long> committed, List<Path> files) {
        List<String> ranges = new ArrayList<>();
        for (int f = 0; f < files.size(); f++) {
            long position = committed.getOrDefault(files.get(f).toString(), 0L);
            assertThat(position % LINE).as("committed positions are line starts").isZero();
            long base = f * ROWS_PER_FILE;
            ranges.add("(id >= " + base + " AND id < " + (base + position / LINE) + ")");
        }
        return String.join(" OR ", ranges);
    }

    private static String describe(Map<String, Long> committed, List<Path> files) {
        return files.stream()
                .map(f -> f.getFileName() + "=" + committed.getOrDefault(f.toString(), 0L) / LINE)
                .collect(Collectors.joining(", ", "lines {", "}"));
    }

    private static long rows(NativeConnection c) {
        return (Long) c.queryRows("SELECT count() FROM " + TABLE).get(0).get(0);
    }

    /** FILES TSV files of fixed-width lines {@code id \t v}, ids 0..ROWS-1 in order. */
    private List<Path> writeInput() throws IOException {
        List<Path> files = new ArrayList<>();
        StringBuilder line = new StringBuilder(LINE);
        for (int f = 0; f < FILES; f++) {
            Path file = dir.resolve("input").resolve("part-" + f + ".tsv");
            Files.createDirectories(file.getParent());
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
                for (long i = f * ROWS_PER_FILE; i < (f + 1) * ROWS_PER_FILE; i++) {
                    line.setLength(0);
                    line.append(i).append('\t');
                    // Varied text (not a run of one letter), so batches compress like data.
                    String hex = Long.toHexString(i * 0x9E3779B97F4A7C15L);
                    while (line.length() < LINE - 1) {
                        line.append(hex, 0, Math.min(hex.length(), LINE - 1 - line.length()));
                    }
                    w.append(line).append('\n');
                }
            }
            files.add(file);
        }
        return files;
    }

    private String pipeline(String url) {
        return """
                pipeline:
                  name: kill-restart
                  threads: %d
                source:
                  file:
                    paths: %s/*.tsv
                decode:
                  tsv:
                    columns: [id, v]
                transforms:
                  - constant:
                      column: run
                      value: ${SLUICE_RUN}
                sink:
                  clickhouse:
                    url: %s
                    table: %s
                    batch:
                      max_rows: %d
                      linger: 200ms
                    inflight_per_shard: %d
                    retry:
                      max: 2s
                errors:
                  policy: fail
                checkpoint:
                  dir: %s
                  interval: 200ms
                admin:
                  listen: off
                """
                .formatted(
                        THREADS,
                        dir.resolve("input"),
                        url,
                        TABLE,
                        MAX_ROWS,
                        INFLIGHT_PER_SHARD,
                        dir.resolve("checkpoints"));
    }

    private static void log(String format, Object... args) {
        System.out.println("[KillRestartIT] " + String.format(Locale.ROOT, format, args));
    }
}
