package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code sluice} subprocess for the resilience ITs: the shaded jar run as users run it, with its
 * stdout and stderr kept in files (a pipe nobody reads would block it), its pid for signals, and a
 * {@link #close()} that never leaves it running.
 */
final class SluiceProcess implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path err;
    private final long started = System.nanoTime();

    private SluiceProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts {@code sluice args...} in {@code dir}, with {@code env} added to the environment;
     * CLICKHOUSE_URL is removed, so a configuration only reaches the server it names.
     */
    static SluiceProcess start(Path dir, Map<String, String> env, String... args)
            throws IOException {
        return start(dir, env, List.of(), args);
    }

    /** {@link #start(Path, Map, String...)} with options for the JVM. */
    static SluiceProcess start(
            Path dir, Map<String, String> env, List<String> jvmOptions, String... args)
            throws IOException {
        String jar = System.getProperty("sluice.cli.jar");
        assertThat(jar).as("sluice.cli.jar system property").isNotNull();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        // Small heap: the machine is shared, and the budgets under test are far below it.
        cmd.add("-Xmx1g");
        cmd.addAll(jvmOptions);
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
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        return new SluiceProcess(pb.start(), out, err);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Seconds since the start, for the tests' logs. */
    double elapsed() {
        return (System.nanoTime() - started) / 1e9;
    }

    /** Waits for the exit; null when still running after {@code timeout}. */
    Integer waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? process.exitValue()
                : null;
    }

    /** Sends {@code signal} (TERM, INT, ...) with kill(1), as an operator or a supervisor does. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -" + signal + " " + pid()).isZero();
    }

    /** SIGKILL (kill -9) and wait until it is gone. */
    void killHard() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Fails, saying why, when the process ignores SIG{@code name} (number {@code signal}), so that
     * a test about how sluice reacts to it neither passes nor skips on a process that cannot.
     */
    void assertReactsTo(String name, int signal) throws IOException {
        assertThat(ignores(signal))
                .as(
                        "sluice was started with SIG%s ignored, inherited from the shell that"
                                + " started the build (a background job without job control, as"
                                + " `cmd &` in a script): it cannot react to the signal. Start the"
                                + " build in the foreground, or after `set -m`",
                        name)
                .isFalse();
    }

    /**
     * True when the process ignores {@code signal} (number): it inherited the disposition, e.g.
     * from a shell that started the build in the background without job control, and the JVM then
     * leaves SIGINT ignored rather than installing a handler.
     */
    boolean ignores(int signal) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid()), "status");
        if (!Files.isReadable(status)) {
            return false; // not Linux: assume the default disposition
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                return (mask & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    /**
     * The JVM's live heap in bytes: the total of {@code jcmd GC.class_histogram}, which runs a full
     * GC first and counts only reachable objects — what the process really holds, not what it has
     * reserved. (Unlike {@code GC.heap_info}, its output is the same for every collector the JVM
     * may pick.)
     */
    long heapUsedAfterGc() throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        String histogram = jcmd(jcmd, "GC.class_histogram");
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$")
                        .matcher(histogram);
        assertThat(m.find())
                .as("jcmd GC.class_histogram has no Total line:\n%s", tail(histogram))
                .isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String tail(String text) {
        return text.length() <= 2000 ? text : "..." + text.substring(text.length() - 2000);
    }

    /** The first {@code lines} lines of the live objects' class histogram (after a full GC). */
    String classHistogram(int lines) throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        String[] all = jcmd(jcmd, "GC.class_histogram").split("\n");
        return String.join(
                "\n", java.util.Arrays.asList(all).subList(0, Math.min(lines, all.length)));
    }

    private String jcmd(String jcmd, String command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(jcmd, Long.toString(pid()), command)
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("jcmd %s: %s", command, out).isZero();
        return out;
    }

    String stdout() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    /** Both outputs, for assertion messages. */
    String output() throws IOException {
        return "--- stdout\n" + stdout() + "--- stderr\n" + stderr();
    }

    /** Kills a process still running; an interrupt while waiting for it is kept for the caller. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                killHard();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
