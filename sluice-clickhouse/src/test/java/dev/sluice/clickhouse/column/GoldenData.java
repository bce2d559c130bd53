package dev.sluice.clickhouse.column;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The golden test vectors, from the test classpath ({@code src/test/resources/golden}; provenance
 * and licences in its README). A missing file fails the calling test: a plain clone holds every
 * vector, so there is nothing to skip.
 */
public final class GoldenData {
    private static final String ROOT = "/golden/";

    private GoldenData() {}

    /**
     * {@code golden/<relative>} as a path (a file or a folder); fails when it is missing. Tests run
     * from {@code target/test-classes}, a folder, so the resource is a file there.
     */
    public static Path path(String relative) {
        URL url = GoldenData.class.getResource(ROOT + relative);
        if (url == null) {
            return fail(
                    "golden file "
                            + relative
                            + " is missing from the test classpath (src/test/resources"
                            + ROOT
                            + relative
                            + ")");
        }
        if (!"file".equals(url.getProtocol())) {
            return fail("golden file " + relative + " is not a plain file: " + url);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            return fail("golden file " + relative + ": " + e.getMessage());
        }
    }

    /** The bytes of {@code golden/<relative>}. */
    public static byte[] read(String relative) {
        Path p = path(relative);
        if (!Files.isRegularFile(p)) {
            fail("golden file " + relative + " is not a regular file: " + p);
        }
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a ch-go Native column dump, {@code ch-go/proto/golden/<name>.raw}. */
    public static byte[] chGoColumn(String name) {
        return read("ch-go/proto/golden/" + name + ".raw");
    }
}
