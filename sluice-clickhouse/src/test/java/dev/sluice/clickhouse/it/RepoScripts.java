package dev.sluice.clickhouse.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the repository's {@code scripts/} (start, stop, kill of test servers) from tests. */
public final class RepoScripts {
    private RepoScripts() {}

    /** {@code scripts/<name>} in the working directory or the nearest parent that has it. */
    public static Path find(String name) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve("scripts").resolve(name);
            if (Files.isExecutable(s)) {
                return s;
            }
        }
        throw new IllegalStateException(
                "scripts/" + name + " not found above " + Path.of("").toAbsolutePath());
    }

    /**
     * Runs {@code scripts/<name> args...} with {@code env} added to this process's environment;
     * returns its output (stdout and stderr). Fails with that output when it exits non-zero or
     * outlives {@code timeout}.
     */
    public static String run(
            String name, Map<String, String> env, Duration timeout, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(find(name).toString());
        cmd.addAll(List.of(args));
        String shown = "scripts/" + name + " " + String.join(" ", args);
        Path out = null;
        try {
            // Output to a file, not a pipe: a server the script leaves running must not hold
            // (or block on) a pipe of ours.
            out = Files.createTempFile("sluice-script", ".out");
            ProcessBuilder pb =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(out.toFile())
                            .redirectInput(
                                    ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(
                        shown + " did not finish within " + timeout + ":\n" + text(out));
            }
            String text = text(out);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        shown + " failed (exit " + p.exitValue() + "):\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + shown + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + shown, e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }

    private static String text(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
