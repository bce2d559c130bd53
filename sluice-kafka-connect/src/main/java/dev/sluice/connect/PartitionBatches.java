package dev.sluice.connect;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.WriteOptions;
import dev.sluice.pipeline.writer.Written;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One partition's rows on their way to ClickHouse: the open batch (consecutive offsets, filled by
 * {@code put}), the batches sealed and not yet handed to the writer, and the batches sent, in
 * offset order, until ClickHouse acknowledged them. The offset this partition may commit is the one
 * after the last batch that is acknowledged together with every batch before it: a record is never
 * committed before its row is written (or it went to the errant-record reporter, which the worker
 * awaits before committing).
 *
 * <p>A batch's token is {@code topic/partition/first-last}: the same offsets give the same token,
 * and its {@code now()} is its first record's timestamp, so a batch sent again with the same
 * boundaries builds the same block, which a table that deduplicates drops. Batches are sealed at
 * {@code batch.max.records} offsets or after {@code batch.linger.ms}; with a {@link BatchLedger},
 * sealed batches are recorded there before they are sent ({@link #unrecorded}, then {@link
 * #submitSealed}), and when the partition is read again the recorded batches past the starting
 * offset are re-created at exactly their boundaries — whatever the batch settings and linger —
 * before new records are batched by the settings (ADR 0005).
 *
 * <p>Where the server's refused rows go to the reporter ({@link RefusedRows}), the open batch keeps
 * its records by row, so that a row the writer's bisection finds refused is reported as the record
 * it came from; a batch's offsets are committable only once those reports are written.
 */
final class PartitionBatches {
    private final TopicPartition partition;
    private final ClickHouseWriter writer;
    private final RowsPool pool;
    private final RowFiller filler;
    private final RefusedRows refused;
    private final ErrantRecordReporter reporter;
    private final BatchCuts cuts;
    private final List<Sealed> sealed = new ArrayList<>();
    private final Deque<SentBatch> sent = new ArrayDeque<>();
    private Rows open;
    private List<SinkRecord> openRecords;
    private long committable = -1;

    /** A batch sealed, not yet handed to the writer. */
    private record Sealed(Rows rows, List<SinkRecord> records, BatchCuts.Cut cut) {}

    /**
     * @param table the table's writer, rows and refused-row routing ({@link TableSink#refused}:
     *     null when a refused row fails its batch)
     * @param reporter takes the refused rows' records; null exactly when the table routes none
     * @param replay the recorded batches to re-create, in offset order (empty without a ledger)
     */
    PartitionBatches(
            TopicPartition partition,
            TableSink table,
            ErrantRecordReporter reporter,
            List<BatchLedger.Entry> replay) {
        if ((table.refused() == null) != (reporter == null)) {
            throw new IllegalArgumentException("refused rows need a reporter, and only they");
        }
        this.partition = partition;
        this.writer = table.writer();
        this.pool = table.pool();
        this.filler = table.filler();
        this.refused = table.refused();
        this.reporter = reporter;
        this.cuts = new BatchCuts(replay);
    }

    TopicPartition partition() {
        return partition;
    }

    /** How a record's value becomes a row of this partition's table. */
    RowFiller filler() {
        return filler;
    }

    /**
     * The open batch's rows for the record at {@code offset}: the open batch is sealed first where
     * {@link BatchCuts#cutBefore} says so, and a batch is opened when none is.
     *
     * @param nanos now, on the task's monotonic clock
     */
    Rows rowsFor(long offset, Long timestampMillis, long nanos) {
        if (cuts.cutBefore(offset)) {
            seal();
        }
        if (open == null) {
            open = pool.take();
            openRecords = refused != null ? new ArrayList<>() : null;
            // a replay builds the very same block: the record's time, else the recorded one
            long now =
                    timestampMillis != null && timestampMillis >= 0
                            ? timestampMillis / 1000
                            : System.currentTimeMillis() / 1000;
            cuts.open(offset, now, nanos);
        }
        return open;
    }

    /**
     * True when {@code records[k]} joins the open batch right after {@code records[k - 1]}, both
     * not consumed yet: it is of this partition ({@code of[k]}) and no cut comes between them
     * ({@link BatchCuts#continues}). Nothing changes.
     */
    boolean takesNext(SinkRecord[] records, PartitionBatches[] of, int k, int maxRecords) {
        return of[k] == this
                && cuts.continues(
                        records[k - 1].kafkaOffset(), records[k].kafkaOffset(), maxRecords);
    }

    /** Marks {@code offset} as part of the open batch (a row, or a record reported as errant). */
    void consumed(long offset) {
        cuts.consumed(offset);
    }

    /** {@code r} became the open batch's next row. */
    void added(SinkRecord r) {
        if (openRecords != null) {
            openRecords.add(r);
        }
    }

    /** True when the open batch is complete ({@link BatchCuts#full}). */
    boolean full(int maxRecords) {
        return cuts.full(maxRecords);
    }

    /** True when the open batch is due by time ({@link BatchCuts#lingered}). */
    boolean lingeredSince(long nanos, long lingerNanos) {
        return cuts.lingered(nanos, lingerNanos);
    }

    /** Seals the open batch: it is sent by the next {@link #submitSealed}. */
    void seal() {
        if (open == null) {
            return;
        }
        Rows rows = open;
        List<SinkRecord> records = openRecords;
        open = null;
        openRecords = null;
        pool.sealed(rows);
        BatchCuts.Cut cut = cuts.cut();
        if (cut != null) {
            sealed.add(new Sealed(rows, records, cut));
        } else {
            pool.giveBack(rows);
        }
    }

    /** The boundaries of the sealed batches to record before they are sent (not those replayed). */
    List<BatchLedger.Entry> unrecorded() {
        List<BatchLedger.Entry> out = new ArrayList<>();
        for (Sealed s : sealed) {
            if (!s.cut.recorded()) {
                BatchCuts.Cut c = s.cut;
                out.add(new BatchLedger.Entry(partition, c.first(), c.last(), c.nowSeconds()));
            }
        }
        return out;
    }

    /** Hands the sealed batches to the writer (blocking while its in-flight limit is reached). */
    void submitSealed() {
        int i = 0;
        try {
            for (; i < sealed.size(); i++) {
                submit(sealed.get(i));
            }
        } finally {
            sealed.subList(0, i).clear();
        }
    }

    private void submit(Sealed s) {
        BatchCuts.Cut c = s.cut;
        String token =
                partition.topic() + "/" + partition.partition() + "/" + c.first() + "-" + c.last();
        String description =
                partition.topic()
                        + "-"
                        + partition.partition()
                        + " offsets "
                        + c.first()
                        + ".."
                        + c.last();
        WriteOptions options =
                WriteOptions.token(token)
                        .describedAs(description)
                        .nowSeconds(c.nowSeconds())
                        // where the table cannot drop a copy, the writer looks it up first
                        .replayed(c.replayed());
        CompletableFuture<Written> done = new CompletableFuture<>();
        SentBatch b = new SentBatch(c.first(), c.last(), description, s.rows, s.records, done);
        if (refused != null) {
            refused.register(b); // before the writer can meet a refused row
        }
        try {
            writer.submit(s.rows, options).whenComplete(forward(done));
        } catch (RuntimeException e) {
            if (refused != null) {
                refused.unregister(b);
            }
            throw e;
        }
        sent.addLast(b);
    }

    private static <T> java.util.function.BiConsumer<T, Throwable> forward(
            CompletableFuture<T> to) {
        return (v, e) -> {
            if (e != null) {
                to.completeExceptionally(e);
            } else {
                to.complete(v);
            }
        };
    }

    /**
     * Drops the acknowledged batches from the head — reporting the rows the server refused in them
     * to the errant-record reporter, and waiting for those reports to be written — and returns the
     * offset to commit, or -1 when nothing is acknowledged yet.
     *
     * @throws IllegalStateException with the writer's reason when the oldest unacknowledged batch
     *     failed: its rows are not written, so nothing from it on may be committed
     * @throws org.apache.kafka.connect.errors.ConnectException when a refused row cannot be
     *     reported (the reporter's tolerance, a failed dead-letter write)
     */
    long committable() {
        while (!sent.isEmpty() && sent.peekFirst().done.isDone()) {
            SentBatch s = sent.peekFirst();
            failure(s);
            if (refused != null && !s.reported(reporter, partition.toString())) {
                break; // its dead-letter writes are under way: committable at a later call
            }
            committable = s.last + 1;
            sent.removeFirst();
            if (refused != null) {
                refused.unregister(s);
            }
            pool.giveBack(s.rows); // the writer is done with them: the completion is done
        }
        return committable;
    }

    /** The partition is no longer this task's: its batches in flight are left to finish alone. */
    void abandon() {
        if (refused != null) {
            for (SentBatch s : sent) {
                refused.unregister(s);
            }
        }
        sent.clear();
        sealed.clear();
        open = null;
        openRecords = null;
    }

    /**
     * Throws the reason of the first failed batch, if any.
     *
     * @throws IllegalStateException naming the batch and the writer's reason
     */
    void checkFailures() {
        for (SentBatch s : sent) {
            if (s.done.isDone()) {
                failure(s);
            }
        }
    }

    private void failure(SentBatch s) {
        if (!s.done.isCompletedExceptionally()) {
            return;
        }
        try {
            s.done.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "the batch of "
                            + partition
                            + " offsets "
                            + s.first
                            + ".."
                            + s.last
                            + " was not written: "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.CancellationException e) {
            throw new IllegalStateException("the batch of " + partition + " was cancelled", e);
        }
    }
}
