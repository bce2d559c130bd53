package dev.sluice.pipeline.source;

import java.util.Collection;

/**
 * The runtime's side of partition ownership. A source calls it on the pipeline thread that polls it
 * — from inside {@link Source#poll} or {@link Source#idle}, the way Kafka calls a rebalance
 * listener from inside {@code poll}.
 *
 * <ul>
 *   <li>{@link #assigned} before the first record of a partition: the runtime starts its tracker at
 *       the checkpoint's position and replays the checkpoint's in-flight batches at their recorded
 *       boundaries. The source reads from that position.
 *   <li>{@link #revoking} before the source gives partitions up: the runtime seals their open
 *       batches, waits (bounded) for their acknowledgements, commits their positions through {@link
 *       Source#commit} and forgets them. Records of them the source delivers afterwards are an
 *       error; acknowledgements that arrive later are dropped.
 *   <li>{@link #lost} when they are gone without a chance to commit (a fenced or expired group
 *       member): the runtime forgets them at once; the next owner reads from the last commit.
 * </ul>
 */
public interface PartitionListener {
    void assigned(String partition, Checkpoint checkpoint);

    void revoking(Collection<String> partitions);

    void lost(Collection<String> partitions);

    /** Something the operator should know, e.g. a file replaced under a committed path. */
    void warning(String message);
}
