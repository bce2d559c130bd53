package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import dev.sluice.cli.EdgeValues.Col;
import dev.sluice.cli.SluiceCli.Result;
import dev.sluice.clickhouse.it.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice load} of a file of edge values for every column type ClickHouse 18.16 has, in each
 * format, against {@code clickhouse-client --query "INSERT INTO twin FORMAT X" < FILE}: the two
 * tables must hold the same rows, compared column by column as the server prints them. The same
 * rows also come compressed (.gz, .zst), through a glob, a directory and stdin. Inputs the two read
 * differently on purpose (docs/formats.md) stay out of the twin files and are pinned on their own
 * by {@link #whereClickHouseReadsDifferentlySluiceFollowsItsDocs}.
 */
class LoadFormatsIT {
    @TempDir static Path dir;

    private static String url;

    @BeforeAll
    static void server() {
        url = TestServer.url();
    }

    @Test
    void ndjson() throws Exception {
        List<Col> cols = EdgeValues.columns(false);
        byte[] file = EdgeValues.ndjson(EdgeValues.names(cols), EdgeValues.rows(true));
        twin("ndjson", cols, "edge.ndjson", file, "JSONEachRow", null);
    }

    @Test
    void csvWithHeader() throws Exception {
        List<Col> cols = EdgeValues.columns(true);
        byte[] file =
                EdgeValues.csv(
                        EdgeValues.names(cols), EdgeValues.project(EdgeValues.rows(false), cols));
        twin("csv_header", cols, "edge.csv", file, "CSVWithNames", null);
    }

    /** --columns in an order of its own: the twin gets the same list in its INSERT. */
    @Test
    void csvWithoutHeaderWithColumns() throws Exception {
        List<Col> cols = EdgeValues.columns(true);
        List<Col> order = new ArrayList<>(cols);
        Collections.reverse(order);
        byte[] file = EdgeValues.csv(null, EdgeValues.project(EdgeValues.rows(false), order));
        twin("csv_columns", cols, "edge.csv", file, "CSV", EdgeValues.names(order));
    }

    @Test
    void tsvWithHeader() throws Exception {
        List<Col> cols = EdgeValues.columns(false);
        byte[] file = EdgeValues.tsv(EdgeValues.names(cols), EdgeValues.rows(false));
        twin("tsv_header", cols, "edge.tsv", file, "TSVWithNames", null);
    }

    @Test
    void tsvWithoutHeader() throws Exception {
        List<Col> cols = EdgeValues.columns(false);
        byte[] file = EdgeValues.tsv(null, EdgeValues.rows(false));
        twin("tsv", cols, "edge.tsv", file, "TabSeparated", null, "--no-header");
    }

    /**
     * The TSV rows split over a plain, a gzip and a zstd file, loaded by a glob, by their
     * directory, each compressed file alone, and all of them through stdin: each table equals the
     * twin of the whole file (the single files its rows).
     */
    @Test
    void compressedFilesGlobsDirectoriesAndStdin() throws Exception {
        List<Col> cols = EdgeValues.columns(false);
        List<Object[]> rows = EdgeValues.rows(false);
        byte[] whole = EdgeValues.tsv(null, rows);
        String twin = TestServer.newTable("load_twin");
        create(twin, cols);
        TestServer.clickhouseClient("INSERT INTO " + twin + " FORMAT TabSeparated", whole);

        Path parts = Files.createDirectories(dir.resolve("parts"));
        write(parts.resolve("part-1.tsv"), EdgeValues.tsv(null, rows.subList(0, 2)));
        gzip(parts.resolve("part-2.tsv.gz"), EdgeValues.tsv(null, rows.subList(2, 4)));
        zstd(parts.resolve("part-3.tsv.zst"), EdgeValues.tsv(null, rows.subList(4, 6)));
        Path stdin = write(dir.resolve("stdin.tsv"), whole);

        String glob = TestServer.newTable("load_glob");
        // A glob or a directory names no extension: each file it matches tells its own format
        // (.tsv, .tsv.gz, .tsv.zst: all TSV).
        load(glob, cols, null, parts.resolve("part-*").toString(), "--no-header");
        assertSameRows(glob, twin, cols, rows.size());

        String directory = TestServer.newTable("load_dir");
        load(directory, cols, null, parts.toString(), "--no-header");
        assertSameRows(directory, twin, cols, rows.size());

        String named = TestServer.newTable("load_named");
        load(named, cols, null, parts.toString(), "--format", "tsv", "--no-header");
        assertSameRows(named, twin, cols, rows.size());

        // Formats that really differ are refused, naming a file of each.
        write(parts.resolve("part-4.csv"), EdgeValues.tsv(null, rows.subList(0, 1)));
        Result mixed =
                SluiceCli.run(
                        dir,
                        "load",
                        parts.toString(),
                        "--into",
                        TestServer.newTable("load_mixed"),
                        "--url",
                        url);
        assertThat(mixed.exitCode()).as(mixed.output()).isEqualTo(2);
        assertThat(mixed.stderr())
                .contains("the inputs mix formats: tsv ('")
                .contains("part-1.tsv') and csv ('")
                .contains("part-4.csv')");
        Files.delete(parts.resolve("part-4.csv"));

        String piped = TestServer.newTable("load_stdin");
        load(piped, cols, stdin, "-", "--format", "tsv", "--no-header");
        assertSameRows(piped, twin, cols, rows.size());

        String gz = TestServer.newTable("load_gz");
        load(gz, cols, null, parts.resolve("part-2.tsv.gz").toString(), "--no-header");
        assertSameRows(gz, twin + " WHERE key IN (3, 4)", cols, 2);

        String zst = TestServer.newTable("load_zst");
        load(zst, cols, null, parts.resolve("part-3.tsv.zst").toString(), "--no-header");
        assertSameRows(zst, twin + " WHERE key IN (5, 6)", cols, 2);
    }

    /**
     * Where 18.16 reads an input differently (docs/formats.md, "Differences from
     * clickhouse-client"), Sluice does what its documentation says: an empty CSV field in a
     * Nullable column is NULL (18.16: 0); ISO-8601 times are read in TSV; an enum's number is taken
     * as its value; an integer out of its type's range is an error naming the column and the value
     * (18.16 wraps it), and so is February 30 (18.16 rolls it over).
     */
    @Test
    void whereClickHouseReadsDifferentlySluiceFollowsItsDocs() throws Exception {
        String table = TestServer.newTable("load_differences");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (key UInt32, ni Nullable(Int32), dt DateTime, e Enum8('a' = 1, 'b' = 2),"
                        + " u8 UInt8) ENGINE = Memory");
        Path csv =
                write(
                        dir.resolve("differences.csv"),
                        ("key,ni,dt,e,u8\n"
                                        + "1,,2024-01-01T05:30:00+05:30,2,255\n"
                                        + "2,7,2024-01-01 00:00:00,a,300\n"
                                        + "3,8,2024-02-30 00:00:00,b,1\n")
                                .getBytes(StandardCharsets.UTF_8));
        Path tsv =
                write(
                        dir.resolve("differences.tsv"),
                        "4\t\\N\t2024-06-01T12:00:00Z\t1\t9\n".getBytes(StandardCharsets.UTF_8));
        Path dead = dir.resolve("differences-dead.ndjson");
        Result r =
                SluiceCli.run(
                        dir,
                        "load",
                        csv.toString(),
                        "--into",
                        table,
                        "--url",
                        url,
                        "--on-error",
                        "dead-letter",
                        "--dead-letter",
                        dead.toString());
        assertThat(r.exitCode()).as(r.output()).isZero();
        Result t =
                SluiceCli.run(
                        dir, "load", tsv.toString(), "--into", table, "--url", url, "--no-header");
        assertThat(t.exitCode()).as(t.output()).isZero();

        assertThat(select(table, "key, ni, dt, e, u8"))
                .containsExactly(
                        "1\t\\N\t2024-01-01 00:00:00\tb\t255", "4\t\\N\t2024-06-01 12:00:00\ta\t9");
        List<String> dl = Files.readAllLines(dead);
        assertThat(dl).hasSize(2);
        assertThat(dl.get(0))
                .contains("\"line\":3")
                .contains("column u8 (UInt8): value 300 is out of range");
        assertThat(dl.get(1)).contains("\"line\":4").contains("column dt (DateTime)");
    }

    // ---- The comparison ----

    /**
     * Loads {@code file} with {@code sluice load} into a fresh table and with clickhouse-client
     * ({@code FORMAT format}, with {@code columns} in the INSERT when given) into its twin, and
     * compares them.
     */
    private void twin(
            String name,
            List<Col> cols,
            String fileName,
            byte[] file,
            String format,
            List<String> columns,
            String... more)
            throws Exception {
        Path input = write(dir.resolve(name + "-" + fileName), file);
        String ours = TestServer.newTable("load_" + name);
        String twin = TestServer.newTable("load_" + name + "_twin");
        create(twin, cols);
        String insertColumns = columns == null ? "" : " (" + String.join(", ", columns) + ")";
        TestServer.clickhouseClient(
                "INSERT INTO " + twin + insertColumns + " FORMAT " + format, file);
        List<String> args = new ArrayList<>();
        if (columns != null) {
            args.add("--columns");
            args.add(String.join(",", columns));
        }
        args.addAll(Arrays.asList(more));
        load(ours, cols, null, input.toString(), args.toArray(String[]::new));
        assertSameRows(ours, twin, cols, EdgeValues.rows(false).size());
    }

    /** Creates {@code table} and runs {@code sluice load INPUT --into table args...}: exit 0. */
    private static void load(String table, List<Col> cols, Path stdin, String input, String... args)
            throws Exception {
        create(table, cols);
        List<String> cmd = new ArrayList<>(List.of("load", input, "--into", table, "--url", url));
        cmd.addAll(Arrays.asList(args));
        Result r = SluiceCli.run(dir, Map.of(), stdin, cmd.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.errorLines()).as(r.output()).isEmpty();
        assertThat(r.stdout()).contains("0 skipped, 0 dead-lettered");
    }

    private static void create(String table, List<Col> cols) {
        TestServer.execute(
                "CREATE TABLE " + table + " (" + EdgeValues.ddl(cols) + ") ENGINE = Memory");
    }

    /** Row by row, column by column, as the server prints them (TabSeparated). */
    private static void assertSameRows(String ours, String twin, List<Col> cols, int rows) {
        String list = String.join(", ", EdgeValues.names(cols));
        List<String> expected = select(twin, list);
        List<String> actual = select(ours, list);
        assertThat(expected).as("rows in the twin " + twin).hasSize(rows);
        assertThat(actual).as("rows in " + ours).hasSize(rows);
        for (int r = 0; r < rows; r++) {
            String[] e = expected.get(r).split("\t", -1);
            String[] a = actual.get(r).split("\t", -1);
            assertThat(a).as("%s row %d", ours, r + 1).hasSameSizeAs(e);
            for (int c = 0; c < cols.size(); c++) {
                assertThat(a[c])
                        .as(
                                "%s row %d column %s %s",
                                ours, r + 1, cols.get(c).name(), cols.get(c).type())
                        .isEqualTo(e[c]);
            }
        }
    }

    /** {@code SELECT columns FROM from ORDER BY key}; {@code from} may end in a WHERE clause. */
    private static List<String> select(String from, String columns) {
        String out =
                TestServer.clickhouseClient(
                        "SELECT "
                                + columns
                                + " FROM "
                                + from
                                + " ORDER BY key FORMAT TabSeparated");
        List<String> lines = new ArrayList<>(Arrays.asList(out.split("\n", -1)));
        lines.removeIf(String::isEmpty);
        return lines;
    }

    // ---- Files ----

    private static Path write(Path p, byte[] bytes) throws IOException {
        return Files.write(p, bytes);
    }

    private static void gzip(Path p, byte[] bytes) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(bytes);
        }
    }

    private static void zstd(Path p, byte[] bytes) throws IOException {
        try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(p))) {
            out.write(bytes);
        }
    }
}
