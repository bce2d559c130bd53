package dev.sluice.pipeline.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The INSERTs that were sent in halves because the server refused their size, kept in {@value
 * #FILE} in the checkpoint directory, one deduplication token a line (docs/pipeline.md, "Server
 * errors"). A size refusal depends on the server's state, not on the rows, so a replay of the batch
 * after a restart might send whole what an earlier run sent in halves — and a table that drops
 * repeated blocks drops only identical ones: the parts written before the crash would be written
 * again inside the whole. A replay therefore sends an INSERT named here as its halves at once, the
 * same halves under the same sub-tokens (property 2). A split for the rows' content needs no
 * record: the same rows are refused again, and bisected the same way.
 *
 * <p>A token is appended and fsynced before the first half is sent. The file keeps the last {@value
 * #MAX_KEPT} tokens (older ones are dropped when it is opened): a record is needed only until its
 * batch is committed, and far fewer batches than that are ever in flight.
 */
public final class SplitInserts {
    static final String FILE = "split-inserts.txt";
    static final int MAX_KEPT = 100_000;

    private final Path file;
    private final Set<String> tokens = new HashSet<>();

    private SplitInserts(Path file) {
        this.file = file;
    }

    /** Kept in memory only: a pipeline without a checkpoint directory does not replay. */
    public static SplitInserts inMemory() {
        return new SplitInserts(null);
    }

    /** The record in {@code dir}, read when it exists; a torn last line (a crash) is ignored. */
    public static SplitInserts open(Path dir) throws IOException {
        SplitInserts s = new SplitInserts(dir.resolve(FILE));
        if (!Files.exists(s.file)) {
            return s;
        }
        String text = Files.readString(s.file, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        int from = 0;
        for (int nl; (nl = text.indexOf('\n', from)) >= 0; from = nl + 1) {
            String line = text.substring(from, nl).strip();
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        // A torn line is dropped from the file too, so that the next token starts a line of its
        // own.
        boolean torn = from < text.length();
        boolean trimmed = lines.size() > MAX_KEPT;
        if (trimmed) {
            lines = lines.subList(lines.size() - MAX_KEPT, lines.size());
        }
        s.tokens.addAll(lines);
        if (torn || trimmed) {
            s.rewrite(lines);
        }
        return s;
    }

    /** True when the INSERT with {@code token} was sent in halves. */
    synchronized boolean contains(String token) {
        return tokens.contains(token);
    }

    /**
     * Records that the INSERT with {@code token} is sent in halves, durably, before it returns.
     *
     * @throws IOException when the record cannot be written: the halves must not be sent then
     */
    synchronized void add(String token) throws IOException {
        if (!tokens.add(token) || file == null) {
            return;
        }
        try (FileChannel ch =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        } catch (IOException e) {
            tokens.remove(token);
            throw e;
        }
    }

    private void rewrite(List<String> lines) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String t : lines) {
            sb.append(t).append('\n');
        }
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try (FileChannel ch =
                FileChannel.open(
                        tmp,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
