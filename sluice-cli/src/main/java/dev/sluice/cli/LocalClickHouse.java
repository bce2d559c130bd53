package dev.sluice.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The project's private ClickHouse instance, managed by {@code scripts/clickhouse} in the Sluice
 * checkout (found through {@code SLUICE_HOME}, which the {@code ./sluice} launcher sets).
 */
final class LocalClickHouse {
    private LocalClickHouse() {}

    /** Starts the private server if needed (installing it when missing) and returns its env. */
    static Map<String, String> start() {
        return startService("clickhouse", "CLICKHOUSE_URL");
    }

    /**
     * Starts the project's private service {@code scripts/NAME} if needed and returns the variables
     * of its {@code env}, which must include {@code required}.
     */
    static Map<String, String> startService(String name, String required) {
        Path script = home().resolve("scripts/" + name);
        if (!Files.isExecutable(script)) {
            throw new CliException(
                    "cannot start a local "
                            + name
                            + ": "
                            + script
                            + " is missing; set "
                            + required
                            + " to use an existing server");
        }
        run(true, script.toString(), "start");
        String env = run(false, script.toString(), "env");
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : env.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                String v = line.substring(eq + 1).trim();
                if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"')) {
                    v = v.substring(1, v.length() - 1);
                }
                values.put(line.substring(0, eq).replaceFirst("^export ", "").trim(), v);
            }
        }
        if (!values.containsKey(required)) {
            throw new CliException("scripts/" + name + " env did not print " + required);
        }
        return values;
    }

    static Path home() {
        String home = System.getProperty("sluice.home", System.getenv("SLUICE_HOME"));
        if (home == null || home.isBlank()) {
            throw new CliException(
                    "SLUICE_HOME is not set (run through the ./sluice launcher), or set"
                            + " CLICKHOUSE_URL");
        }
        return Path.of(home);
    }

    private static String run(boolean showOutput, String... command) {
        try {
            ProcessBuilder pb =
                    new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            if (showOutput) {
                pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            }
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new CliException(String.join(" ", command) + " did not finish in 10 minutes");
            }
            if (p.exitValue() != 0) {
                throw new CliException(
                        String.join(" ", command) + " failed with exit code " + p.exitValue());
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException("cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted while starting " + command[0], e);
        }
    }
}
