package dev.sluice.connect;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Emptied {@link Rows} of one table's writer, for the next batches: a batch's column buffers grow
 * to its size once and are filled again after its completion (the writer's contract: {@code
 * clear()} and refill once the completion is done), instead of every batch growing new buffers by
 * doubling — garbage of about twice the batch's size, in arrays large enough to go straight to the
 * old generation — and the collections that follow.
 *
 * <p>Keeps buffers that held at most {@code maxBytes} together (their rows' Native size when they
 * were given back; a buffer's capacity may be up to twice that). When it has none to give, new rows
 * get, column by column, room for as many rows and bytes as the largest batch sealed so far held:
 * allocated once, instead of growing by copies again (with the pool full, as under backpressure,
 * every batch would). Used from the task's thread only.
 */
final class RowsPool {
    private final ClickHouseWriter writer;
    private final long maxBytes;
    private final Deque<Rows> free = new ArrayDeque<>();
    private final Deque<Long> sizes = new ArrayDeque<>();
    private long pooledBytes;
    // the largest batch sealed so far: its rows, and each column's bytes
    private int largestRows;
    private long[] largestColumnBytes = new long[0];

    RowsPool(ClickHouseWriter writer, long maxBytes) {
        this.writer = writer;
        this.maxBytes = maxBytes;
    }

    /** Empty rows of the writer's layout: given back ones first. */
    Rows take() {
        Rows r = free.pollFirst();
        if (r == null) {
            r = writer.newRows();
            if (largestColumnBytes.length == r.columnNames().size()) { // else: the table changed
                for (int i = 0; i < largestColumnBytes.length; i++) {
                    r.column(i).reserveMore(largestRows, largestColumnBytes[i]);
                }
            }
            return r;
        }
        pooledBytes -= sizes.pollFirst();
        return r;
    }

    /**
     * {@code rows} are a sealed batch, complete: new rows get room for them from now on. Noted at
     * the seal rather than when they come back, because a new task's first batches are all in
     * flight before any comes back, and the next ones would grow by copies again.
     */
    void sealed(Rows rows) {
        if (rows.size() > largestRows || largestColumnBytes.length != rows.columnNames().size()) {
            largestRows = rows.size();
            largestColumnBytes = new long[rows.columnNames().size()];
            for (int i = 0; i < largestColumnBytes.length; i++) {
                largestColumnBytes[i] = rows.column(i).dataBytes();
            }
        }
    }

    /**
     * {@code rows}, sealed ({@link #sealed}) and their completion done, for reuse (dropped when the
     * pool is full).
     */
    void giveBack(Rows rows) {
        long bytes = rows.dataBytes();
        if (pooledBytes + bytes > maxBytes) {
            return;
        }
        rows.clear();
        free.addFirst(rows); // the most recently used first: its buffers are the warmest
        sizes.addFirst(bytes);
        pooledBytes += bytes;
    }
}
