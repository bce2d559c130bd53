package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.client.NativeConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ALTER TABLE ... ADD, DROP, MODIFY COLUMN} on the real server (18.16 in CI) while {@code
 * sluice run} loads into the table without pause: the run notices the change (the server refusing
 * an INSERT made for the old columns, or its periodic look at the table's columns), re-encodes the
 * rows in flight and goes on with the new columns; a SIGTERM then drains it (exit 0).
 *
 * <p>The source is the endless, rate-limited generator on two threads (thread {@code i} makes the
 * rows whose number modulo 2 is {@code i}, and its committed position is the next row it would
 * make): after the drain the table must hold exactly the rows below the committed positions, each
 * once, and every value is compared with the generator's own (decoded again here). An added column
 * is the DEFAULT up to a point of each thread and the input's value from there on; a modified one
 * holds every row's value converted. The last test follows a file and changes a column's type under
 * an open batch holding values the new type cannot take: those rows are dead-lettered with the
 * reason, the rest written, and records read after the change are decoded for the new type.
 */
class AlterWhileRunningIT {
    private static final int THREADS = 2;

    @TempDir Path dir;
    private final List<SluiceProcess> processes = new ArrayList<>();

    @AfterEach
    void noProcessLeftBehind() throws InterruptedException {
        for (SluiceProcess p : processes) {
            p.close();
        }
    }

    private static String generatorConfig(String name, String table, String sinkExtra, Path cp) {
        return """
                pipeline:
                  name: %s
                  threads: %d
                source:
                  generator:
                    rows: 0
                    rows_per_second: 20000
                sink:
                  clickhouse:
                    url: %s
                    table: %s
                    batch:
                      max_rows: 10000
                      linger: 500ms
                %s
                errors:
                  policy: fail
                checkpoint:
                  dir: %s
                  interval: 500ms
                admin:
                  listen: off
                """
                .formatted(name, THREADS, QuickstartIT.url(), table, sinkExtra, cp);
    }

    @Test
    void anAddedColumnIsNoticedByTheLookAtTheColumnsAndFilledFromTheInputFromThenOn() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = "sluice_test.alter_run_add";
                    Run run =
                            start(
                                    table,
                                    "(ts DateTime, tenant UInt32, kind String, id UInt64)",
                                    "    schema_check_interval: 1s");
                    run.awaitRows(5_000);
                    run.alter("ADD COLUMN payload String DEFAULT 'none'");
                    run.awaitRows("payload != 'none'", 20_000);
                    run.drain();
                    assertThat(run.stderr())
                            .contains("changed while data flowed (added payload String")
                            .contains("the look at its columns every 1 s");
                    int[] cut = {-1, -1};
                    for (List<Object> row :
                            run.rows("SELECT ts, tenant, kind, id, payload FROM " + table)) {
                        long id = (Long) row.get(3);
                        List<Object> expected = run.events.event(id);
                        assertThat(row.subList(0, 4))
                                .as("row %d", id)
                                .isEqualTo(expected.subList(0, 4));
                        int thread = (int) (id % THREADS);
                        if (row.get(4).equals("none")) {
                            assertThat(cut[thread])
                                    .as("row %d: the DEFAULT after the input's values began", id)
                                    .isEqualTo(-1);
                        } else {
                            assertThat(row.get(4)).as("row %d", id).isEqualTo(expected.get(4));
                            if (cut[thread] < 0) {
                                cut[thread] = (int) id;
                            }
                        }
                    }
                    assertThat(cut)
                            .as("each thread's first row with the input's payload")
                            .doesNotContain(-1);
                    log(
                            "added payload: the input's values from rows %s on",
                            List.of(cut[0], cut[1]));
                });
    }

    @Test
    void aDroppedColumnIsNoticedByTheServersRefusalAndNoLongerSent() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = "sluice_test.alter_run_drop";
                    Run run =
                            start(
                                    table,
                                    "(ts DateTime, tenant UInt32, kind String, id UInt64,"
                                            + " payload String)",
                                    "    schema_check_interval: 0"); // only a refusal notices
                    run.awaitRows(5_000);
                    long before = run.count();
                    run.alter("DROP COLUMN kind");
                    run.awaitRows(before + 20_000);
                    run.drain();
                    assertThat(run.stderr())
                            .contains("changed while data flowed (dropped kind")
                            .contains("the server refusing an INSERT");
                    for (List<Object> row :
                            run.rows("SELECT ts, tenant, id, payload FROM " + table)) {
                        long id = (Long) row.get(2);
                        List<Object> e = run.events.event(id);
                        assertThat(row)
                                .as("row %d", id)
                                .isEqualTo(List.of(e.get(0), e.get(1), e.get(3), e.get(4)));
                    }
                });
    }

    @Test
    void aModifiedColumnHoldsEveryRowsValueConverted() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = "sluice_test.alter_run_modify";
                    Run run =
                            start(
                                    table,
                                    "(ts DateTime, tenant UInt32, kind String, id UInt64,"
                                            + " payload String)",
                                    ""); // the default look every 30 s, or a refusal first
                    run.awaitRows(5_000);
                    long before = run.count();
                    run.alter("MODIFY COLUMN tenant String");
                    run.awaitRows(before + 20_000);
                    run.drain();
                    assertThat(run.stderr()).contains("tenant UInt32 → String");
                    for (List<Object> row :
                            run.rows("SELECT ts, tenant, kind, id, payload FROM " + table)) {
                        long id = (Long) row.get(3);
                        List<Object> e = new ArrayList<>(run.events.event(id));
                        e.set(1, e.get(1).toString()); // the tenant number, as text
                        assertThat(row).as("row %d", id).isEqualTo(e);
                    }
                });
    }

    @Test
    void valuesAModifiedColumnCannotTakeAreDeadLetteredWithTheReasonAndTheRestWritten() {
        assertTimeoutPreemptively(
                Duration.ofMinutes(3),
                () -> {
                    String table = "sluice_test.alter_run_refused";
                    Path data = dir.resolve("events.ndjson");
                    Path dead = dir.resolve("dead.ndjson");
                    int port = AdminScrape.freePort();
                    try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                        c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
                        c.execute("DROP TABLE IF EXISTS " + table);
                        c.execute(
                                "CREATE TABLE "
                                        + table
                                        + " (id UInt64, v String) ENGINE = MergeTree ORDER BY id");
                    }
                    append(data, 0, 100);
                    Path config = dir.resolve("pipeline.yaml");
                    // A long linger holds the first 100 rows in an open batch while the column
                    // changes under it.
                    Files.writeString(
                            config,
                            """
                            pipeline: {name: alter-refused, threads: 1}
                            source:
                              file: {paths: [%s], follow: true, poll_interval: 100ms}
                            decode: json
                            sink:
                              clickhouse:
                                url: %s
                                table: %s
                                batch: {max_rows: 100000, linger: 8s}
                            errors: {policy: dead-letter, dead_letter: {path: %s}}
                            checkpoint: {dir: %s, interval: 500ms}
                            admin: {listen: "127.0.0.1:%d"}
                            """
                                    .formatted(
                                            data,
                                            QuickstartIT.url(),
                                            table,
                                            dead,
                                            dir.resolve("cp"),
                                            port));
                    SluiceProcess p = SluiceProcess.start(dir, Map.of(), "run", config.toString());
                    processes.add(p);
                    AdminScrape admin = new AdminScrape(port);
                    awaitMetric(p, admin, "etl_source_records_total", 100);
                    try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                        assertThat(count(c, table)).as("the batch is still open").isZero();
                        c.execute("ALTER TABLE " + table + " MODIFY COLUMN v UInt32");
                        awaitCount(p, c, table, 90);
                        append(data, 100, 150); // decoded for UInt32 from the start
                        awaitCount(p, c, table, 135);
                        p.signal("TERM");
                        Integer exit = p.waitFor(Duration.ofSeconds(90));
                        assertThat(exit).as(p.output()).isZero();
                        List<List<Object>> rows =
                                c.queryRows("SELECT id, v FROM " + table + " ORDER BY id");
                        List<List<Object>> expected = new ArrayList<>();
                        for (long id = 0; id < 150; id++) {
                            if (id % 10 != 3) {
                                expected.add(List.of(id, id * 3));
                            }
                        }
                        assertThat(rows).isEqualTo(expected);
                    }
                    Map<Long, String> reasons = new TreeMap<>();
                    // the row as sent ("row":{"id":3,...}) or the record ("{\"id\":103,...")
                    Pattern record = Pattern.compile("id\\\\?\":(\\d+)");
                    Pattern reason = Pattern.compile("\"reason\":\"((?:[^\"\\\\]|\\\\.)*)\"");
                    for (String line : Files.readAllLines(dead)) {
                        Matcher id = record.matcher(line);
                        Matcher why = reason.matcher(line);
                        assertThat(id.find() && why.find()).as(line).isTrue();
                        reasons.put(Long.parseLong(id.group(1)), why.group(1));
                    }
                    assertThat(reasons.keySet())
                            .containsExactly(
                                    3L, 13L, 23L, 33L, 43L, 53L, 63L, 73L, 83L, 93L, 103L, 113L,
                                    123L, 133L, 143L);
                    reasons.forEach(
                            (id, why) -> {
                                if (id < 100) {
                                    // in the open batch when the column changed: re-encoded
                                    assertThat(why)
                                            .as("row %d", id)
                                            .contains(
                                                    "column v changed from String to UInt32 while"
                                                            + " the row was in flight")
                                            .contains("'x" + id + "'");
                                } else {
                                    // read after the change: the decoder's own refusal
                                    assertThat(why)
                                            .as("row %d", id)
                                            .contains("x" + id)
                                            .contains("UInt32");
                                }
                            });
                    assertThat(p.stderr()).contains("v String → UInt32");
                });
    }

    /** Appends records {@code from .. to-1}: every 10th (3, 13, ...) with a v that is no number. */
    private static void append(Path file, int from, int to) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int id = from; id < to; id++) {
            String v = id % 10 == 3 ? "x" + id : Integer.toString(id * 3);
            sb.append("{\"id\":").append(id).append(",\"v\":\"").append(v).append("\"}\n");
        }
        Files.writeString(
                file,
                sb.toString(),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    private static void awaitMetric(SluiceProcess p, AdminScrape admin, String name, double want)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Map<String, Double> m = admin.scrape();
            if (m != null && m.getOrDefault(name, 0.0) >= want) {
                return;
            }
            assertThat(p.isAlive()).as("sluice run ended\n%s", p.output()).isTrue();
            assertThat(System.nanoTime() - deadline).as("%s reaches %s", name, want).isNegative();
            Thread.sleep(50);
        }
    }

    private static void awaitCount(SluiceProcess p, NativeConnection c, String table, long n)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (count(c, table) < n) {
            assertThat(p.isAlive()).as("sluice run ended\n%s", p.output()).isTrue();
            assertThat(System.nanoTime() - deadline)
                    .as("%s holds %d of %d rows\n%s", table, count(c, table), n, p.output())
                    .isNegative();
            Thread.sleep(100);
        }
    }

    private static long count(NativeConnection c, String table) {
        return (Long) c.queryRows("SELECT count() FROM " + table).get(0).get(0);
    }

    private Run start(String table, String columns, String sinkExtra) throws Exception {
        try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
            c.execute("CREATE DATABASE IF NOT EXISTS sluice_test");
            c.execute("DROP TABLE IF EXISTS " + table);
            c.execute("CREATE TABLE " + table + " " + columns + " ENGINE = MergeTree ORDER BY id");
        }
        Path cp = dir.resolve("checkpoints");
        String yaml =
                generatorConfig(
                        table.substring(table.indexOf('.') + 1).replace('_', '-'),
                        table,
                        sinkExtra,
                        cp);
        Path config = dir.resolve("pipeline.yaml");
        Files.writeString(config, yaml);
        SluiceProcess p = SluiceProcess.start(dir, Map.of(), "run", config.toString());
        processes.add(p);
        return new Run(p, table, cp, new GeneratedEvents(yaml));
    }

    /** One {@code sluice run} of the generator into {@code table}. */
    private record Run(
            SluiceProcess process, String table, Path checkpoints, GeneratedEvents events) {
        long count() {
            return where("1");
        }

        long where(String condition) {
            try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                return (Long)
                        c.queryRows("SELECT count() FROM " + table + " WHERE " + condition)
                                .get(0)
                                .get(0);
            }
        }

        void awaitRows(long n) throws Exception {
            awaitRows("1", n);
        }

        void awaitRows(String condition, long n) throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (where(condition) < n) {
                assertThat(process.waitFor(Duration.ofMillis(100)))
                        .as("an endless run ended\n%s", process.output())
                        .isNull();
                assertThat(System.nanoTime() - deadline)
                        .as(
                                "%s: %d rows where %s\n%s",
                                table, where(condition), condition, process.output())
                        .isNegative();
            }
        }

        void alter(String change) {
            try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                c.execute("ALTER TABLE " + table + " " + change);
            }
            log(
                    "%s: ALTER TABLE ... %s at %.1f s, %,d rows in the table",
                    table, change, process.elapsed(), count());
        }

        /**
         * SIGTERM: drains, commits and exits 0; then the table holds exactly the rows below the
         * committed positions, once each.
         */
        void drain() throws Exception {
            process.signal("TERM");
            Integer exit = process.waitFor(Duration.ofSeconds(90));
            assertThat(exit).as("sluice run exits after SIGTERM\n%s", process.output()).isZero();
            Map<String, Long> committed = Checkpoints.committed(checkpoints);
            try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                long expected = 0;
                for (int i = 0; i < THREADS; i++) {
                    Long position = committed.get("gen-" + i + "-of-" + THREADS);
                    assertThat(position).as("committed position of thread %d", i).isNotNull();
                    long owned = position <= i ? 0 : (position - i + THREADS - 1) / THREADS;
                    expected += owned;
                    List<Object> r =
                            c.queryRows(
                                            "SELECT count(), min(id), max(id) FROM "
                                                    + table
                                                    + " WHERE id % "
                                                    + THREADS
                                                    + " = "
                                                    + i)
                                    .get(0);
                    assertThat(r)
                            .as("thread %d: rows, first and last", i)
                            .containsExactly(owned, (long) i, i + (owned - 1) * THREADS);
                }
                List<Object> totals =
                        c.queryRows("SELECT count(), uniqExact(id) FROM " + table).get(0);
                assertThat(totals).as("rows, distinct ids").containsExactly(expected, expected);
                log("%s: drained; committed %s = %,d rows, each once", table, committed, expected);
            }
        }

        List<List<Object>> rows(String select) {
            try (NativeConnection c = NativeConnection.open(QuickstartIT.url())) {
                return c.queryRows(select + " ORDER BY id");
            }
        }

        String stderr() throws Exception {
            return process.stderr();
        }
    }

    private static void log(String format, Object... args) {
        System.out.println("[AlterWhileRunningIT] " + String.format(Locale.ROOT, format, args));
    }
}
