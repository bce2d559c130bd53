package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.sink.BlockPool;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.HashMap;
import java.util.Map;

/**
 * The lane each of a pipeline thread's partitions is decoded in ({@link PartitionState#lane}): the
 * lane of its table ({@link Lanes}: its topic's), made for the table as the writer knows it when
 * the partition first has records, and made again when the writer found the table altered — once
 * the batches open for the old columns are sealed. Used by its pipeline thread only.
 */
final class PartitionLanes {
    private final PipelineContext context;
    private final Map<String, PartitionState> partitions;
    private final BatchAccumulator batches;

    /** Where the blocks of a replaced lane's columns are retired. */
    private final BlockPool blocks;

    /** The tables and their lanes; null when every partition takes {@link #fixedLane}. */
    private final Lanes lanes;

    /** The lane of every partition when {@link #lanes} is null. */
    private final Lane fixedLane;

    /** This thread's lane of each table, by table. */
    private final Map<String, Lane> laneOf = new HashMap<>();

    /**
     * @param lanes the tables and their lanes, or null when every partition takes {@code first}
     * @param first the lane of the sink's one table, made at start-up (null when tables follow the
     *     records' topics); with {@code lanes} null, the lane of every partition
     */
    PartitionLanes(
            PipelineContext context,
            Map<String, PartitionState> partitions,
            BatchAccumulator batches,
            BlockPool blocks,
            Lanes lanes,
            Lane first) {
        this.context = context;
        this.partitions = partitions;
        this.batches = batches;
        this.blocks = blocks;
        this.lanes = lanes;
        this.fixedLane = lanes == null ? first : null;
        if (lanes != null && first != null) {
            laneOf.put(first.target.table(), first);
        }
    }

    /**
     * Gives {@code part} the lane of its table, made for the table as the writer knows it now: the
     * first time the partition has records ({@code records}, just polled), and when its table was
     * altered (the writer described it again). The thread's batches of the old lane are sealed
     * first (reason {@code table_changed}; a replayed batch ends at its recorded boundary instead)
     * and sent as they are — the writer re-encodes them for the table — and the lane is replaced
     * once none is open, for every partition of the table; until then the old one goes on. False
     * when the pipeline fails (no table for the records, a table that cannot be written, a decoder
     * or transform that cannot follow the change).
     */
    boolean follow(PartitionState part, PolledRecords records) {
        if (lanes == null) {
            part.lane = fixedLane;
            return true;
        }
        Lane lane = part.lane;
        String table = null;
        try {
            if (lane == null) {
                table = lanes.table(records);
                lane = laneOf.get(table);
                if (lane == null) {
                    lane = lanes.lane(lanes.target(table));
                    laneOf.put(table, lane);
                }
                part.lane = lane;
            }
            if (!lane.stale()) {
                return true;
            }
            table = lane.target.table();
            return replaceLane(lane);
        } catch (RuntimeException | RecordException e) {
            context.lifecycle()
                    .fail(
                            new Failure(
                                    (table == null
                                                    ? ""
                                                    : "table "
                                                            + table
                                                            + (lane != null && lane.stale()
                                                                    ? " changed, and its records"
                                                                            + " cannot follow: "
                                                                    : ": "))
                                            + e.getMessage(),
                                    part.name,
                                    null),
                            false);
            return false;
        }
    }

    /**
     * Replaces a stale lane once none of its batches is open (see {@link #follow}); false when the
     * pipeline stops instead (a batch could not be sealed).
     */
    private boolean replaceLane(Lane old) throws RecordException {
        for (PartitionState p : partitions.values()) {
            if (p.lane == old
                    && (p.ready != null
                            || (p.open != null && !p.open.isEmpty() && p.open.pinned() != null))) {
                return true; // a replayed batch of the old columns ends at its boundary first
            }
        }
        long now = context.clock().nanoTime();
        if (!batches.sealWhere(p -> p.lane == old, SealReason.TABLE_CHANGED, now)) {
            return false;
        }
        Lane fresh = lanes.lane(old.target);
        old.handHeaderTo(fresh);
        for (PartitionState p : partitions.values()) {
            if (p.lane == old) {
                batches.discardOpen(p); // empty, in the old layout
                p.lane = fresh;
            }
        }
        laneOf.put(old.target.table(), fresh);
        if (old.columns != null) {
            blocks.retire(old.columns);
        }
        return true;
    }
}
