package dev.sluice.clickhouse.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code env} file a start script ({@code scripts/clickhouse}, {@code scripts/kafka}, {@code
 * scripts/clickhouse cluster}) writes into its instance dir: {@code NAME=value} per line. Tests
 * read it afresh whenever they need a value that changes across restarts (pids).
 */
public final class EnvFile {
    private EnvFile() {}

    /**
     * The env file of an instance dir: {@code $dirVariable/env} when that environment variable is
     * set, else {@code relative} (e.g. {@code .sluice/kafka/env}) in the working directory or the
     * nearest parent that has one.
     */
    public static Optional<Path> find(String dirVariable, String relative) {
        String dir = System.getenv(dirVariable);
        if (dir != null && !dir.isBlank()) {
            Path p = Path.of(dir, "env");
            return Files.isReadable(p) ? Optional.of(p) : Optional.empty();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(relative);
            if (Files.isReadable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The variables of {@code file}, in file order; surrounding quotes are removed. */
    public static Map<String, String> read(Path file) {
        Map<String, String> env = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq <= 0 || line.startsWith("#")) {
                    continue;
                }
                String value = line.substring(eq + 1).trim();
                if (value.length() >= 2
                        && (value.startsWith("'") || value.startsWith("\""))
                        && value.charAt(value.length() - 1) == value.charAt(0)) {
                    value = value.substring(1, value.length() - 1);
                }
                env.put(line.substring(0, eq).trim().replaceFirst("^export ", ""), value);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return env;
    }
}
