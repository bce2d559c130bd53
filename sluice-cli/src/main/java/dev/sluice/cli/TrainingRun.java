package dev.sluice.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code ./sluice} launcher's training run: the first {@code load} after a build records what
 * the JVM loads and how it runs, for the ahead-of-time cache later runs start from
 * (docs/startup.md). The launcher finishes the cache only from a run that succeeded — a run that
 * failed at its start saw too little of a load to be worth caching — and it learns the exit code
 * from the file named by {@code -Dsluice.training.exit}, since it {@code exec}s the JVM.
 */
final class TrainingRun {
    static final String EXIT_FILE_PROPERTY = "sluice.training.exit";

    private TrainingRun() {}

    /** Writes {@code code} to the training run's exit file; nothing when this is not one. */
    static void recordExit(int code) {
        String file = System.getProperty(EXIT_FILE_PROPERTY);
        if (file == null) {
            return;
        }
        try {
            Files.writeString(Path.of(file), code + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            // Without the file the launcher keeps no cache from this run; the next one trains.
        }
    }
}
