package dev.sluice.clickhouse.compress;

import dev.sluice.clickhouse.column.GoldenData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The golden vectors on the test classpath ({@code golden/...}); a missing one fails the test. */
final class Golden {

    private Golden() {}

    /** The folder {@code golden/<relative>}. */
    static Path dir(String relative) {
        return GoldenData.path(relative);
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
