package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the shaded jar to its end, as users run it, for the ITs that check what a command prints and
 * returns: in a directory of the test's own (state and dead letters land under its {@code
 * .sluice/}), with an environment of the test's choosing — {@code CLICKHOUSE_URL} is removed unless
 * the test sets it, so a command reaches only the server it is told about — and optionally a file
 * as stdin. stdout and stderr go to files: a pipe nobody drains could stall the process.
 */
final class SluiceCli {
    static final long TIMEOUT_MINUTES = 5;

    private SluiceCli() {}

    /** A finished run. */
    record Result(int exitCode, String stdout, String stderr) {
        /** stderr's lines without the warnings every run may print (e.g. deduplication). */
        List<String> errorLines() {
            return Arrays.stream(stderr.split("\n"))
                    .filter(
                            l ->
                                    !l.isBlank()
                                            && !l.startsWith("warning: ")
                                            && !l.startsWith("note: "))
                    .toList();
        }

        /** Both outputs, for assertion messages. */
        String output() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    static Result run(Path dir, String... args) throws IOException, InterruptedException {
        return run(dir, Map.of(), null, args);
    }

    /**
     * Runs {@code sluice args...} in {@code dir} with {@code env} added to the environment and
     * {@code stdin} (null: nothing) as standard input.
     */
    static Result run(Path dir, Map<String, String> env, Path stdin, String... args)
            throws IOException, InterruptedException {
        String jar = System.getProperty("sluice.cli.jar");
        assertThat(jar).as("sluice.cli.jar system property").isNotNull();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        // A small heap and quick start: these runs move little data, and the machine is shared.
        cmd.add("-Xmx512m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-jar");
        cmd.add(jar);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("CLICKHOUSE_URL");
        pb.environment().putAll(env);
        Path out = Files.createTempFile(dir, "sluice-out-", ".txt");
        Path err = Files.createTempFile(dir, "sluice-err-", ".txt");
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        pb.redirectInput(
                ProcessBuilder.Redirect.from(
                        (stdin != null ? stdin : Path.of("/dev/null")).toFile()));
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            fail("sluice " + String.join(" ", args) + " did not finish: " + Files.readString(err));
        }
        Result r =
                new Result(
                        p.exitValue(),
                        Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }
}
