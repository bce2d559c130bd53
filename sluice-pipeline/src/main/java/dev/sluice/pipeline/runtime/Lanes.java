package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.source.PolledRecords;

/**
 * The tables a pipeline's records go to and the lanes its threads decode them in: which table a
 * partition's records go to (from their metadata: the topic), the writer's knowledge of it, and a
 * lane made for it as it is now. Shared by the pipeline threads; each keeps its own lanes.
 */
interface Lanes {

    /**
     * The table of the records of {@code records}' partition (all of a partition go to one table).
     *
     * @throws IllegalArgumentException naming why no table fits (a topic no route covers)
     */
    String table(PolledRecords records);

    /**
     * The writer's table {@code table}, described the first time it is asked for.
     *
     * @throws RuntimeException when it cannot be written (the message says why)
     */
    InsertTarget target(String table);

    /**
     * A lane for {@code target} as it is now: a decoder and transforms made for its columns.
     *
     * @throws RuntimeException when they cannot be made for them (a transform reading a column the
     *     table no longer has)
     */
    Lane lane(InsertTarget target);
}
