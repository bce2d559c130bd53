package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.pipeline.sink.SealReason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gathers the rows of submissions without a token into batches of the writer's own: a copy of each
 * submission's rows is appended to the open batch, which is sealed at {@code batch.max_rows} rows,
 * {@code batch.max_bytes} bytes, {@code batch.linger} after its first rows (by a thread of its own,
 * started with the first submission), or by {@link #seal}. Each sealed batch gets the token {@code
 * <writer>@<run>/c<n>}: a retry of it is dropped by a deduplicating table, a later process's rows
 * never are. One per table of the writer; a batch holds rows of one layout of it (rows made before
 * the table was altered seal the rows gathered after, and the other way round). Thread-safe:
 * submitters append under its lock.
 */
final class Coalescer implements AutoCloseable {
    /** Takes a sealed batch: its block, marks, members and why it was sealed. */
    interface Sink {
        void sealed(Block block, AbsentRows absent, List<Submission> members, SealReason reason);
    }

    private final int maxRows;
    private final long maxBytes;
    private final long lingerNanos;
    private final Sink sink;
    private Block block;
    private AbsentRows absent;
    private TableLayout blockLayout;
    private List<Submission> members = new ArrayList<>();
    private long firstNanos;
    private Thread linger;
    private boolean closed;

    Coalescer(int maxRows, long maxBytes, long lingerNanos, Sink sink) {
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
        this.lingerNanos = lingerNanos;
        this.sink = sink;
    }

    /** Appends a copy of {@code rows} for {@code member}; seals when the batch is full. */
    synchronized void add(Rows rows, Submission member) {
        if (closed) {
            throw new IllegalStateException("the writer is closed");
        }
        if (block != null && rows.layout() != blockLayout) {
            sealLocked(SealReason.TABLE_CHANGED); // one layout per batch
        }
        if (block == null) {
            blockLayout = rows.layout();
            block = blockLayout.columns().newBlock();
            absent = new AbsentRows(block.columnCount());
            firstNanos = System.nanoTime();
            startLinger();
            notifyAll(); // the linger thread waits for a first row
        }
        int at = block.rows();
        int n = rows.size();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        Block from = rows.block();
        for (int c = 0; c < block.columnCount(); c++) {
            block.column(c).appendRowsFrom(from.column(c), all, 0, n);
        }
        AbsentRows marks = rows.absent();
        for (int c = 0; c < marks.columns(); c++) {
            if (marks.anyAbsent(c)) {
                for (int r = 0; r < n; r++) {
                    if (marks.isAbsent(c, r)) {
                        absent.markAbsent(c, at + r);
                    }
                }
            }
        }
        members.add(member);
        if (block.rows() >= maxRows) {
            sealLocked(SealReason.ROWS);
        } else if (block.dataBytes() >= maxBytes) {
            sealLocked(SealReason.BYTES);
        }
    }

    /** Seals the open batch, if any (a flush or close). */
    synchronized void seal(SealReason reason) {
        sealLocked(reason);
    }

    private void sealLocked(SealReason reason) {
        if (block == null || members.isEmpty()) {
            return;
        }
        Block b = block;
        AbsentRows a = absent;
        List<Submission> m = members;
        block = null;
        absent = null;
        blockLayout = null;
        members = new ArrayList<>();
        sink.sealed(b, a, m, reason);
    }

    private void startLinger() {
        if (linger != null || lingerNanos <= 0) {
            return;
        }
        linger = new Thread(this::lingerLoop, "sluice-writer-linger");
        linger.setDaemon(true);
        linger.start();
    }

    private synchronized void lingerLoop() {
        try {
            while (!closed) {
                if (block == null) {
                    wait();
                    continue;
                }
                long left = firstNanos + lingerNanos - System.nanoTime();
                if (left <= 0) {
                    sealLocked(SealReason.LINGER);
                } else {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    /** Seals what is open and stops the linger thread. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            sealLocked(SealReason.FLUSH);
            closed = true;
            t = linger;
            notifyAll();
        }
        if (t != null) {
            t.interrupt();
        }
    }
}
