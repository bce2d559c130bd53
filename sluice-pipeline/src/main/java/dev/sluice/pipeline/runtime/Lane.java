package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.transform.ExpressionStage;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.TransformChain;
import java.util.Arrays;
import java.util.List;

/**
 * How one pipeline thread turns the records of one table into rows: a decoder and transforms made
 * for the table's columns as the writer last described them. A thread has one lane per table its
 * partitions write to ({@code sink.clickhouse.table} by topic), and replaces a lane when its table
 * was altered ({@link #stale()}): the new decoder feeds an added column and no longer a dropped
 * one. Used by its thread only.
 */
final class Lane {
    /** The table, or null for a thread whose decoder was given to it (tests). */
    final InsertTarget target;

    /** The table's layout this lane was made for, or null without a target. */
    final InsertTarget.Layout layout;

    /** The columns of its batches, or null for the block pool's own. */
    final TargetColumns columns;

    final Decoder decoder;
    final TransformChain chain;

    /** The expression transforms evaluated column-wise over staged rows, or null (ADR 0010). */
    final ExpressionStage stage;

    /** The last header record its decoder read (a copy), for the decoder of the lane after it. */
    private PolledRecords header;

    Lane(
            InsertTarget target,
            InsertTarget.Layout layout,
            TargetColumns columns,
            Decoder decoder,
            List<Transform> transforms) {
        this.target = target;
        this.layout = layout;
        this.columns = columns;
        this.decoder = decoder;
        this.chain = TransformChain.of(transforms);
        this.stage = chain.stage();
    }

    /** True when the writer has described the table otherwise since this lane was made. */
    boolean stale() {
        return target != null && target.layout() != layout;
    }

    /** Reads a partition's header record into the decoder, keeping a copy of it. */
    void header(PolledRecords batch, int index) throws RecordException {
        decoder.header(batch, index);
        header = copy(batch, index);
    }

    /**
     * The lane after this one gets the header this one read last: its decoder maps the fields of
     * the partition it is in the middle of by that header's names.
     */
    void handHeaderTo(Lane next) throws RecordException {
        if (header != null && next.decoder.expectsHeader()) {
            next.header(header, 0);
        }
    }

    private static PolledRecords copy(PolledRecords from, int i) {
        PolledRecords to = new PolledRecords();
        int len = from.end[i] - from.start[i];
        to.source = from.source;
        to.partition = from.partition;
        to.data = Arrays.copyOfRange(from.data, from.start[i], from.end[i]);
        to.count = 1;
        to.start[0] = 0;
        to.end[0] = len;
        to.position[0] = from.position[i];
        to.line[0] = from.line[i];
        to.partitionStart = true;
        return to;
    }
}
