package dev.sluice.pipeline.testing;

import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.source.PolledRecords;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Dead letters kept in memory, logging writes and flushes to a shared event list. */
public final class RecordingDeadLetters implements DeadLetters {
    private final List<String> events;
    private final List<String> letters = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public RecordingDeadLetters(List<String> events) {
        this.events = events;
    }

    @Override
    public void write(PolledRecords batch, int index, String reason) {
        String raw =
                new String(
                        batch.data,
                        batch.start[index],
                        batch.length(index),
                        StandardCharsets.UTF_8);
        letters.add(batch.partition + "@" + batch.position[index] + " " + raw + " : " + reason);
        events.add("dead-letter " + batch.partition + " " + batch.position[index]);
    }

    @Override
    public void writeRow(
            String source, String partition, long position, byte[] row, String reason) {
        letters.add(
                partition
                        + "@"
                        + position
                        + " "
                        + new String(row, StandardCharsets.UTF_8)
                        + " : "
                        + reason);
        events.add("dead-letter " + partition + " " + position);
    }

    @Override
    public void flush() {
        events.add("flush");
    }

    @Override
    public long count() {
        return letters.size();
    }

    public List<String> letters() {
        return letters;
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }
}
