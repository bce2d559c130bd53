package dev.sluice.pipeline.testing;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;

/**
 * An in-memory source: partitions of generated records, record {@code k} of a partition at position
 * {@code 10 × k} (a stride, so that a mix-up of indexes and positions shows). Polls go round-robin
 * over the partitions that have records left. Thread-safe for the test's reads of commits.
 *
 * <p>It assigns its partitions when opened, each at its checkpoint in {@link #checkpoints} (when
 * set) or at the position it was added with; {@link #revokeNext} and {@link #assignNext} make it
 * move partitions the way a Kafka consumer does, from inside its next {@code poll} or {@code idle}.
 * While paused it delivers nothing, like a consumer with every partition paused.
 */
public final class MemorySource implements Source {
    public static final long STRIDE = 10;

    /** A record text starting with this is one the source could not read; the rest is why. */
    public static final String UNREADABLE = "#unreadable ";

    private static final class Partition {
        final String name;
        final long count;
        final LongFunction<String> record;
        long next;
        long available;
        boolean ended;

        Partition(String name, long count, LongFunction<String> record, long resumeAt) {
            this.name = name;
            this.count = count;
            this.record = record;
            this.next = resumeAt;
            this.available = count;
        }
    }

    private final String name;
    private final List<Partition> partitions = new ArrayList<>();
    private final Deque<Runnable> rebalances = new ArrayDeque<>();
    private LocalCheckpoints checkpoints;
    private PartitionListener listener;
    private boolean replayable = true;
    private boolean interleave;
    private volatile boolean paused;
    private volatile int idles;
    private final Map<String, Long> commits = new ConcurrentHashMap<>();
    private final List<String> events;
    private int turn;
    private volatile int pauses;
    private volatile long polled;

    /**
     * @param events where commits are logged, shared with other fakes to check ordering
     */
    public MemorySource(String name, List<String> events) {
        this.name = name;
        this.events = events;
    }

    public MemorySource(String name) {
        this(name, new CopyOnWriteArrayList<>());
    }

    /** Where commits go and partitions start (as a file source's do); none by default. */
    public MemorySource checkpoints(LocalCheckpoints c) {
        this.checkpoints = c;
        return this;
    }

    /** Makes the source one that cannot read again (like stdin). */
    public MemorySource notReplayable() {
        this.replayable = false;
        return this;
    }

    @Override
    public boolean replayable() {
        return replayable;
    }

    /** Makes the source one whose partitions are read side by side (like Kafka). */
    public MemorySource interleaving() {
        this.interleave = true;
        return this;
    }

    @Override
    public boolean partitionsInterleave() {
        return interleave;
    }

    @Override
    public synchronized void open(PartitionListener l) {
        this.listener = l;
        for (Partition p : partitions) {
            assign(p);
        }
    }

    private void assign(Partition p) {
        Checkpoint cp =
                checkpoints != null
                        ? checkpoints.checkpoint(p.name)
                        : p.next > 0 ? Checkpoint.at(p.next * STRIDE) : Checkpoint.NONE;
        if (cp.position() >= 0) {
            p.next = Math.ceilDiv(cp.position(), STRIDE);
        }
        listener.assigned(p.name, cp);
    }

    /** At its next poll or idle, the source gives these partitions up (listener first). */
    public synchronized void revokeNext(String... names) {
        rebalances.add(
                () -> {
                    listener.revoking(List.of(names));
                    partitions.removeIf(p -> List.of(names).contains(p.name));
                });
    }

    /** At its next poll or idle, the source loses these partitions without a commit. */
    public synchronized void loseNext(String... names) {
        rebalances.add(
                () -> {
                    listener.lost(List.of(names));
                    partitions.removeIf(p -> List.of(names).contains(p.name));
                });
    }

    /**
     * At its next poll or idle, the source is assigned a partition of {@code count} records, which
     * starts at its checkpoint.
     */
    public synchronized void assignNext(String partition, long count, LongFunction<String> record) {
        rebalances.add(
                () -> {
                    Partition p = new Partition(partition, count, record, 0);
                    partitions.add(p);
                    assign(p);
                });
    }

    private void rebalance() {
        for (Runnable r; (r = rebalances.poll()) != null; ) {
            r.run();
        }
    }

    /** Adds a partition of {@code count} records (Long.MAX_VALUE for an endless one). */
    public MemorySource partition(String partition, long count, LongFunction<String> record) {
        return partition(partition, count, record, 0);
    }

    /** Adds a partition that resumes at {@code position} (a committed position). */
    public MemorySource partition(
            String partition, long count, LongFunction<String> record, long position) {
        partitions.add(new Partition(partition, count, record, Math.ceilDiv(position, STRIDE)));
        return this;
    }

    /**
     * Adds an endless partition whose records become readable only as {@link #offer} makes them so:
     * for tests of what happens while a source has nothing to give.
     */
    public MemorySource live(String partition, LongFunction<String> record) {
        Partition p = new Partition(partition, Long.MAX_VALUE, record, 0);
        p.available = 0;
        partitions.add(p);
        return this;
    }

    /** Makes {@code n} more records of live partition {@code partition} readable. */
    public synchronized void offer(String partition, long n) {
        for (Partition p : partitions) {
            if (p.name.equals(partition)) {
                p.available += n;
            }
        }
    }

    /** Adds a partition holding exactly these records. */
    public MemorySource partition(String partition, List<String> records) {
        List<String> copy = List.copyOf(records);
        return partition(partition, copy.size(), k -> copy.get((int) k));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
        into.clear();
        into.source = name;
        rebalance();
        if (paused) {
            throw new AssertionError("polled while paused: the runtime must idle instead");
        }
        Partition p = null;
        boolean live = false;
        for (int i = 0; i < partitions.size() && p == null; i++) {
            Partition candidate = partitions.get((turn + i) % partitions.size());
            live |= !candidate.ended;
            if (!candidate.ended
                    && (candidate.next < candidate.available
                            || candidate.next == candidate.count)) {
                p = candidate;
                turn = (turn + i + 1) % partitions.size();
            }
        }
        if (p == null) {
            return live ? 0 : -1;
        }
        into.partition = p.name;
        into.partitionStart = p.next == 0;
        int offset = 0;
        while (into.count < maxRecords && p.next < p.count && p.next < p.available) {
            String text = p.record.apply(p.next);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            into.ensureDataCapacity(offset + bytes.length);
            System.arraycopy(bytes, 0, into.data, offset, bytes.length);
            if (text.startsWith(UNREADABLE)) {
                into.addError(
                        offset,
                        offset + bytes.length,
                        p.next * STRIDE,
                        p.next + 1,
                        text.substring(UNREADABLE.length()));
            } else {
                into.add(offset, offset + bytes.length, p.next * STRIDE, p.next + 1);
            }
            offset += bytes.length;
            p.next++;
        }
        into.endPosition = p.next * STRIDE;
        if (p.next == p.count) {
            into.partitionEnd = true;
            p.ended = true;
        }
        polled += into.count;
        return into.count;
    }

    @Override
    public void pause() {
        pauses++;
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public synchronized void idle(long maxWaitNanos) {
        idles++;
        rebalance();
    }

    @Override
    public void commit(Map<String, Checkpoint> checkpointed) throws IOException {
        for (Map.Entry<String, Checkpoint> e : checkpointed.entrySet()) {
            long position = e.getValue().position();
            Long before = commits.get(e.getKey());
            if (before != null && before > position) {
                throw new AssertionError(
                        "commit of "
                                + e.getKey()
                                + " went back from "
                                + before
                                + " to "
                                + position);
            }
            if (position >= 0 && (before == null || before != position)) {
                commits.put(e.getKey(), position);
                events.add("commit " + e.getKey() + " " + position);
            }
        }
        if (checkpoints != null) {
            checkpoints.commit(checkpointed);
        }
    }

    public boolean paused() {
        return paused;
    }

    public int idles() {
        return idles;
    }

    /** The last committed position of each partition. */
    public Map<String, Long> commits() {
        return new LinkedHashMap<>(commits);
    }

    public int pauses() {
        return pauses;
    }

    public long polled() {
        return polled;
    }

    @Override
    public void close() {}
}
