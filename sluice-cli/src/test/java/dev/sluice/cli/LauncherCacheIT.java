package dev.sluice.cli;

import static java.nio.file.StandardCopyOption.COPY_ATTRIBUTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.clickhouse.it.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sluice} launcher's start-up cache (docs/startup.md), through real loads into the
 * test server: the first load trains it, later loads start from it, a damaged cache never breaks a
 * run nor puts the JVM's warnings on the user's terminal, and a rebuilt jar never meets the cache
 * of the jar before it. Whether the JVM started from the cache is read from its class-loading log
 * ({@code JAVA_TOOL_OPTIONS}, which the launcher's cache key does not include): a class from the
 * cache is loaded from the "shared objects file".
 */
class LauncherCacheIT {
    private static final long DEADLINE_MINUTES = 5;

    @TempDir Path dir;

    /** JDK 25+: the AOT cache (JEP 483/514/515). */
    @Test
    void aotCacheIsTrainedUsedAndNeverBreaksARunWhenStale() throws Exception {
        if (Runtime.version().feature() < 25) {
            // The launcher refuses the mode this JDK lacks, in one line; `auto` takes AppCDS.
            Run refused = launch(Map.of("SLUICE_AOT", "aot"), "--version");
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(2);
            assertThat(refused.stderr()).contains("SLUICE_AOT=aot needs a JDK 25+");
            return;
        }
        trainUseAndSpoil("aot", ".aot");
    }

    /** The fallback of JDK 21-24, forced here on whatever JDK runs the tests. */
    @Test
    void appCdsArchiveIsTrainedUsedAndNeverBreaksARunWhenStale() throws Exception {
        trainUseAndSpoil("cds", ".jsa");
    }

    @Test
    void offLeavesNoCacheAndLoadsAsBefore() throws Exception {
        String table = table();
        Run run = load(Map.of("SLUICE_AOT", "off"), table, 1);
        assertCleanRun(run);
        assertThat(run.classSource()).isEqualTo("jar");
        assertThat(rows(table)).containsExactly("1\tone");
        assertThat(Files.exists(cacheDir())).as("no cache directory").isFalse();
    }

    private void trainUseAndSpoil(String mode, String suffix) throws Exception {
        String table = table();
        Map<String, String> env = Map.of("SLUICE_AOT", mode);

        // 1. No cache: the load is the training run, and says nothing about it.
        Run first = load(env, table, 1);
        assertCleanRun(first);
        assertThat(first.classSource()).isEqualTo("jar");
        Path cache = awaitCache(suffix);

        // 2. The next load starts from it.
        Run second = load(env, table, 2);
        assertCleanRun(second);
        assertThat(second.classSource()).as("started from %s", cache).isEqualTo("cache");

        // 3. A damaged cache (truncated, then garbage) is ignored, quietly; no new training.
        byte[] good = Files.readAllBytes(cache);
        Files.write(cache, Arrays.copyOf(good, good.length / 2));
        Run truncated = load(env, table, 3);
        assertCleanRun(truncated);
        assertThat(truncated.classSource()).isEqualTo("jar");
        Files.write(cache, "not a cache".repeat(1000).getBytes(StandardCharsets.US_ASCII));
        Run garbage = load(env, table, 4);
        assertCleanRun(garbage);
        assertThat(garbage.classSource()).isEqualTo("jar");

        // 4. Another jar build (an entry more). JDK 25 would take the old cache for it (it does
        //    not check the jar), so the launcher's key, which covers the jar's size, time and
        //    inode, must change: this load runs without a cache and trains a new one, and the
        //    old jar's cache goes.
        try (FileSystem zip = FileSystems.newFileSystem(jar(), Map.of())) {
            Files.writeString(zip.getPath("another-build.txt"), "a jar of another build\n");
        }
        Files.write(cache, good);
        Run rebuilt = load(env, table, 5);
        assertCleanRun(rebuilt);
        assertThat(rebuilt.classSource()).isEqualTo("jar");
        Path renewed = awaitCache(suffix);
        assertThat(renewed).as("a new key").isNotEqualTo(cache);
        assertThat(cache).as("the old jar's cache is removed").doesNotExist();
        Run fromNew = load(env, table, 6);
        assertCleanRun(fromNew);
        assertThat(fromNew.classSource()).isEqualTo("cache");

        // Every load wrote its row, once.
        assertThat(rows(table))
                .containsExactly("1\tone", "2\ttwo", "3\tthree", "4\tfour", "5\tfive", "6\tsix");
    }

    private static final String[] NAMES = {"", "one", "two", "three", "four", "five", "six"};

    private String table() {
        String table = TestServer.newTable("launcher_cache");
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
        return table;
    }

    private static List<String> rows(String table) {
        String out =
                TestServer.clickhouseClient(
                        "SELECT id, name FROM " + table + " ORDER BY id FORMAT TabSeparated");
        return out.isBlank() ? List.of() : List.of(out.strip().split("\n"));
    }

    /** {@code ./sluice load} of one row {@code {"id": n, "name": NAMES[n]}}. */
    private Run load(Map<String, String> env, String table, int n) throws Exception {
        Path input = dir.resolve("row-" + n + ".ndjson");
        Files.writeString(input, "{\"id\":" + n + ",\"name\":\"" + NAMES[n] + "\"}\n");
        return launch(env, "load", input.toString(), "--into", table);
    }

    /**
     * Waits for the training in the background to finish: exactly one cache file, no training files
     * left.
     */
    private Path awaitCache(String suffix) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(DEADLINE_MINUTES);
        while (true) {
            List<Path> caches = new ArrayList<>();
            boolean training = false;
            try (Stream<Path> files = Files.list(cacheDir())) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    training |= name.startsWith("training-");
                    if (name.startsWith("sluice-") && name.endsWith(suffix)) {
                        caches.add(f);
                    }
                }
            }
            if (!training && caches.size() == 1) {
                return caches.get(0);
            }
            if (System.nanoTime() > deadline) {
                fail(
                        "no cache after "
                                + DEADLINE_MINUTES
                                + " min: "
                                + caches
                                + ", training.log: "
                                + Files.readString(cacheDir().resolve("training.log")));
            }
            Thread.sleep(200);
        }
    }

    private Path cacheDir() {
        return dir.resolve("aot");
    }

    /**
     * A copy of the launcher, scripts/java-home and the built jar, laid out as in the repository
     * (the launcher finds the jar beside itself, and, with no sources there, never rebuilds it):
     * the test changes its jar without touching the build's.
     */
    @BeforeEach
    void repository() throws IOException {
        String built = System.getProperty("sluice.cli.jar");
        assertThat(built).as("sluice.cli.jar system property").isNotNull();
        Path jar = Path.of(built).toAbsolutePath();
        Path source = jar.getParent().getParent().getParent();
        Files.createDirectories(jar().getParent());
        Files.createDirectories(repo().resolve("scripts"));
        Files.copy(jar, jar());
        for (String file : List.of("sluice", "scripts/java-home")) {
            Files.copy(source.resolve(file), repo().resolve(file), COPY_ATTRIBUTES);
        }
    }

    private Path repo() {
        return dir.resolve("repo");
    }

    private Path jar() {
        return repo().resolve("sluice-cli/target/sluice-cli.jar");
    }

    private Run launch(Map<String, String> env, String... args) throws Exception {
        Path launcher = repo().resolve("sluice");
        assertThat(launcher).isExecutable();
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> e = new HashMap<>(pb.environment());
        e.keySet().removeIf(k -> k.startsWith("SLUICE_") && !k.startsWith("SLUICE_REQUIRE"));
        e.put("JAVA_HOME", System.getProperty("java.home"));
        e.put("CLICKHOUSE_URL", TestServer.url());
        e.put("SLUICE_AOT_DIR", cacheDir().toString());
        // %p: the JVM's pid, so that the background JVM building the cache (which reads the
        // same variable) writes a log of its own.
        e.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + dir + "/classes-%p.log");
        e.putAll(env);
        pb.environment().clear();
        pb.environment().putAll(e);
        Path out = Files.createTempFile(dir, "out-", ".txt");
        Path err = Files.createTempFile(dir, "err-", ".txt");
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Process p = pb.start();
        if (!p.waitFor(DEADLINE_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("./sluice " + String.join(" ", args) + " did not end");
        }
        // The launcher execs the JVM: same pid.
        Path classLog = dir.resolve("classes-" + p.pid() + ".log");
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err), classLog);
    }

    private static void assertCleanRun(Run run) {
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.stdout()).as(run.output()).startsWith("1 rows written in ");
        // Nothing of the cache reaches the user: no JVM warning, no "AOTConfiguration recorded".
        assertThat(run.stdout() + run.userErrorLines())
                .as(run.output())
                .doesNotContainIgnoringCase("aot")
                .doesNotContainIgnoringCase("cds")
                .doesNotContainIgnoringCase("shared")
                .doesNotContain("[warning]")
                .doesNotContain("[error]");
    }

    /** A finished launcher run and its JVM's class-loading log. */
    record Run(int exitCode, String stdout, String stderr, Path classLog) {
        /**
         * stderr without the JVM's note that it read JAVA_TOOL_OPTIONS (this test's own) and
         * sluice's warnings about the table.
         */
        String userErrorLines() {
            return String.join(
                    "\n",
                    stderr.lines()
                            .filter(
                                    l ->
                                            !l.startsWith("Picked up JAVA_TOOL_OPTIONS")
                                                    && !l.startsWith("warning: "))
                            .toList());
        }

        /** Where LoadCommand came from: "cache" (the shared objects file) or "jar". */
        String classSource() throws IOException {
            for (String line : Files.readAllLines(classLog)) {
                if (line.contains(" dev.sluice.cli.LoadCommand source: ")) {
                    if (line.contains("source: shared objects file")) {
                        return "cache";
                    }
                    return line.contains("sluice-cli.jar") ? "jar" : line;
                }
            }
            return "not loaded";
        }

        String output() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }
}
