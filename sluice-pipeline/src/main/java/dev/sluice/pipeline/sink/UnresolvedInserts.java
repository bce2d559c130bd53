package dev.sluice.pipeline.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The INSERTs a run gave up on while their outcome was unknown (it stopped under {@code
 * on_unknown_outcome: fail}, or was stopped), kept in {@value #FILE} in the checkpoint directory,
 * one deduplication token a line. Their batches are replayed after a restart; a replayed INSERT
 * named here counts as unknown unless the server's log now says what became of it — so a resumed
 * run never sends such an INSERT again silently. A token leaves the file once its INSERT is known
 * written or not written.
 *
 * <p>Written rarely (only when such an INSERT appears or is settled), replaced atomically.
 */
public final class UnresolvedInserts {
    static final String FILE = "unresolved-inserts.txt";

    private final Path file;
    private final Set<String> tokens = new LinkedHashSet<>();

    private UnresolvedInserts(Path file) {
        this.file = file;
    }

    /** Kept in memory only: a pipeline without a checkpoint directory cannot resume anyway. */
    public static UnresolvedInserts inMemory() {
        return new UnresolvedInserts(null);
    }

    /** The record in {@code dir}, read when it exists. */
    public static UnresolvedInserts open(Path dir) throws IOException {
        UnresolvedInserts u = new UnresolvedInserts(dir.resolve(FILE));
        if (Files.exists(u.file)) {
            for (String line : Files.readAllLines(u.file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    u.tokens.add(line.strip());
                }
            }
        }
        return u;
    }

    synchronized boolean contains(String token) {
        return tokens.contains(token);
    }

    /** Adds {@code token}; a failure to record it is returned, for the stop message. */
    synchronized IOException add(String token) {
        return tokens.add(token) ? save() : null;
    }

    synchronized void remove(String token) {
        if (tokens.remove(token)) {
            save(); // a stale line only makes a later replay ask again: harmless
        }
    }

    synchronized Set<String> tokens() {
        return Set.copyOf(tokens);
    }

    private IOException save() {
        if (file == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (String t : tokens) {
            sb.append(t).append('\n');
        }
        try {
            Path tmp = file.resolveSibling(FILE + ".tmp");
            try (FileChannel ch =
                    FileChannel.open(
                            tmp,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(
                    tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return null;
        } catch (IOException e) {
            return e;
        }
    }
}
