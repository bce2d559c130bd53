package dev.sluice.pipeline.checkpoint;

import dev.sluice.pipeline.source.Checkpoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where sources whose partitions live on this host — files, the generator — keep their checkpoints:
 * {@code committed.json} (positions, input identities, runs) and {@code ledger.jsonl} (the
 * boundaries of batches past them) in the pipeline's {@code checkpoint.dir}, or memory when there
 * is none. Sources whose position lives elsewhere (Kafka: the group's committed offsets) ignore it.
 *
 * <p>A commit first replaces {@code committed.json} (moved positions, and the identities of inputs
 * opened since: durable before any of their batches is recorded), then appends the boundaries not
 * yet in the ledger (one fsync for all), then drops ledger entries behind the new positions: after
 * a crash the ledger knows every batch the server may hold past the committed positions, and which
 * input they were read from (property 2).
 *
 * <p>Thread-safe: the sources of every pipeline thread share one.
 */
public final class LocalCheckpoints implements AutoCloseable {
    private final CheckpointStore store;
    private final Ledger ledger;
    private final String run;
    private final Map<String, Long> memoryPositions = new TreeMap<>();
    private final Map<String, List<LedgerEntry>> memoryInFlight = new HashMap<>();
    private final Map<String, String> memoryIdentities = new HashMap<>();
    private final Map<String, String> memoryRuns = new HashMap<>();

    private LocalCheckpoints(CheckpointStore store, Ledger ledger, String run) {
        this.store = store;
        this.ledger = ledger;
        this.run = run;
    }

    /** The checkpoints of {@code pipeline} in {@code dir}, created when missing. */
    public static LocalCheckpoints open(Path dir, String pipeline) throws IOException {
        CheckpointStore store = CheckpointStore.open(dir, pipeline);
        Ledger ledger = Ledger.open(dir, store.positions());
        return new LocalCheckpoints(store, ledger, ledger.run());
    }

    /** Checkpoints kept in memory only, for a run nobody resumes; a fresh run id. */
    public static LocalCheckpoints inMemory() {
        return inMemory(Map.of());
    }

    /** In memory, starting from {@code positions} (tests, and callers that persist elsewhere). */
    public static LocalCheckpoints inMemory(Map<String, Long> positions) {
        LocalCheckpoints c = new LocalCheckpoints(null, null, Ledger.newRun());
        c.memoryPositions.putAll(positions);
        return c;
    }

    /** True when checkpoints survive the process ({@code checkpoint.dir} is set). */
    public boolean durable() {
        return store != null;
    }

    /** The job's run id: the same across restarts with one checkpoint directory. */
    public String run() {
        return run;
    }

    /** The partition's checkpoint as the source should start it. */
    public synchronized Checkpoint checkpoint(String partition) {
        Long position = positions().get(partition);
        String own = store != null ? store.run(partition) : memoryRuns.get(partition);
        List<LedgerEntry> inFlight =
                ledger != null
                        ? ledger.replay(partition)
                        : memoryInFlight.getOrDefault(partition, List.of());
        return new Checkpoint(position == null ? -1 : position, own != null ? own : run, inFlight);
    }

    /** Every committed position, by partition. */
    public synchronized Map<String, Long> positions() {
        return store != null ? store.positions() : Map.copyOf(memoryPositions);
    }

    /** What identifies the input of {@code partition} when it was last read, or null. */
    public synchronized String identity(String partition) {
        return store != null ? store.identity(partition) : memoryIdentities.get(partition);
    }

    /** Remembers the identity of a partition's input (kept with the next commit). */
    public synchronized void identify(String partition, String identity) {
        if (store != null) {
            store.identify(partition, identity);
        } else {
            memoryIdentities.put(partition, identity);
        }
    }

    /**
     * The partition's input is not the one its checkpoint belongs to: forgets its position and
     * batch boundaries and gives it a run of its own, so the new content never shares a token with
     * the old. Durable before returning.
     */
    public synchronized void startOver(String partition, String identity) throws IOException {
        String fresh = Ledger.newRun();
        if (store != null) {
            ledger.forget(partition);
            store.startOver(partition, identity, fresh);
        } else {
            memoryPositions.remove(partition);
            memoryInFlight.remove(partition);
            memoryIdentities.put(partition, identity);
            memoryRuns.put(partition, fresh);
        }
    }

    /** Keeps the checkpoints (see the class comment). */
    public synchronized void commit(Map<String, Checkpoint> checkpoints) throws IOException {
        Map<String, Long> moved = new HashMap<>();
        List<LedgerEntry> boundaries = new ArrayList<>();
        Map<String, Long> current = positions();
        for (Map.Entry<String, Checkpoint> e : checkpoints.entrySet()) {
            Checkpoint cp = e.getValue();
            boundaries.addAll(cp.inFlight());
            if (cp.position() >= 0 && cp.position() > current.getOrDefault(e.getKey(), -1L)) {
                moved.put(e.getKey(), cp.position());
            }
            if (ledger == null) {
                memoryInFlight.put(e.getKey(), cp.inFlight());
            }
        }
        if (ledger != null) {
            store.save(moved);
            ledger.recordAll(boundaries);
            for (Map.Entry<String, Long> m : moved.entrySet()) {
                ledger.prune(m.getKey(), m.getValue());
            }
        } else {
            memoryPositions.putAll(moved);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (ledger != null) {
            ledger.close();
        }
    }
}
