package dev.sluice.clickhouse.compress;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the shared golden test data, which lives outside the repository ({@code ../shared/golden}
 * from the repository root). Tests that need it are skipped when it is absent, unless {@code
 * SLUICE_REQUIRE_GOLDEN=1} makes its absence a failure (for CI, where a silent skip would hide a
 * broken checkout).
 */
final class Golden {

    private Golden() {}

    /** {@code shared/golden/<relative>}, or aborts/fails the calling test. */
    static Path dir(String relative) {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("golden").resolve(relative);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        String message =
                "golden data shared/golden/"
                        + relative
                        + " not found in "
                        + start
                        + " or any parent directory";
        if ("1".equals(System.getenv("SLUICE_REQUIRE_GOLDEN"))) {
            return fail(message + " (required because SLUICE_REQUIRE_GOLDEN=1)");
        }
        return Assumptions.abort(
                message + "; skipping (set SLUICE_REQUIRE_GOLDEN=1 to fail instead)");
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
