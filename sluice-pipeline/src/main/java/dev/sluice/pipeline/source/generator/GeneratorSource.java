package dev.sluice.pipeline.source.generator;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The synthetic events: records with no bytes whose positions are row numbers — the generator's
 * decoder computes each row from {@code (seed, position)}, so rows do not depend on which reader
 * emits them or when.
 *
 * <p>Reader {@code i} of {@code n} owns the rows with {@code row % n == i} (partition {@code
 * gen-i-of-n}): it works for an unbounded row count, where contiguous ranges cannot, and every
 * reader stays busy to the end. A position committed for that partition is where it resumes (the
 * next owned row at or after it). When the number of readers changed since the positions were
 * committed, every reader resumes from the smallest position of the previous layout (when that
 * layout is the only one and committed every partition; otherwise from the start) — rows may be
 * generated again (at-least-once), none is skipped.
 *
 * <p>The rate limit ({@code rowsPerSecond}, for the whole pipeline) is split evenly among the
 * readers and paced on the injected clock; a reader that fell behind (paused by backpressure) may
 * catch up by at most a tenth of a second's worth of rows at once.
 */
public final class GeneratorSource implements Source {
    private static final Pattern PARTITION = Pattern.compile("gen-(\\d+)-of-(\\d+)");

    private final long rows;
    private final int reader;
    private final int readers;
    private final String partition;
    private final LocalCheckpoints checkpoints;
    private final Checkpoint start;
    private final Clock clock;
    private final double ratePerNano;
    private final long burst;
    private long next;
    private boolean endReported;
    private boolean paced;
    private long anchorNanos;
    private long emittedSinceAnchor;

    /**
     * @param rows how many rows in all readers together (0 = unbounded)
     * @param rowsPerSecond for all readers together (0 = no limit)
     */
    public GeneratorSource(
            long rows,
            long rowsPerSecond,
            int reader,
            int readers,
            LocalCheckpoints checkpoints,
            Clock clock) {
        if (readers < 1 || reader < 0 || reader >= readers) {
            throw new IllegalArgumentException("reader " + reader + " of " + readers);
        }
        this.rows = rows;
        this.reader = reader;
        this.readers = readers;
        this.partition = partitionName(reader, readers);
        this.checkpoints = checkpoints;
        this.clock = clock;
        double rate = (double) rowsPerSecond / readers;
        this.ratePerNano = rate / 1e9;
        this.burst = Math.max(1, (long) (rate / 10));
        Checkpoint own = checkpoints.checkpoint(partition);
        long resume = own.position() >= 0 ? own.position() : resumeFromOtherLayout();
        this.next = firstOwnedAtOrAfter(resume);
        // The runtime starts its tracker where reading starts; batches recorded past the position
        // are replayed only for this partition's own layout.
        this.start =
                own.position() >= 0 ? own : new Checkpoint(next, own.run(), java.util.List.of());
    }

    private static String partitionName(int reader, int readers) {
        return "gen-" + reader + "-of-" + readers;
    }

    private long resumeFromOtherLayout() {
        // Another layout: all rows below the smallest of its positions are handled — if it is
        // the only one and complete; otherwise start over (at-least-once, never a skipped row).
        Map<Integer, List<Long>> layouts = new HashMap<>();
        for (Map.Entry<String, Long> e : checkpoints.positions().entrySet()) {
            Matcher m = PARTITION.matcher(e.getKey());
            if (m.matches()) {
                layouts.computeIfAbsent(Integer.parseInt(m.group(2)), k -> new ArrayList<>())
                        .add(e.getValue());
            }
        }
        if (layouts.size() != 1) {
            return 0;
        }
        Map.Entry<Integer, List<Long>> only = layouts.entrySet().iterator().next();
        return only.getValue().size() == only.getKey() ? Collections.min(only.getValue()) : 0;
    }

    private long firstOwnedAtOrAfter(long position) {
        long r = Math.floorMod(position, readers);
        long first = position - r + reader;
        return first < position ? first + readers : first;
    }

    @Override
    public String name() {
        return "generator";
    }

    @Override
    public void open(PartitionListener listener) {
        listener.assigned(partition, start);
    }

    @Override
    public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
        into.clear();
        into.source = "generator";
        into.partition = partition;
        into.endPosition = next;
        boolean bounded = rows > 0;
        if (bounded && next >= rows) {
            if (endReported) {
                return -1;
            }
            endReported = true;
            into.partitionEnd = true;
            return 0;
        }
        long allowed = maxRecords;
        if (bounded) {
            allowed = Math.min(allowed, ownedBefore(rows) - ownedBefore(next));
        }
        if (ratePerNano > 0) {
            allowed = Math.min(allowed, awaitAllowance(maxWaitNanos));
        }
        int n = (int) allowed;
        into.partitionStart = n > 0 && next == reader;
        into.ensureRecordCapacity(n);
        for (int i = 0; i < n; i++) {
            into.add(0, 0, next, 0);
            next += readers;
        }
        emittedSinceAnchor += n;
        into.endPosition = next;
        if (bounded && next >= rows) {
            endReported = true;
            into.partitionEnd = true;
        }
        return n;
    }

    /** How many rows below {@code position} this reader owns. */
    private long ownedBefore(long position) {
        return position <= reader ? 0 : (position - reader + readers - 1) / readers;
    }

    /** Rows the rate allows now, waiting up to {@code maxWaitNanos} for the first. */
    private long awaitAllowance(long maxWaitNanos) {
        long now = clock.nanoTime();
        if (!paced) {
            paced = true;
            // The first row is due at once.
            anchorNanos = now - (long) Math.ceil(1 / ratePerNano);
        }
        long deadline = now + maxWaitNanos;
        while (true) {
            long earned = (long) ((now - anchorNanos) * ratePerNano) - emittedSinceAnchor;
            if (earned > burst) {
                anchorNanos = now - (long) (burst / ratePerNano);
                emittedSinceAnchor = 0;
                earned = burst;
            }
            if (earned > 0 || now - deadline >= 0) {
                return Math.max(earned, 0);
            }
            long due = anchorNanos + (long) Math.ceil((emittedSinceAnchor + 1) / ratePerNano);
            try {
                clock.sleep(Math.min(due, deadline) - now);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
            now = clock.nanoTime();
        }
    }

    @Override
    public void commit(Map<String, Checkpoint> committed) throws IOException {
        checkpoints.commit(committed);
    }

    @Override
    public void close() {}
}
