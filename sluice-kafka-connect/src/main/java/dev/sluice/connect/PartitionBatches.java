package dev.sluice.connect;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.WriteOptions;
import dev.sluice.pipeline.writer.Written;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's rows on their way to ClickHouse: the open batch (consecutive offsets, filled by
 * {@code put}) and the batches sent, in offset order, until ClickHouse acknowledged them. The
 * offset this partition may commit is the one after the last batch that is acknowledged together
 * with every batch before it: a record is never committed before its row is written (or it went to
 * the errant-record reporter, which the worker awaits before committing).
 *
 * <p>A batch's token is {@code topic/partition/first-last}: the same offsets give the same token,
 * so where a batch is sent again with the same boundaries (a retry; a replay after a restart of a
 * batch sealed by size) a table that deduplicates drops it.
 */
final class PartitionBatches {
    private final TopicPartition partition;
    private final ClickHouseWriter writer;
    private final Deque<Sent> sent = new ArrayDeque<>();
    private Rows open;
    private long first = -1;
    private long last = -1;
    private long openedNanos;
    private long nowSeconds = -1;
    private long committable = -1;

    /** A batch sent: its offsets and its completion. */
    private record Sent(long first, long last, CompletableFuture<Written> done) {}

    PartitionBatches(TopicPartition partition, ClickHouseWriter writer) {
        this.partition = partition;
        this.writer = writer;
    }

    ClickHouseWriter writer() {
        return writer;
    }

    /** The open batch's rows, opened at {@code offset} when none is open. */
    Rows rowsFor(long offset, Long timestampMillis, long nanos) {
        if (open == null) {
            open = writer.newRows();
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
            return;
        }
        String token = partition.topic() + "/" + partition.partition() + "/" + first + "-" + last;
        WriteOptions options =
                WriteOptions.token(token)
                        .describedAs(
                                partition.topic()
                                        + "-"
                                        + partition.partition()
                                        + " offsets "
                                        + first
                                        + ".."
                                        + last);
        if (nowSeconds >= 0) {
            options = options.nowSeconds(nowSeconds); // a replay builds the very same block
        }
        Rows rows = open;
        open = null;
        sent.addLast(new Sent(first, last, writer.submit(rows, options)));
    }

    /**
     * Drops the acknowledged batches from the head and returns the offset to commit, or -1 when
     * nothing is acknowledged yet.
     *
     * @throws IllegalStateException with the writer's reason when the oldest unacknowledged batch
     *     failed: its rows are not written, so nothing from it on may be committed
     */
    long committable() {
        while (!sent.isEmpty() && sent.peekFirst().done.isDone()) {
            Sent s = sent.peekFirst();
            failure(s);
            committable = s.last + 1;
            sent.removeFirst();
        }
        return committable;
    }

    /**
     * Throws the reason of the first failed batch, if any.
     *
     * @throws IllegalStateException naming the batch and the writer's reason
     */
    void checkFailures() {
        for (Sent s : sent) {
            if (s.done.isDone()) {
                failure(s);
            }
        }
    }

    private void failure(Sent s) {
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
