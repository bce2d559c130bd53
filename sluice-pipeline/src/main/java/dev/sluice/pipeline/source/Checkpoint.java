package dev.sluice.pipeline.source;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import java.util.List;

/**
 * What a source keeps for one partition when the runtime commits it, and gives back when the
 * partition is assigned again — on this host or another (properties 1 and 2).
 *
 * @param position every record before it is durably handled; -1 when nothing was ever committed
 *     (the source starts where it starts a new partition)
 * @param run the run id of the partition's tokens, or null when none was kept (the runtime uses the
 *     job's): it travels with the commit so that another host replays with the same tokens
 * @param inFlight the boundaries of batches at or after {@code position} that may already be in
 *     ClickHouse, in position order: a replay re-seals the re-read records at exactly these
 */
public record Checkpoint(long position, String run, List<LedgerEntry> inFlight) {
    /** A partition never committed. */
    public static final Checkpoint NONE = new Checkpoint(-1, null, List.of());

    public Checkpoint {
        inFlight = List.copyOf(inFlight);
    }

    /** A plain position, with no run and nothing in flight. */
    public static Checkpoint at(long position) {
        return new Checkpoint(position, null, List.of());
    }
}
