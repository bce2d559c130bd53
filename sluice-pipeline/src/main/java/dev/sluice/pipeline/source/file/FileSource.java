package dev.sluice.pipeline.source.file;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.framing.ChunkInput;
import dev.sluice.pipeline.source.framing.Framer;
import dev.sluice.pipeline.source.framing.RecordReader;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Reads files, one at a time and each to its end, in the order given; every file is a partition
 * named by its absolute path, positions are byte offsets in its decompressed content.
 *
 * <p>A file with a committed position resumes there: an uncompressed file seeks, a compressed one
 * is decompressed and discarded up to it. When the decoder reads a header, the header record is
 * delivered first (see {@link PolledRecords}). A file is known by more than its path ({@link
 * FileIdentity}: device, inode, first bytes): when another file now sits under a path whose
 * position was committed, it is read from its start, with a warning, under a run id of its own —
 * never from the old offset, and never with the old file's tokens.
 *
 * <p>In follow mode ({@code run}) plain files are tailed: at the end of what was written so far the
 * source moves on to the next file with data, and when none has any it checks, every poll interval
 * of the injected clock, for files that grew and for new files matching the inputs ({@link
 * FollowScan}). An unterminated last line waits for its newline. Compressed files are read once.
 *
 * <p>A large plain file read once may be shared by every reader, each reading one chunk of it
 * ({@link ChunkedFile}): such a share is the file's partition on this reader, for the chunk's
 * range, and its commits go through the file's {@link ChunkedFile}, which keeps the file's position
 * contiguous (property 8).
 */
public final class FileSource implements Source {
    /** How files are framed. */
    public record Reading(
            Supplier<Framer> framer, boolean header, int maxRecordBytes, int chunkBytes) {}

    /** What a reader reads of one file: all of it, or chunk {@code index} of a split file. */
    public record Share(InputFile file, ChunkedFile chunked, int index, long size) {
        /** The whole file. */
        public static Share whole(InputFile file) {
            return new Share(file, null, 0, file.size());
        }
    }

    private final Reading reading;
    private final FollowScan follow;
    private final LocalCheckpoints checkpoints;
    private final Clock clock;
    private PartitionListener listener;
    private final Deque<Partition> ready = new ArrayDeque<>();
    private final List<Partition> waiting = new ArrayList<>();
    private final Map<String, Partition> chunks = new HashMap<>();
    private final long total;
    private long nextScan;
    private volatile long bytesRead;

    /**
     * @param shares this reader's files and chunks of split files, in reading order (a split file
     *     only when not following)
     * @param follow how to follow the inputs, or null to read each file once to its end
     */
    public FileSource(
            Reading reading,
            List<Share> shares,
            FollowScan follow,
            LocalCheckpoints checkpoints,
            Clock clock) {
        this.reading = reading;
        this.follow = follow;
        this.checkpoints = checkpoints;
        this.clock = clock;
        long sum = 0;
        for (Share sh : shares) {
            Partition p = new Partition(sh.file(), sh.chunked(), sh.index());
            ready.add(p);
            if (sh.chunked() != null) {
                if (follow != null) {
                    throw new IllegalArgumentException("a followed file is not split");
                }
                chunks.put(sh.file().name(), p);
            }
            sum += sh.size();
        }
        this.total = sum;
        if (follow != null) {
            nextScan = clock.nanoTime() + follow.intervalNanos();
        }
    }

    @Override
    public String name() {
        return "file";
    }

    @Override
    public void open(PartitionListener listener) {
        this.listener = listener;
    }

    @Override
    public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) throws IOException {
        long deadline = clock.nanoTime() + maxWaitNanos;
        while (true) {
            Partition p = ready.peekFirst();
            if (p == null) {
                if (follow == null || !awaitData(deadline)) {
                    into.clear();
                    return follow == null ? -1 : 0;
                }
                continue;
            }
            if (p.nothingToRead()) {
                ready.removeFirst(); // a chunk of a file too small for this reader to get one
                continue;
            }
            int n = p.read(into, maxRecords);
            if (into.partitionEnd) {
                ready.removeFirst();
                p.close();
            } else if (n == 0 && follow != null) {
                ready.removeFirst();
                waiting.add(p);
                continue;
            }
            return n;
        }
    }

    /** Follow mode, nothing ready: scan on schedule, sleep until the deadline or next scan. */
    private boolean awaitData(long deadline) throws IOException {
        while (true) {
            long now = clock.nanoTime();
            if (now - nextScan >= 0) {
                scan();
                nextScan = now + follow.intervalNanos();
                if (!ready.isEmpty()) {
                    return true;
                }
            }
            if (now - deadline >= 0) {
                return false;
            }
            try {
                clock.sleep(Math.min(deadline - now, nextScan - now));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private void scan() throws IOException {
        for (Iterator<Partition> it = waiting.iterator(); it.hasNext(); ) {
            Partition p = it.next();
            long size;
            try {
                size = Files.size(p.file.path());
            } catch (NoSuchFileException e) {
                // Deleted: nothing is lost unless a partial last line was waiting for its end, in
                // which case reading again reports it as an error record.
                it.remove();
                if (p.reader.hasPartialRecord()) {
                    ready.add(p);
                } else {
                    p.close();
                }
                continue;
            }
            if (size != p.reader.inputPosition()) {
                it.remove();
                ready.add(p);
            }
        }
        for (InputFile f : follow.newFiles()) {
            ready.add(new Partition(f, null, 0));
        }
    }

    /**
     * Keeps the checkpoints; a chunk's becomes its file's ({@link ChunkedFile#committed}) — under
     * the shared store's lock, so that the readers' views of one file reach it in order.
     */
    @Override
    public void commit(Map<String, Checkpoint> committed) throws IOException {
        if (chunks.isEmpty()) {
            checkpoints.commit(committed);
            return;
        }
        synchronized (checkpoints) {
            Map<String, Checkpoint> files = new HashMap<>(committed);
            for (Map.Entry<String, Checkpoint> e : committed.entrySet()) {
                Partition p = chunks.get(e.getKey());
                if (p != null && p.chunk != null) {
                    files.put(e.getKey(), p.chunked.committed(p.index, e.getValue()));
                }
            }
            checkpoints.commit(files);
        }
    }

    @Override
    public long committedPosition(String partition, long position) {
        Partition p = chunks.get(partition);
        return p == null ? position : p.chunked.position();
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    /** The size of the files at start (compressed sizes); unknown (-1) when following. */
    @Override
    public long bytesTotal() {
        return follow == null ? total : -1;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Partition p : ready) {
            failure = closeQuietly(p, failure);
        }
        for (Partition p : waiting) {
            failure = closeQuietly(p, failure);
        }
        ready.clear();
        waiting.clear();
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException closeQuietly(Partition p, IOException failure) {
        try {
            p.close();
        } catch (IOException e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
        }
        return failure;
    }

    /**
     * One file, or one chunk of a split file: opened on first read, kept (with its partial last
     * record) while followed.
     */
    private final class Partition {
        final InputFile file;
        final ChunkedFile chunked;
        final int index;
        ChunkedFile.Chunk chunk;
        RecordReader reader;
        long resumeAt;
        LongSupplier linesBefore;
        long counted;
        boolean empty;

        Partition(InputFile file, ChunkedFile chunked, int index) {
            this.file = file;
            this.chunked = chunked;
            this.index = index;
        }

        /** True for a chunk the split left empty: it is not read at all (nor assigned). */
        boolean nothingToRead() {
            if (reader == null && !empty) {
                open();
            }
            return empty;
        }

        int read(PolledRecords b, int maxRecords) {
            if (reader == null) {
                open();
            }
            int n;
            if (resumeAt > 0 && reading.header()) {
                n = reader.read(b, 1, 0);
                if (n > 0 && !reader.finished()) {
                    skip();
                    b.endPosition = resumeAt;
                    resumeAt = 0;
                }
            } else {
                if (resumeAt > 0) {
                    skip();
                    resumeAt = 0;
                }
                n = reader.read(b, maxRecords, 0);
            }
            long consumed = reader.consumed();
            bytesRead += consumed - counted;
            counted = consumed;
            return n;
        }

        /** To the resume position, or a chunk's start (counting its lines from there). */
        private void skip() {
            if (linesBefore != null) {
                reader.startAt(resumeAt, linesBefore);
            } else {
                reader.skipTo(resumeAt);
            }
        }

        private void open() {
            if (chunked != null) {
                openChunk();
                return;
            }
            ChunkInput input;
            Checkpoint cp = Checkpoint.NONE;
            try {
                // The checkpoint first: the identity is of the file as it is before reading it.
                cp = checkpoint();
                input = FileInputs.open(file, follow != null);
            } catch (IOException e) {
                input = FileInputs.failed(e);
            }
            reader =
                    new RecordReader(
                            "file",
                            file.name(),
                            input,
                            reading.framer().get(),
                            reading.maxRecordBytes(),
                            reading.chunkBytes());
            resumeAt = Math.max(0, cp.position());
            if (listener != null) {
                listener.assigned(file.name(), cp);
            }
        }

        private void openChunk() {
            chunk = chunked.chunk(index, listener);
            if (chunk == null) {
                empty = true;
                return;
            }
            ChunkInput input =
                    chunk.failure() != null
                            ? FileInputs.failed(chunk.failure())
                            : FileInputs.openRange(file, chunk.end());
            reader =
                    new RecordReader(
                            "file",
                            file.name(),
                            input,
                            reading.framer().get(),
                            reading.maxRecordBytes(),
                            reading.chunkBytes());
            resumeAt = chunk.start();
            if (resumeAt > 0) {
                int i = index;
                linesBefore = () -> chunked.linesBefore(i);
                // The bytes before the chunk are not this reader's to count (the first chunk's
                // are, as for a resumed file: what was committed).
                counted = index == 0 ? 0 : resumeAt;
            }
            if (listener != null) {
                listener.assigned(file.name(), chunk.checkpoint());
            }
        }

        private Checkpoint checkpoint() throws IOException {
            return checkpointOf(file, checkpoints, listener);
        }

        void close() throws IOException {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /**
     * The file's checkpoint — unless it is not the file the checkpoint belongs to: then its own
     * fresh start (see the class comment).
     */
    static Checkpoint checkpointOf(
            InputFile file, LocalCheckpoints checkpoints, PartitionListener listener)
            throws IOException {
        String name = file.name();
        FileIdentity now;
        try {
            now = FileIdentity.of(file.path());
        } catch (IOException e) {
            return checkpoints.checkpoint(name); // unreadable: reading it fails with the reason
        }
        String kept = checkpoints.identity(name);
        FileIdentity before = kept == null ? null : FileIdentity.parse(kept);
        String why;
        try {
            why = before == null ? null : before.differs(file.path());
        } catch (IOException e) {
            why = "it cannot be read (" + e.getMessage() + ")";
        }
        Checkpoint cp = checkpoints.checkpoint(name);
        if (why == null) {
            if (before == null) {
                checkpoints.identify(name, now.toString());
            }
            return cp;
        }
        checkpoints.startOver(name, now.toString());
        if (listener != null && (cp.position() > 0 || !cp.inFlight().isEmpty())) {
            listener.warning(
                    name
                            + " is not the file whose position "
                            + Math.max(0, cp.position())
                            + " was committed: "
                            + why
                            + "; reading it from its start");
        }
        return checkpoints.checkpoint(name);
    }
}
