package dev.sluice.clickhouse.protocol;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Reads ch-go's golden packet dumps from {@code shared/golden/ch-go/proto/golden/}, found by
 * walking up from the working directory (the {@code shared} folder is a sibling of the repository).
 * Without it the calling test is skipped, or fails when {@code SLUICE_REQUIRE_GOLDEN=1}.
 */
final class Golden {

    private static final Path DIR = Path.of("shared", "golden", "ch-go", "proto", "golden");

    private Golden() {}

    /** The bytes of {@code <name>.raw}, e.g. {@code client_hello} or {@code type/ServerHello}. */
    static byte[] bytes(String name) {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            Path file = p.resolve(DIR).resolve(name + ".raw");
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readAllBytes(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        String message = DIR.resolve(name + ".raw") + " not found above " + start;
        if ("1".equals(System.getenv("SLUICE_REQUIRE_GOLDEN"))) {
            return fail(message + " (required: SLUICE_REQUIRE_GOLDEN=1)");
        }
        return Assumptions.abort(
                message + "; skipping the golden test (SLUICE_REQUIRE_GOLDEN=1 makes this fail)");
    }
}
