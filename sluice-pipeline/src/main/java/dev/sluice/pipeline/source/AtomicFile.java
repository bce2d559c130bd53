package dev.sluice.pipeline.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file so that a crash at any moment leaves either the old content or the new one, never
 * a mix: write a temporary file beside it, fsync it, rename it over the target (atomic on POSIX
 * file systems), fsync the directory so the rename itself survives a power loss.
 */
final class AtomicFile {
    private AtomicFile() {}

    static void write(Path target, byte[] content) throws IOException {
        publish(writeTemporary(target, content), target);
    }

    /** Where the new content waits before it replaces the target. */
    static Path temporary(Path target) {
        return target.resolveSibling(target.getFileName() + ".tmp");
    }

    /** The first half of {@link #write}: the target is untouched until {@link #publish}. */
    static Path writeTemporary(Path target, byte[] content) throws IOException {
        Path temp = temporary(target);
        try (FileChannel c =
                FileChannel.open(
                        temp,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                c.write(buffer);
            }
            c.force(true);
        }
        return temp;
    }

    static void publish(Path temp, Path target) throws IOException {
        Files.move(
                temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(target.toAbsolutePath().getParent());
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel c = FileChannel.open(dir, StandardOpenOption.READ)) {
            c.force(true);
        } catch (UnsupportedOperationException e) {
            // Some platforms (Windows) cannot open a directory; their renames are durable anyway.
        }
    }
}
