package dev.sluice.pipeline.source.file;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.framing.Splitter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One large plain file read as consecutive chunks, each by its own pipeline thread, so that one
 * file decodes on every thread. The file stays one partition — named by its path, positions are
 * byte offsets in it, and its checkpoint, ledger entries and tokens are the file's — and each chunk
 * is that partition's range {@code [start, end)} on one thread: chunk {@code i} of every split file
 * goes to reader {@code i}, so no thread ever holds two ranges of one partition.
 *
 * <p><b>Chunks.</b> The file's unread part (from its committed position to its size when the first
 * chunk is opened) is cut into as many chunks as there are readers, each at least {@code
 * minChunkBytes}, at record boundaries ({@link Splitter}: CSV by a scan that follows quotes from
 * the committed position). A cut never falls inside a batch of the ledger still to replay: it moves
 * to that batch's first record, so every replayed batch is re-created whole by one thread, at its
 * recorded boundaries and under its recorded token (property 2), however a restart cuts the file.
 * The last chunk reads to the file's end, as an unsplit file would.
 *
 * <p><b>Commits are contiguous (property 8).</b> Each thread commits its chunk's position; the
 * file's position is the first chunk's, or — once a chunk is complete — the next one's, and so on:
 * every record before it is handled, however far later chunks have gone. The boundaries of every
 * batch past that position stay in the file's checkpoint (later chunks' included, acknowledged or
 * not: they may be in ClickHouse), so a restart replays them at their recorded boundaries. A chunk
 * thread gets its checkpoint as a fresh partition (position -1, the ledger entries in its range)
 * and the first chunk the file's own.
 *
 * <p><b>Lines.</b> A chunk counts lines from its start; the lines before it are counted (a pass
 * over the file up to the chunk's start, eight bytes at a time) only when a record's line is asked
 * for — an error message or a dead letter — and then once per chunk.
 *
 * <p>Thread-safe: the readers' sources share it. Commits are made under the lock of the shared
 * {@link LocalCheckpoints}, so the file's positions reach it in order.
 */
public final class ChunkedFile {
    /** A chunk to read: records from {@code start} to {@code end} (exclusive). */
    record Chunk(long start, long end, Checkpoint checkpoint, IOException failure) {}

    private static final Comparator<LedgerEntry> BY_FIRST =
            Comparator.comparingLong(LedgerEntry::first);

    private final InputFile file;
    private final int readers;
    private final Splitter splitter;
    private final long minChunkBytes;
    private final LocalCheckpoints checkpoints;

    // The plan, made when the first chunk is opened.
    private boolean planned;
    private long[] bounds; // chunk i is [bounds[i], bounds[i + 1])
    private Checkpoint fileCheckpoint;
    private IOException failure;

    // Commits: under `commits`, taken inside the checkpoints' lock (never the other way round,
    // while planning takes this object's lock and then the checkpoints').
    private final Object commits = new Object();
    private long[] reported;
    private final List<LedgerEntry> entries = new ArrayList<>();
    private long position = -1;

    // Line offsets, by chunk (-1: not counted yet).
    private final Object counting = new Object();
    private long[] linesBefore;

    /**
     * @param readers how many chunks at most (one per reader)
     * @param minChunkBytes the smallest chunk worth a thread of its own
     */
    public ChunkedFile(
            InputFile file,
            int readers,
            Splitter splitter,
            long minChunkBytes,
            LocalCheckpoints checkpoints) {
        this.file = file;
        this.readers = readers;
        this.splitter = splitter;
        this.minChunkBytes = minChunkBytes;
        this.checkpoints = checkpoints;
    }

    InputFile file() {
        return file;
    }

    /**
     * Chunk {@code index}, or null when the file has fewer chunks (nothing for that reader). The
     * first call plans the chunks: it checks the file's identity against its checkpoint (a warning
     * through {@code listener} when another file now sits under the path) and finds the cuts.
     */
    synchronized Chunk chunk(int index, PartitionListener listener) {
        if (!planned) {
            planned = true;
            plan(listener);
        }
        if (failure != null) {
            // Unreadable: the first chunk reads it whole and reports why, as an unsplit file would.
            return index == 0 ? new Chunk(0, Long.MAX_VALUE, Checkpoint.NONE, failure) : null;
        }
        if (index >= bounds.length - 1) {
            return null;
        }
        long start = bounds[index];
        long end = bounds[index + 1];
        List<LedgerEntry> mine = new ArrayList<>();
        for (LedgerEntry e : fileCheckpoint.inFlight()) {
            if ((index == 0 || e.first() >= start) && e.first() < end) {
                mine.add(e);
            }
        }
        Checkpoint cp =
                new Checkpoint(
                        index == 0 ? fileCheckpoint.position() : -1, fileCheckpoint.run(), mine);
        return new Chunk(start, end, cp, null);
    }

    private void plan(PartitionListener listener) {
        try {
            fileCheckpoint = FileSource.checkpointOf(file, checkpoints, listener);
            long start = Math.max(0, fileCheckpoint.position());
            long[] cuts;
            try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
                long size = ch.size();
                int n = (int) Math.max(1, Math.min(readers, (size - start) / minChunkBytes));
                long[] targets = new long[n - 1];
                for (int j = 1; j < n; j++) {
                    targets[j - 1] = start + (size - start) / n * j;
                }
                cuts = n > 1 ? splitter.boundaries(ch, start, size, targets) : new long[0];
            }
            cuts = clearOfReplays(cuts, start, fileCheckpoint.inFlight());
            bounds = new long[cuts.length + 2];
            bounds[0] = start;
            System.arraycopy(cuts, 0, bounds, 1, cuts.length);
            bounds[bounds.length - 1] = Long.MAX_VALUE;
            reported = new long[cuts.length + 1];
            Arrays.fill(reported, -1);
            reported[0] = fileCheckpoint.position();
            position = fileCheckpoint.position();
            linesBefore = new long[cuts.length + 1];
            Arrays.fill(linesBefore, -1);
        } catch (IOException e) {
            // The first chunk reads the whole file (and fails with the reason); commits pass.
            failure = e;
            fileCheckpoint = Checkpoint.NONE;
            bounds = new long[] {0, Long.MAX_VALUE};
            reported = new long[] {-1};
            position = -1;
            linesBefore = new long[] {0};
        }
    }

    /**
     * Moves each cut that would fall inside a recorded batch to that batch's first record, and
     * drops cuts that then no longer lie ahead of the previous one.
     */
    static long[] clearOfReplays(long[] cuts, long start, List<LedgerEntry> inFlight) {
        long[] out = new long[cuts.length];
        int n = 0;
        long last = start;
        for (long cut : cuts) {
            long c = cut;
            for (LedgerEntry e : inFlight) {
                if (e.first() < c && c <= e.last()) {
                    c = e.first();
                }
            }
            if (c > last) {
                out[n++] = c;
                last = c;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The file's checkpoint after chunk {@code index} committed {@code chunk}: the contiguous
     * position (class comment) and every batch boundary past it. Called with the checkpoints' lock
     * held.
     */
    Checkpoint committed(int index, Checkpoint chunk) {
        synchronized (commits) {
            reported[index] = Math.max(reported[index], chunk.position());
            for (LedgerEntry e : chunk.inFlight()) {
                if (!entries.contains(e)) {
                    entries.removeIf(old -> old.overlaps(e)); // a replay sealed early: the later
                    entries.add(e);
                }
            }
            long pos = reported[0];
            for (int i = 0; i + 1 < reported.length && reported[i] >= bounds[i + 1]; i++) {
                pos = Math.max(reported[i + 1], bounds[i + 1]);
            }
            position = Math.max(position, pos);
            long p = position;
            entries.removeIf(e -> e.last() < p);
            entries.sort(BY_FIRST);
            return new Checkpoint(position, chunk.run(), entries);
        }
    }

    /** The file's committed position as last computed, or -1. */
    long position() {
        synchronized (commits) {
            return position;
        }
    }

    /** The newlines before chunk {@code index}'s start, or -1 when they cannot be counted. */
    long linesBefore(int index) {
        synchronized (counting) {
            if (linesBefore[index] >= 0) {
                return linesBefore[index];
            }
            try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
                if (linesBefore[0] < 0) {
                    linesBefore[0] = Splitter.newlines(ch, 0, bounds[0]);
                }
                int known = index;
                while (linesBefore[known] < 0) {
                    known--;
                }
                long n = linesBefore[known];
                for (int i = known + 1; i <= index; i++) {
                    n += Splitter.newlines(ch, bounds[i - 1], bounds[i]);
                    linesBefore[i] = n;
                }
                return n;
            } catch (IOException e) {
                return -1;
            }
        }
    }
}
