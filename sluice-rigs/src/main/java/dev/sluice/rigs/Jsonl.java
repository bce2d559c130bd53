package dev.sluice.rigs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code results.jsonl}: one record per line, appended and forced to disk as each repetition ends,
 * so an interrupted run keeps everything it measured.
 */
public final class Jsonl {
    public static final String FILE_NAME = "results.jsonl";

    static final ObjectMapper MAPPER =
            new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private final Path file;

    public Jsonl(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** Checks {@code record} against the schema, then appends it as one line and syncs. */
    public synchronized void append(Map<String, Object> record) throws IOException {
        RecordSchema.check(record, "record to write (" + record.get("arm_label") + ")");
        byte[] line = (toJson(record) + "\n").getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (FileChannel ch =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(line));
            ch.force(false);
        }
    }

    public static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Every record of {@code file}, each checked against the schema; blank lines are skipped.
     *
     * @throws IllegalArgumentException naming the file and line of a bad record
     */
    public static List<Map<String, Object>> read(Path file) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String where = file + " line " + (i + 1);
            Map<String, Object> record;
            try {
                record = MAPPER.readValue(line, MAP);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(
                        where + ": not a JSON object (" + e.getOriginalMessage() + ")", e);
            }
            RecordSchema.check(record, where);
            out.add(record);
        }
        return out;
    }
}
