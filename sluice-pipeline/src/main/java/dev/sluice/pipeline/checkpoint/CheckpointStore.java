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
 * <p>Beside the positions it keeps, per partition, what identifies the input the position belongs
 * to (a file's device, inode and first bytes: a different file under the same path must not resume
 * at the old offset) and a run id of the partition's own when its input was replaced (so that the
 * new content's batches never share tokens with the old content's).
 *
 * <pre>{"version":1,"pipeline":"events","positions":{"/data/a.json":1048576,"/data/b.json":0},
 *  "identities":{"/data/a.json":"dev=803,ino=1311;4096:9f2c…"},"runs":{}}
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
    private final Map<String, String> identities = new TreeMap<>();
    private final Map<String, String> runs = new TreeMap<>();
    private boolean identitiesChanged;

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
        CheckpointStore store = new CheckpointStore(file, pipeline, positions);
        if (Files.exists(file)) {
            String owner = read(file, positions, store.identities, store.runs);
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
        return store;
    }

    private static String read(
            Path file, Map<String, Long> into, Map<String, String> ids, Map<String, String> runs)
            throws IOException {
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
                    case "identities" -> readStrings(p, ids, file);
                    case "runs" -> readStrings(p, runs, file);
                    default -> p.skipChildren();
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("corrupt checkpoint file " + file + ": " + e.getMessage(), e);
        }
        return owner;
    }

    private static void readStrings(JsonParser p, Map<String, String> into, Path file)
            throws IOException {
        expect(p, p.currentToken() == JsonToken.START_OBJECT, file);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String partition = p.currentName();
            expect(p, p.nextToken() == JsonToken.VALUE_STRING, file);
            into.put(partition, p.getText());
        }
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

    /** What identifies the input of {@code partition} (see the class comment), or null. */
    public synchronized String identity(String partition) {
        return identities.get(partition);
    }

    /** The partition's own run id (its input was replaced), or null for the job's. */
    public synchronized String run(String partition) {
        return runs.get(partition);
    }

    /** Remembers the identity of a partition's input; kept with the next save. */
    public synchronized void identify(String partition, String identity) {
        identitiesChanged |= !identity.equals(identities.put(partition, identity));
    }

    /**
     * The partition's input was replaced: forgets its position, remembers the new input's identity
     * and gives the partition a run id of its own; durable before returning.
     */
    public synchronized void startOver(String partition, String identity, String run)
            throws IOException {
        positions.remove(partition);
        identities.put(partition, identity);
        runs.put(partition, run);
        write();
    }

    /**
     * Records new committed positions (and identities remembered since the last save) and makes the
     * file durable before returning.
     */
    public synchronized void save(Map<String, Long> updates) throws IOException {
        if (updates.isEmpty() && !identitiesChanged) {
            return;
        }
        positions.putAll(updates);
        write();
    }

    private void write() throws IOException {
        identitiesChanged = false;
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
            writeStrings(g, "identities", identities);
            writeStrings(g, "runs", runs);
            g.writeEndObject();
        }
        out.write('\n');
        AtomicFiles.replace(file, out.toByteArray());
    }

    private static void writeStrings(JsonGenerator g, String name, Map<String, String> values)
            throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, String> e : values.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }
}
