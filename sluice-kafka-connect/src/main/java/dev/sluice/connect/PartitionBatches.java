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
 * {@code put}) and the batches sent, in offset order, until ClickHouse acknowledged them. The
 * offset this partition may commit is the one after the last batch that is acknowledged together
 * with every batch before it: a record is never committed before its row is written (or it went to
 * the errant-record reporter, which the worker awaits before committing).
 *
 * <p>Where the server's refused rows go to the reporter ({@link RefusedRows}), the open batch keeps
 * its records by row, so that a row the writer's bisection finds refused is reported as the record
 * it came from; a batch's offsets are committable only once those reports are written.
 *
 * <p>A batch's token is {@code topic/partition/first-last}: the same offsets give the same token,
 * so where a batch is sent again with the same boundaries (a retry; a replay after a restart of a
 * batch sealed by size) a table that deduplicates drops it.
 */
final class PartitionBatches {
    private final TopicPartition partition;
    private final ClickHouseWriter writer;
    private final RefusedRows refused;
    private final ErrantRecordReporter reporter;
    private final Deque<SentBatch> sent = new ArrayDeque<>();
    private Rows open;
    private List<SinkRecord> openRecords;
    private long first = -1;
    private long last = -1;
    private long openedNanos;
    private long nowSeconds = -1;
    private long committable = -1;

    /**
     * @param refused where the writer's refused rows are routed; null when a refused row fails its
     *     batch
     * @param reporter takes the refused rows' records; null exactly when {@code refused} is
     */
    PartitionBatches(
            TopicPartition partition,
            ClickHouseWriter writer,
            RefusedRows refused,
            ErrantRecordReporter reporter) {
        if ((refused == null) != (reporter == null)) {
            throw new IllegalArgumentException("refused rows need a reporter, and only they");
        }
        this.partition = partition;
        this.writer = writer;
        this.refused = refused;
        this.reporter = reporter;
    }

    ClickHouseWriter writer() {
        return writer;
    }

    /** The open batch's rows, opened at {@code offset} when none is open. */
    Rows rowsFor(long offset, Long timestampMillis, long nanos) {
        if (open == null) {
            open = writer.newRows();
            openRecords = refused != null ? new ArrayList<>() : null;
            first = offset;
            openedNanos = nanos;
            nowSeconds =
                    timestampMillis != null && timestampMillis >= 0 ? timestampMillis / 1000 : -1;
        }
        return open;
    }

    /** Marks {@code offset} as part of the open batch (a row, or a record reported as errant). */
    void consumed(long offset) {
        last = offset;
    }

    /** {@code r} became the open batch's next row. */
    void added(SinkRecord r) {
        if (openRecords != null) {
            openRecords.add(r);
        }
    }

    /** Offsets the open batch spans (0 when none is open). */
    long span() {
        return open == null ? 0 : last - first + 1;
    }

    boolean lingeredSince(long nanos, long lingerNanos) {
        return open != null && nanos - openedNanos >= lingerNanos;
    }

    /** Sends the open batch (blocking while the writer's in-flight limit is reached). */
    void seal() {
        if (open == null) {
            return;
        }
        if (last < first) {
            // opened but no record consumed (its first record failed before being counted)
            open = null;
            openRecords = null;
            return;
        }
        String token = partition.topic() + "/" + partition.partition() + "/" + first + "-" + last;
        String description =
                partition.topic() + "-" + partition.partition() + " offsets " + first + ".." + last;
        WriteOptions options = WriteOptions.token(token).describedAs(description);
        if (nowSeconds >= 0) {
            options = options.nowSeconds(nowSeconds); // a replay builds the very same block
        }
        Rows rows = open;
        List<SinkRecord> records = openRecords;
        open = null;
        openRecords = null;
        CompletableFuture<Written> done = new CompletableFuture<>();
        SentBatch b = new SentBatch(first, last, description, records, done);
        if (refused != null) {
            refused.register(b); // before the writer can meet a refused row
        }
        try {
            writer.submit(rows, options).whenComplete(forward(done));
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
