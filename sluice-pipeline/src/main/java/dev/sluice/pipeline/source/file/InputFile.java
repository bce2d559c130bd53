package dev.sluice.pipeline.source.file;

import java.nio.file.Path;

/**
 * A file to read. Its partition name is its absolute, normalized path, so that committed positions
 * are found again whatever the working directory or spelling of a later run.
 *
 * @param size bytes on disk when resolved (compressed size for compressed files)
 */
public record InputFile(String name, Path path, Compression compression, long size) {

    static InputFile of(Path path, long size) {
        Path absolute = path.toAbsolutePath().normalize();
        return new InputFile(
                absolute.toString(),
                absolute,
                Compression.of(absolute.getFileName().toString()),
                size);
    }
}
