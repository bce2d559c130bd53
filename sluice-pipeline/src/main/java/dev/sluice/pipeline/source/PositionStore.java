package dev.sluice.pipeline.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The committed position of every partition of a source — where reading resumes after a restart
 * (property 1: a position is here only once everything before it is durably handled).
 *
 * <p>Kept in one small JSON file, {@code {"version":1,"positions":{"<partition>":<position>}}},
 * loaded at start and rewritten atomically on every commit ({@link AtomicFile}: a crash leaves the
 * previous state or the new one, never a torn file). Commits are rare (one per partition per
 * checkpoint interval), so rewriting the whole file is cheap. Thread-safe: sources of several
 * pipeline threads share one store.
 */
public final class PositionStore {
    /** The file's name in the checkpoint directory. */
    public static final String FILE_NAME = "positions.json";

    private static final JsonFactory JSON = new JsonFactory();
    private static final int VERSION = 1;

    private final Path file;
    private final Map<String, Long> positions;

    private PositionStore(Path file, Map<String, Long> positions) {
        this.file = file;
        this.positions = positions;
    }

    /** A store that remembers nothing across runs ({@code load} without {@code --resume}). */
    public static PositionStore inMemory() {
        return inMemory(Map.of());
    }

    /**
     * A store that starts from {@code committed} and keeps commits in memory only: for a runtime
     * that persists positions itself and hands the sources their resume points.
     */
    public static PositionStore inMemory(Map<String, Long> committed) {
        return new PositionStore(null, new TreeMap<>(committed));
    }

    /** The store in {@code dir}/{@value #FILE_NAME}, created (with the directory) if missing. */
    public static PositionStore inDirectory(Path dir) throws IOException {
        return open(dir.resolve(FILE_NAME));
    }

    /**
     * A store in {@code dir} that starts empty, replacing any positions kept there: a run that
     * reads everything again ({@code load} without {@code --resume}) but can itself be resumed.
     */
    public static PositionStore startOver(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        Files.createDirectories(dir);
        Files.deleteIfExists(AtomicFile.temporary(file));
        PositionStore store = new PositionStore(file, new TreeMap<>());
        AtomicFile.write(file, write(store.positions));
        return store;
    }

    /**
     * Loads {@code file} if it exists (creating its directory if missing). A temporary file left by
     * a crash before its rename is not the state (the previous file is) and is deleted.
     *
     * @throws IOException the file is unreadable or not a state file (with its path)
     */
    public static PositionStore open(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(AtomicFile.temporary(file));
        Map<String, Long> positions = new TreeMap<>();
        if (Files.exists(file)) {
            try {
                read(Files.readAllBytes(file), positions);
            } catch (IOException | RuntimeException e) {
                throw new IOException(
                        "cannot read the source positions in " + file + ": " + e.getMessage(), e);
            }
        }
        return new PositionStore(file, positions);
    }

    /** Where the state is kept, or null for an in-memory store. */
    public Path file() {
        return file;
    }

    /** The committed position of {@code partition}, if any. */
    public synchronized OptionalLong position(String partition) {
        Long p = positions.get(partition);
        return p == null ? OptionalLong.empty() : OptionalLong.of(p);
    }

    /** Every committed position, by partition. */
    public synchronized Map<String, Long> positions() {
        return Collections.unmodifiableMap(new TreeMap<>(positions));
    }

    /** Records that everything of {@code partition} before {@code position} is handled; durable. */
    public synchronized void commit(String partition, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException(
                    "negative position " + position + " for " + partition);
        }
        Long previous = positions.put(partition, position);
        if (file != null && (previous == null || previous != position)) {
            try {
                AtomicFile.write(file, write(positions));
            } catch (IOException e) {
                if (previous == null) {
                    positions.remove(partition);
                } else {
                    positions.put(partition, previous);
                }
                throw new IOException(
                        "cannot save the source positions to " + file + ": " + e.getMessage(), e);
            }
        }
    }

    private static byte[] write(Map<String, Long> positions) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", VERSION);
            g.writeObjectFieldStart("positions");
            for (Map.Entry<String, Long> e : positions.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    private static void read(byte[] content, Map<String, Long> into) throws IOException {
        try (JsonParser p = JSON.createParser(content)) {
            expect(p.nextToken() == JsonToken.START_OBJECT, "a JSON object");
            int version = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "version" -> {
                        expect(value == JsonToken.VALUE_NUMBER_INT, "an integer version");
                        version = p.getIntValue();
                    }
                    case "positions" -> {
                        expect(value == JsonToken.START_OBJECT, "an object of positions");
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String partition = p.currentName();
                            expect(
                                    p.nextToken() == JsonToken.VALUE_NUMBER_INT,
                                    "integer positions");
                            into.put(partition, p.getLongValue());
                        }
                    }
                    default -> throw new IOException("unexpected field '" + field + "'");
                }
            }
            expect(version == VERSION, "version " + VERSION);
        }
    }

    private static void expect(boolean ok, String what) throws IOException {
        if (!ok) {
            throw new IOException("expected " + what);
        }
    }
}
