package dev.sluice.connect;

import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.Written;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A batch handed to the writer: its offsets, its completion and — where rows the server refuses go
 * to the errant-record reporter — its records by row and the rows the server refused.
 *
 * <p>The writer's threads add refusals ({@link #refused}) while the batch is sent; the task's
 * thread reads them only after the completion is done, which orders the two.
 */
final class SentBatch {
    final long first;
    final long last;
    final String description;
    final CompletableFuture<Written> done;

    /** The batch's rows: the writer's until {@link #done} is done. */
    final Rows rows;

    /** Row i's record; null where refused rows fail the batch instead. */
    private final List<SinkRecord> records;

    private final Queue<Refusal> refusals = new ConcurrentLinkedQueue<>();
    private List<Future<Void>> reports;

    /** Row {@code row} of the batch, refused by the server for {@code reason}. */
    record Refusal(int row, String reason) {}

    SentBatch(
            long first,
            long last,
            String description,
            Rows rows,
            List<SinkRecord> records,
            CompletableFuture<Written> done) {
        this.first = first;
        this.last = last;
        this.description = description;
        this.rows = rows;
        this.records = records;
        this.done = done;
    }

    /**
     * Called by a writer thread for each row the server refused (after bisecting).
     *
     * @return null when the row will be reported; otherwise why the batch must fail instead
     */
    String refused(long row, String reason) {
        if (records == null || row < 0 || row >= records.size()) {
            return "row " + row + " of " + description + " has no record to report";
        }
        refusals.add(new Refusal((int) row, reason));
        return null;
    }

    /**
     * Once the batch is written: hands each refused row's record to {@code reporter} (once; the
     * worker writes it to the dead-letter topic under {@code errors.tolerance=all}) and says
     * whether every such write is done, so that the batch's offsets may be committed.
     *
     * @throws ConnectException when the reporter refuses (tolerance exceeded) or a dead-letter
     *     write failed: the batch's offsets must not be committed
     */
    boolean reported(ErrantRecordReporter reporter, String partition) {
        if (reports == null) {
            List<Future<Void>> r = new ArrayList<>(refusals.size());
            for (Refusal f : refusals) {
                SinkRecord record = records.get(f.row());
                r.add(
                        reporter.report(
                                record,
                                new ConnectException(
                                        partition
                                                + " offset "
                                                + record.kafkaOffset()
                                                + ": ClickHouse refused the row: "
                                                + f.reason())));
            }
            reports = r;
        }
        for (Future<Void> f : reports) {
            if (!f.isDone()) {
                return false;
            }
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectException("interrupted", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new ConnectException(
                        "a row of "
                                + description
                                + " that ClickHouse refused could not be written to the"
                                + " dead-letter topic: "
                                + e.getCause().getMessage(),
                        e.getCause());
            }
        }
        return true;
    }

    /** Rows the server refused so far. */
    int refusals() {
        return refusals.size();
    }
}
