package dev.sluice.flink;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.metrics.Counter;

/**
 * One subtask's side of {@link ClickHouseExactlyOnceSink}: keeps each element's fields until the
 * next checkpoint, then hands them over as {@link PendingBatch}es of at most {@code chunkRows}
 * rows, each with a token of its own, to be written once the checkpoint completes. Each element is
 * tried on a {@link Rows} of the table's layout as it arrives, so a bad one fails the job at once
 * (naming the reason) instead of failing every commit after it.
 */
final class ExactlyOnceWriter<T> implements CommittingSinkWriter<T, PendingBatch> {
    private final RecordFields<T> fields;
    private final ClickHouseWriter layout;
    private final Rows check;
    private final int chunkRows;
    private final String prefix;
    private final String what;
    private final Counter badElements;
    private final List<Map<String, Object>> pending = new ArrayList<>();

    /** {@code layout}: a writer opened only for its table's layout (it sends nothing). */
    ExactlyOnceWriter(
            RecordFields<T> fields,
            ClickHouseWriter layout,
            int chunkRows,
            String prefix,
            String what,
            Counter badElements) {
        this.fields = fields;
        this.layout = layout;
        this.check = layout.newRows();
        this.chunkRows = chunkRows;
        this.prefix = prefix;
        this.what = what;
        this.badElements = badElements;
    }

    @Override
    public void write(T element, Context context) throws IOException {
        Map<String, Object> row;
        try {
            row = new LinkedHashMap<>(fields.fields(element));
            check.add(row);
            check.clear();
        } catch (RuntimeException e) {
            badElements.inc();
            throw new IOException(what + ": an element cannot become a row: " + e.getMessage(), e);
        }
        pending.add(row);
    }

    /**
     * Nothing is sent before its checkpoint completes: the rows go out in {@link #prepareCommit}.
     */
    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public Collection<PendingBatch> prepareCommit() {
        List<PendingBatch> out = new ArrayList<>();
        long now = System.currentTimeMillis() / 1000;
        for (int from = 0; from < pending.size(); from += chunkRows) {
            List<Map<String, Object>> chunk =
                    new ArrayList<>(
                            pending.subList(from, Math.min(pending.size(), from + chunkRows)));
            out.add(new PendingBatch(prefix + UUID.randomUUID(), now, chunk));
        }
        pending.clear();
        return out;
    }

    @Override
    public void close() {
        layout.close();
    }
}
