package dev.sluice.flink;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.WriterException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * One subtask's writer: gathers elements as rows, hands them to its {@link ClickHouseWriter} in
 * chunks, and on {@link #flush} (a checkpoint barrier, the end of input) waits until ClickHouse
 * acknowledged everything handed over — the at-least-once point of {@link ClickHouseSink} (property
 * 1 of docs/pipeline.md: the source's position, here the checkpoint, moves only after the rows
 * before it are written).
 *
 * <p>Metrics in the subtask's sink group: {@code numRecordsSend} (rows ClickHouse acknowledged),
 * {@code numBytesSend} (their Native bytes), {@code numRecordsSendErrors} (rows of refused
 * batches), {@code numRecordsOutErrors} (elements that could not become rows), and the gauge {@code
 * sluiceInflightBytes}.
 */
final class ClickHouseSinkWriter<T> implements SinkWriter<T> {
    private final ClickHouseWriter writer;
    private final RecordFields<T> fields;
    private final int chunkRows;
    private final long lingerNanos;
    private final String what;
    private final Counter sent;
    private final Counter sentBytes;
    private final Counter sendErrors;
    private final Counter badElements;
    // settled on the writer's threads, moved into Flink's counters on the task's thread
    private final AtomicLong ackedRows = new AtomicLong();
    private final AtomicLong ackedBytes = new AtomicLong();
    private final AtomicLong failedRows = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Rows rows;
    private long openedNanos;

    ClickHouseSinkWriter(
            ClickHouseWriter writer,
            RecordFields<T> fields,
            int chunkRows,
            long lingerNanos,
            SinkWriterMetricGroup metrics,
            String what) {
        this.writer = writer;
        this.fields = fields;
        this.chunkRows = chunkRows;
        this.lingerNanos = lingerNanos;
        this.what = what;
        this.sent = metrics.getNumRecordsSendCounter();
        this.sentBytes = metrics.getNumBytesSendCounter();
        this.sendErrors = metrics.getNumRecordsSendErrorsCounter();
        this.badElements = metrics.getNumRecordsOutErrorsCounter();
        metrics.gauge("sluiceInflightBytes", writer::inFlightBytes);
    }

    @Override
    public void write(T element, Context context) throws IOException, InterruptedException {
        checkFailure();
        if (rows == null) {
            rows = writer.newRows();
            openedNanos = System.nanoTime();
        }
        try {
            Map<String, ?> f = fields.fields(element);
            rows.add(f);
        } catch (RuntimeException e) {
            badElements.inc();
            throw new IOException(what + ": an element cannot become a row: " + e.getMessage(), e);
        }
        if (rows.size() >= chunkRows || System.nanoTime() - openedNanos >= lingerNanos) {
            handOver();
        }
    }

    /** Hands over what is gathered and waits until ClickHouse acknowledged all of it. */
    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        handOver();
        try {
            writer.flush();
        } catch (WriterException e) {
            publishCounts();
            throw new IOException(what + ": " + e.getMessage(), e);
        }
        publishCounts();
        checkFailure();
    }

    /**
     * Stops the writer. After a successful {@link #flush} nothing is pending; on a failure or a
     * cancellation what is pending is abandoned: the restart replays it from the checkpoint.
     */
    @Override
    public void close() {
        writer.close(Duration.ofSeconds(10));
    }

    private void handOver() throws IOException {
        if (rows == null || rows.isEmpty()) {
            return;
        }
        Rows r = rows;
        rows = null;
        long bytes = r.dataBytes();
        try {
            writer.submit(r)
                    .whenComplete(
                            (w, e) -> {
                                if (e != null) {
                                    failedRows.addAndGet(r.size());
                                    failure.compareAndSet(null, e);
                                } else {
                                    ackedRows.addAndGet(w.rows());
                                    ackedBytes.addAndGet(bytes);
                                }
                            });
        } catch (RuntimeException e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
        publishCounts();
    }

    private void checkFailure() throws IOException {
        Throwable e = failure.get();
        if (e != null) {
            publishCounts();
            Throwable cause =
                    e.getCause() != null && e instanceof java.util.concurrent.CompletionException
                            ? e.getCause()
                            : e;
            throw new IOException(what + ": " + cause.getMessage(), cause);
        }
    }

    private void publishCounts() {
        sent.inc(ackedRows.getAndSet(0));
        sentBytes.inc(ackedBytes.getAndSet(0));
        sendErrors.inc(failedRows.getAndSet(0));
    }
}
