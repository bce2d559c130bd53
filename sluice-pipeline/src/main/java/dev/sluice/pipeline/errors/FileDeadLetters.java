package dev.sluice.pipeline.errors;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.sluice.pipeline.decode.convert.Utf8;
import dev.sluice.pipeline.source.PolledRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;

/**
 * The dead-letter file: one NDJSON line per rejected record, appended,
 *
 * <pre>
 * {"source":"file","partition":"/data/a.csv","position":1234,"line":7,
 *  "reason":"column tenant (UInt32): value -5 is out of range","record":"..."}
 * </pre>
 *
 * with {@code record} the raw record as text when it is valid UTF-8, else {@code record_base64} (so
 * the line is always valid JSON and the bytes come back exactly); {@code line} is null when the
 * source has no line numbers. A row the server rejected for its content has no raw record (a batch
 * keeps its rows' column values and positions, not their records' bytes): its line carries {@code
 * row}, the row as it was sent — an object of its columns, as ClickHouse's JSONEachRow writes it —
 * or {@code row_base64} when that is not valid UTF-8 JSON (a String column with other bytes):
 *
 * <pre>
 * {"source":"file","partition":"/data/a.csv","position":1234,"line":null,
 *  "reason":"ClickHouse error 395: Value passed to 'throwIf' function is non zero",
 *  "row":{"n":13,"s":"x"}}
 * </pre>
 *
 * Lines are buffered and reach the disk with fsync on {@link #flush}, which the runtime calls
 * before committing positions past them (property 1). Shared by the pipeline threads, so every
 * method is synchronized — records land here rarely.
 */
public final class FileDeadLetters implements DeadLetters {
    /** Buffered bytes beyond which lines are written out (without fsync) before a flush. */
    private static final int WRITE_THRESHOLD = 1 << 16;

    private static final JsonFactory JSON = new JsonFactory();

    private final Path path;
    private final FileChannel channel;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private long count;

    private FileDeadLetters(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Opens {@code path} for appending, creating it and its directories as needed. */
    public static FileDeadLetters open(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        FileChannel ch =
                FileChannel.open(
                        path,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
        return new FileDeadLetters(path, ch);
    }

    public Path path() {
        return path;
    }

    @Override
    public synchronized void write(PolledRecords batch, int index, String reason)
            throws IOException {
        byte[] d = batch.data;
        int start = batch.start[index];
        int len = batch.end[index] - start;
        try (JsonGenerator g = JSON.createGenerator(buffer)) {
            g.writeStartObject();
            g.writeStringField("source", batch.source);
            g.writeStringField("partition", batch.partition);
            g.writeNumberField("position", batch.position[index]);
            if (batch.line(index) > 0) {
                g.writeNumberField("line", batch.line(index));
            } else {
                g.writeNullField("line");
            }
            g.writeStringField("reason", reason);
            if (Utf8.isValid(d, start, len)) {
                g.writeStringField("record", new String(d, start, len, StandardCharsets.UTF_8));
            } else {
                g.writeStringField(
                        "record_base64",
                        Base64.getEncoder()
                                .encodeToString(
                                        java.util.Arrays.copyOfRange(d, start, start + len)));
            }
            g.writeEndObject();
        }
        buffer.write('\n');
        count++;
        if (buffer.size() >= WRITE_THRESHOLD) {
            drain();
        }
    }

    @Override
    public synchronized void writeRow(
            String source, String partition, long position, byte[] row, String reason)
            throws IOException {
        try (JsonGenerator g = JSON.createGenerator(buffer)) {
            g.writeStartObject();
            g.writeStringField("source", source);
            g.writeStringField("partition", partition);
            g.writeNumberField("position", position);
            g.writeNullField("line");
            g.writeStringField("reason", reason);
            if (Utf8.isValid(row, 0, row.length) && isJson(row)) {
                g.writeFieldName("row");
                g.writeRawValue(new String(row, StandardCharsets.UTF_8));
            } else {
                g.writeStringField("row_base64", Base64.getEncoder().encodeToString(row));
            }
            g.writeEndObject();
        }
        buffer.write('\n');
        count++;
        if (buffer.size() >= WRITE_THRESHOLD) {
            drain();
        }
    }

    /** True when {@code text} is one JSON value and nothing else (so it may go in raw). */
    private static boolean isJson(byte[] text) {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() == null) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    private void drain() throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buffer.toByteArray());
        while (b.hasRemaining()) {
            channel.write(b);
        }
        buffer.reset();
    }

    @Override
    public synchronized void flush() throws IOException {
        drain();
        channel.force(false);
    }

    @Override
    public synchronized long count() {
        return count;
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            flush();
        } finally {
            channel.close();
        }
    }
}
