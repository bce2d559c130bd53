package dev.sluice.clickhouse.column;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the shared golden test data ({@code shared/golden}, outside the repository) by walking up
 * from the working directory; Maven runs tests in the module directory. When it is absent the
 * calling test is skipped, unless {@code SLUICE_REQUIRE_GOLDEN=1} turns the absence into a failure
 * (CI, where a silent skip would hide a broken checkout).
 */
public final class GoldenData {

    private GoldenData() {}

    /** The {@code shared/golden} directory, or aborts (or fails) the calling test. */
    public static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("golden");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        String message = "golden data shared/golden not found in " + start + " or its parents";
        if ("1".equals(System.getenv("SLUICE_REQUIRE_GOLDEN"))) {
            return fail(message + " (required because SLUICE_REQUIRE_GOLDEN=1)");
        }
        return Assumptions.abort(
                message + "; skipping (set SLUICE_REQUIRE_GOLDEN=1 to fail instead)");
    }

    /** {@code shared/golden/<relative>}; it must exist once the root was found. */
    public static Path path(String relative) {
        Path p = root().resolve(relative);
        if (!Files.exists(p)) {
            fail("golden file " + p + " is missing");
        }
        return p;
    }

    /** The bytes of {@code shared/golden/<relative>}. */
    public static byte[] read(String relative) {
        try {
            return Files.readAllBytes(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a ch-go Native column dump, {@code ch-go/proto/golden/<name>.raw}. */
    public static byte[] chGoColumn(String name) {
        return read("ch-go/proto/golden/" + name + ".raw");
    }
}
