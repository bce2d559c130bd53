package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.PrivateServer;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice load} when an INSERT's acknowledgement is lost after its data was sent — the server
 * frozen (SIGSTOP) longer than the read timeout, the connection cut after the INSERT's last byte,
 * the server killed (SIGKILL) right after it wrote the block — with the server's query log on and
 * off and under each {@code on_unknown_outcome}. In every case the table's row count is what the
 * summary says (a range where the summary gives one), every input row is there ({@code
 * uniqExact(id)}), or the run fails naming the batch, and {@code --resume} finishes the load.
 *
 * <p>Each case runs against a ClickHouse of the class's own ({@link PrivateServer}; one with a
 * query log, one started without), through an {@link InsertTrap} that springs at the third INSERT.
 * Small on purpose: 100k rows in 10 batches, a 2 s read timeout, freezes of a few seconds.
 */
class UnknownOutcomeIT {
    private static final int ROWS = 100_000;
    private static final int BATCH = 10_000;
    private static final int TRAP_AT = 3;
    private static final String READ_TIMEOUT = "?read_timeout=2s";

    private static PrivateServer logged;
    private static PrivateServer unlogged;
    private static int tables;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @BeforeAll
    static void startServers() throws Exception {
        logged = PrivateServer.start("sluice-outcome-");
        unlogged = PrivateServer.startWithoutQueryLog("sluice-outcome-nolog-");
    }

    @AfterAll
    static void removeServers() throws Exception {
        if (logged != null) {
            logged.close();
        }
        if (unlogged != null) {
            unlogged.close();
        }
    }

    @AfterEach
    void noProcessLeftBehind() throws Exception {
        for (SluiceProcess p : processes) {
            p.close();
        }
        for (PrivateServer s : new PrivateServer[] {logged, unlogged}) {
            if (s != null && s.suspended()) {
                s.resume();
            }
        }
    }

    // ---- the server frozen after the INSERT's data was sent ----

    @Test
    void aFrozenServerIsAskedOnceItThawsAndTheInsertIsNotSentAgain() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    for (String policy : List.of("fail", "resend")) {
                        String table = table(logged);
                        Run r = loadThroughFreeze(logged, table, "60s", policy, 5_000, true);
                        log("freeze, query log on, %s: exit %d%n%s", policy, r.exit, r.stdout);
                        assertThat(r.exit).as(r.output()).isZero();
                        assertThat(r.stdout)
                                .as(r.output())
                                .containsPattern("[1-9] written \\(found in the server's log")
                                .contains(", 0 unknown")
                                .doesNotContain("the table got");
                        assertThat(r.written()).isEqualTo(ROWS);
                        assertThat(count(logged, table)).isEqualTo(ROWS);
                        assertThat(distinct(logged, table)).isEqualTo(ROWS);
                    }
                });
    }

    @Test
    void aFreezeLongerThanTheLookUpStopsTheLoadNamingTheBatchAndResumeFinishesIt() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    String table = table(logged);
                    // The look-up gives up after 2 s; the server thaws only after sluice stopped.
                    Run r = loadThroughFreeze(logged, table, "2s", null, -1, true);
                    log("long freeze, query log on, fail: exit %d%n%s", r.exit, r.output());
                    assertThat(r.exit).as(r.output()).isEqualTo(1);
                    assertNamesTheBatch(r);
                    assertThat(r.stderr)
                            .contains("the server did not answer")
                            .contains("Resuming looks it up on the server again");
                    Range range = r.range();
                    assertThat(range.least()).isEqualTo(r.written());
                    assertThat(range.most()).isGreaterThan(range.least());
                    long rows = count(logged, table);
                    log("after the thaw the table holds %,d rows (summary: %s)", rows, range);
                    assertThat(rows).isBetween(range.least(), range.most());
                    assertThat(distinct(logged, table)).isEqualTo(rows);

                    Run resumed = load(logged.url(), table, "--resume");
                    log("resumed: exit %d%n%s", resumed.exit, resumed.stdout);
                    assertThat(resumed.exit).as(resumed.output()).isZero();
                    // The server's log now knows: the frozen INSERT was written; not sent again.
                    assertThat(resumed.stdout)
                            .containsPattern("[1-9] written \\(found in the server's log")
                            .doesNotContain("the table got");
                    assertThat(count(logged, table)).isEqualTo(ROWS);
                    assertThat(distinct(logged, table)).isEqualTo(ROWS);
                });
    }

    @Test
    void withoutAQueryLogFailStopsAtOnceAndResumeAsksTheUserToChoose() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    String table = table(unlogged);
                    Run r = loadThroughFreeze(unlogged, table, "60s", null, -1, true);
                    log("freeze, no query log, fail: exit %d%n%s", r.exit, r.output());
                    assertThat(r.exit).as(r.output()).isEqualTo(1);
                    assertNamesTheBatch(r);
                    assertThat(r.stderr)
                            .contains("the server keeps no log of sluice's queries")
                            .contains("Check whether these rows are in " + table)
                            .contains("--on-unknown-outcome resend");
                    Range range = r.range();
                    long rows = count(unlogged, table);
                    assertThat(rows).isBetween(range.least(), range.most());
                    assertThat(distinct(unlogged, table)).isEqualTo(rows);

                    // A plain resume cannot know more: it stops again at the same INSERT. (The
                    // batches it sent meanwhile are counted: replays maybe twice, as nothing can
                    // tell whether the first run wrote them.)
                    Run again = load(unlogged.url(), table, "--resume");
                    log("resumed: exit %d%n%s", again.exit, again.output());
                    assertThat(again.exit).as(again.output()).isEqualTo(1);
                    assertThat(again.stderr)
                            .contains("in an earlier run, as query_ids starting '")
                            .contains("that run left its outcome unknown");
                    Range second = again.range();
                    long before = rows;
                    rows = count(unlogged, table);
                    assertThat(rows - before)
                            .as("rows the stopped resume added")
                            .isBetween(second.least(), second.most());

                    // The user accepts possible duplicates: the summary says how many.
                    Run resent =
                            load(
                                    unlogged.url(),
                                    table,
                                    "--resume",
                                    "--on-unknown-outcome",
                                    "resend");
                    log("resumed with resend: exit %d%n%s", resent.exit, resent.stdout);
                    assertThat(resent.exit).as(resent.output()).isZero();
                    Range last = resent.range();
                    assertThat(resent.stdout).contains("maybe twice");
                    long total = count(unlogged, table);
                    assertThat(distinct(unlogged, table)).isEqualTo(ROWS);
                    assertThat(total - rows)
                            .as("rows the last resume added")
                            .isBetween(last.least(), last.most());
                });
    }

    @Test
    void withoutAQueryLogResendWritesTheInsertAgainAndSaysSo() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    String table = table(unlogged);
                    Run r = loadThroughFreeze(unlogged, table, "60s", "resend", 5_000, true);
                    log("freeze, no query log, resend: exit %d%n%s", r.exit, r.stdout);
                    assertThat(r.exit).as(r.output()).isZero();
                    Range range = r.range();
                    assertThat(r.stdout)
                            .contains(
                                    "sent again after their outcome stayed unknown, so maybe twice")
                            .containsPattern(
                                    "events\\.tsv positions [0-9]+\\.\\.[0-9]+ \\(10,000 rows\\):"
                                            + " may be in the table twice");
                    assertThat(range.least()).isEqualTo(ROWS);
                    long rows = count(unlogged, table);
                    log("the table holds %,d rows (summary: %s)", rows, range);
                    assertThat(rows).isBetween(range.least(), range.most());
                    // The frozen server applied the first copy when it thawed: it is there twice.
                    assertThat(rows).isGreaterThan(ROWS);
                    assertThat(distinct(unlogged, table)).isEqualTo(ROWS);
                });
    }

    // ---- the connection cut after the INSERT's last byte ----

    @Test
    void aConnectionCutAfterTheLastByteIsLookedUpAndNotSentAgain() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    String table = table(logged);
                    try (InsertTrap trap =
                            new InsertTrap(
                                    logged.tcpPort(),
                                    TRAP_AT,
                                    InsertTrap.Moment.ACK,
                                    () -> {},
                                    true)) {
                        Run r = load(trap.url() + READ_TIMEOUT, table);
                        log("cut after the last byte: exit %d%n%s", r.exit, r.stdout);
                        assertThat(trap.sprung()).isTrue();
                        assertThat(r.exit).as(r.output()).isZero();
                        assertThat(r.stdout)
                                .containsPattern(
                                        "outcome checked for 1 INSERT \\(interrupted, or replayed after a"
                                                + " restart\\): 1 written")
                                .doesNotContain("the table got");
                    }
                    assertThat(count(logged, table)).isEqualTo(ROWS);
                    assertThat(distinct(logged, table)).isEqualTo(ROWS);
                });
    }

    @Test
    void withoutAQueryLogACutInsertIsUnknownAndFailNamesIt() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    String table = table(unlogged);
                    try (InsertTrap trap =
                            new InsertTrap(
                                    unlogged.tcpPort(),
                                    TRAP_AT,
                                    InsertTrap.Moment.ACK,
                                    () -> {},
                                    true)) {
                        Run r = load(trap.url() + READ_TIMEOUT, table);
                        assertThat(r.exit).as(r.output()).isEqualTo(1);
                        assertNamesTheBatch(r);
                        Range range = r.range();
                        // The server wrote it before the cut: the unresolved rows are there.
                        assertThat(count(unlogged, table)).isEqualTo(range.most());
                    }
                });
    }

    // ---- the server killed right after it wrote the block ----

    @Test
    void aServerKilledAfterWritingIsAskedAfterItsRestartAndTheCountsAddUp() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = table(logged);
                    Run r;
                    try (InsertTrap trap =
                            new InsertTrap(
                                    logged.tcpPort(),
                                    TRAP_AT,
                                    InsertTrap.Moment.ACK,
                                    UnknownOutcomeIT::killLogged,
                                    true)) {
                        SluiceProcess p =
                                start(trap.url() + READ_TIMEOUT, table, "--outcome-timeout", "60s");
                        while (!trap.sprung()) {
                            assertThat(p.waitFor(Duration.ofMillis(20)))
                                    .as("sluice ended before the trap sprang")
                                    .isNull();
                        }
                        Thread.sleep(3_000); // down a while: the look-ups are refused
                        logged.start();
                        r = finish(p);
                    }
                    log("killed after writing: exit %d%n%s", r.exit, r.output());
                    long rows = count(logged, table);
                    assertThat(distinct(logged, table)).isEqualTo(rows);
                    if (r.exit == 0) {
                        // The kill came after the log was flushed: the look-up found the INSERT.
                        assertThat(r.stdout)
                                .containsPattern("[1-9] written \\(found in the server's log");
                        assertThat(rows).isEqualTo(ROWS);
                    } else {
                        // The log died with the server: fail names the batch.
                        assertNamesTheBatch(r);
                        assertThat(r.stderr).contains("the server's query log has no entry for it");
                        Range range = r.range();
                        assertThat(rows).isBetween(range.least(), range.most());
                        Run resent =
                                load(
                                        logged.url(),
                                        table,
                                        "--resume",
                                        "--on-unknown-outcome",
                                        "resend");
                        log("resumed with resend: exit %d%n%s", resent.exit, resent.stdout);
                        assertThat(resent.exit).as(resent.output()).isZero();
                        Range last = resent.range();
                        long total = count(logged, table);
                        assertThat(total - rows).isBetween(last.least(), last.most());
                        assertThat(distinct(logged, table)).isEqualTo(ROWS);
                    }
                });
    }

    // ---- helpers ----

    private static void killLogged() {
        try {
            logged.kill9();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Loads through a trap that freezes {@code server} at the third INSERT's header, so its block
     * goes into a server that answers nothing; thaws it after {@code thawAfterMillis} (-1: after
     * sluice exits).
     */
    private Run loadThroughFreeze(
            PrivateServer server,
            String table,
            String outcomeTimeout,
            String policy,
            long thawAfterMillis,
            boolean expectSprung)
            throws Exception {
        try (InsertTrap trap =
                new InsertTrap(
                        server.tcpPort(),
                        TRAP_AT,
                        InsertTrap.Moment.HEADER,
                        () -> suspend(server),
                        false)) {
            List<String> args = new ArrayList<>(List.of("--outcome-timeout", outcomeTimeout));
            if (policy != null) {
                args.addAll(List.of("--on-unknown-outcome", policy));
            }
            SluiceProcess p = start(trap.url() + READ_TIMEOUT, table, args.toArray(String[]::new));
            while (!trap.sprung()) {
                assertThat(p.waitFor(Duration.ofMillis(20)))
                        .as("sluice ended before the trap sprang")
                        .isNull();
            }
            long frozenAt = System.nanoTime();
            Run r;
            if (thawAfterMillis >= 0) {
                while ((System.nanoTime() - frozenAt) / 1_000_000 < thawAfterMillis) {
                    Thread.sleep(50);
                }
                server.resume();
                r = finish(p);
            } else {
                r = finish(p);
                server.resume();
            }
            assertThat(trap.sprung()).isEqualTo(expectSprung);
            settle(server);
            return r;
        }
    }

    /**
     * Waits until the thawed server has finished the INSERTs it held: they complete after the run
     * gave up on them, and a count taken while one still runs disagrees with the next query.
     */
    private static void settle(PrivateServer server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (single(server, "SELECT count() FROM system.processes WHERE query LIKE 'INSERT%'")
                > 0) {
            assertThat(System.nanoTime())
                    .as("the thawed server's INSERTs end")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static void suspend(PrivateServer server) {
        try {
            server.suspend();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Path input() throws Exception {
        Path file = dir.resolve("events.tsv");
        if (!Files.exists(file)) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                w.write("id\tpayload\n");
                for (int i = 0; i < ROWS; i++) {
                    w.write(i + "\tpayload number " + i + " of the outcome test\n");
                }
            }
        }
        return file;
    }

    private SluiceProcess start(String url, String table, String... extra) throws Exception {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "load",
                                input().toString(),
                                "--into",
                                table,
                                "--url",
                                url,
                                "--batch-rows",
                                Integer.toString(BATCH),
                                "--threads",
                                "1"));
        args.addAll(List.of(extra));
        SluiceProcess p = SluiceProcess.start(dir, Map.of(), args.toArray(String[]::new));
        processes.add(p);
        return p;
    }

    private Run load(String url, String table, String... extra) throws Exception {
        return finish(start(url, table, extra));
    }

    private static Run finish(SluiceProcess p) throws Exception {
        Integer exit = p.waitFor(Duration.ofMinutes(2));
        assertThat(exit).as("sluice did not finish\n" + p.output()).isNotNull();
        return new Run(exit, p.stdout(), p.stderr());
    }

    private static void assertNamesTheBatch(Run r) {
        assertThat(r.stderr)
                .as(r.output())
                .contains("the outcome of an INSERT is unknown: ")
                .containsPattern("events\\.tsv positions [0-9]+\\.\\.[0-9]+ \\(10,000 rows\\)")
                .containsPattern("query_id '[^']+#[0-9a-z]+\\.[0-9]+'")
                .contains("resume from there");
        assertThat(r.stdout)
                .contains("of INSERTs whose outcome is unknown, maybe written, maybe not");
    }

    private static String table(PrivateServer server) {
        String name = "outcome_" + (++tables);
        try (NativeConnection c = NativeConnection.open(server.url())) {
            c.execute("DROP TABLE IF EXISTS " + name);
            c.execute(
                    "CREATE TABLE "
                            + name
                            + " (id UInt64, payload String) ENGINE = MergeTree ORDER BY id");
        }
        return name;
    }

    private static long count(PrivateServer server, String table) {
        return single(server, "SELECT count() FROM " + table);
    }

    private static long distinct(PrivateServer server, String table) {
        return single(server, "SELECT uniqExact(id) FROM " + table);
    }

    private static long single(PrivateServer server, String sql) {
        try (NativeConnection c = NativeConnection.open(server.url())) {
            return ((Number) c.queryRows(sql).get(0).get(0)).longValue();
        }
    }

    /** The rows the summary says the table got from the run: least and most. */
    record Range(long least, long most) {}

    private record Run(int exit, String stdout, String stderr) {
        private static final Pattern WRITTEN =
                Pattern.compile("^([0-9,]+) rows written in", Pattern.MULTILINE);
        private static final Pattern BETWEEN =
                Pattern.compile("the table got between ([0-9,]+) and ([0-9,]+) rows from this run");
        private static final Pattern EXACT =
                Pattern.compile("the table got ([0-9,]+) rows from this run");

        long written() {
            Matcher m = WRITTEN.matcher(stdout);
            assertThat(m.find()).as(output()).isTrue();
            return number(m.group(1));
        }

        /** The summary's range; just the rows written when it gives none. */
        Range range() {
            Matcher m = BETWEEN.matcher(stdout);
            if (m.find()) {
                return new Range(number(m.group(1)), number(m.group(2)));
            }
            m = EXACT.matcher(stdout);
            long n = m.find() ? number(m.group(1)) : written();
            return new Range(n, n);
        }

        String output() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }

        private static long number(String s) {
            return Long.parseLong(s.replace(",", ""));
        }
    }

    private static void log(String format, Object... args) {
        System.out.println("[UnknownOutcomeIT] " + String.format(Locale.ROOT, format, args));
    }
}
