package dev.sluice.pipeline.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The committed position of every partition, in {@code committed.json} of the checkpoint directory:
 * the resume point after a restart, and what the ledger is pruned against. Each save replaces the
 * whole file atomically (temporary file, fsync, rename, fsync of the directory), so a crash leaves
 * the previous or the new positions, never a torn file.
 *
 * <pre>{"version":1,"pipeline":"events","positions":{"/data/a.json":1048576,"/data/b.json":0}}
 * </pre>
 *
 * <p>Thread-safe: every pipeline thread saves the positions of its own partitions.
 */
public final class CheckpointStore {
    static final String FILE = "committed.json";
    private static final int VERSION = 1;
    private static final JsonFactory JSON = new JsonFactory();

    private final Path file;
    private final String pipeline;
    private final Map<String, Long> positions;

    private CheckpointStore(Path file, String pipeline, Map<String, Long> positions) {
        this.file = file;
        this.pipeline = pipeline;
        this.positions = positions;
    }

    /**
     * Opens (creating the directory if needed) the store of {@code pipeline} in {@code dir}.
     *
     * @throws IOException when the file cannot be read, or belongs to another pipeline
     */
    public static CheckpointStore open(Path dir, String pipeline) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE);
        Map<String, Long> positions = new TreeMap<>();
        if (Files.exists(file)) {
            String owner = read(file, positions);
            if (!pipeline.equals(owner)) {
                throw new IOException(
                        file
                                + " holds the positions of pipeline '"
                                + owner
                                + "', not '"
                                + pipeline
                                + "': use another checkpoint.dir, or the pipeline's old name");
            }
        }
        return new CheckpointStore(file, pipeline, positions);
    }

    private static String read(Path file, Map<String, Long> into) throws IOException {
        String owner = null;
        try (JsonParser p = JSON.createParser(file.toFile())) {
            expect(p, p.nextToken() == JsonToken.START_OBJECT, file);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "pipeline" -> owner = p.getValueAsString();
                    case "positions" -> {
                        expect(p, p.currentToken() == JsonToken.START_OBJECT, file);
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String partition = p.currentName();
                            expect(p, p.nextToken() == JsonToken.VALUE_NUMBER_INT, file);
                            into.put(partition, p.getLongValue());
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("corrupt checkpoint file " + file + ": " + e.getMessage(), e);
        }
        return owner;
    }

    private static void expect(JsonParser p, boolean ok, Path file) throws IOException {
        if (!ok) {
            throw new IOException(
                    "corrupt checkpoint file " + file + " at " + p.currentLocation().toString());
        }
    }

    /** The committed positions, by partition. */
    public synchronized Map<String, Long> positions() {
        return Map.copyOf(positions);
    }

    /** Records new committed positions and makes the file durable before returning. */
    public synchronized void save(Map<String, Long> updates) throws IOException {
        if (updates.isEmpty()) {
            return;
        }
        positions.putAll(updates);
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + positions.size() * 48);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", VERSION);
            g.writeStringField("pipeline", pipeline);
            g.writeObjectFieldStart("positions");
            for (Map.Entry<String, Long> e : positions.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        out.write('\n');
        AtomicFiles.replace(file, out.toByteArray());
    }
}
