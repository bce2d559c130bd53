package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.transform.ExpressionStage;
import java.io.IOException;

/**
 * Turns the records a pipeline thread polled into rows of its partitions' open batches, in the lane
 * of the partition's table ({@link PartitionState#lane}): the decoder appends straight into the
 * open batch's column buffers (property 6), row-wise transforms follow, and expression transforms
 * run column-wise over staged rows (ADR 0010); a record the source, the decoder or a transform
 * refuses goes to the error policy (property 4). A partition's position is consumed only past
 * records so settled, never past a staged row (property 1), and processing stops after the record
 * at hand when the budget pauses (property 3), the pipeline drains or stops, or the partition
 * reaches its ceiling of batches in flight; the rest of the polled records wait here for the next
 * turn. Used by its pipeline thread only.
 */
final class RecordProcessor implements BatchAccumulator.StagedRows {
    /**
     * Rows staged for the expression transforms at most before they run over them (ADR 0010):
     * enough for column-wise evaluation to pay, few enough that the computed columns' growth
     * between two budget checks stays small.
     */
    static final int STAGED_ROWS = 1024;

    private final PipelineContext context;
    private final BudgetAccount account;
    private final BatchAccumulator batches;

    /** The buffer the source fills at each poll. */
    private final PolledRecords records = new PolledRecords();

    /** The partition of the polled records, or null. */
    private PartitionState current;

    /** The next polled record to process. */
    private int cursor;

    /** True while polled records wait to be processed. */
    private boolean haveRecords;

    /** When the polled records were read (clock nanos). */
    private long readNanos;

    /**
     * Where the current partition's records are consumed to once its staged rows are flushed, or
     * -1: a position never moves past a staged row (property 1).
     */
    private long consumedAfterFlush = -1;

    RecordProcessor(PipelineContext context, BudgetAccount account, BatchAccumulator batches) {
        this.context = context;
        this.account = account;
        this.batches = batches;
    }

    /** The buffer the source fills at each poll. */
    PolledRecords records() {
        return records;
    }

    /**
     * The source filled {@link #records()} with records (maybe none, at a partition's end) of
     * {@code part}, read at {@code readNanos}: they are processed from the first.
     */
    void polled(PartitionState part, long readNanos) {
        this.readNanos = readNanos;
        cursor = 0;
        haveRecords = true;
        current = part;
    }

    /** True while polled records wait to be processed. */
    boolean hasRecords() {
        return haveRecords;
    }

    /** The partition of the polled records, or null. */
    PartitionState current() {
        return current;
    }

    /** The records not processed yet are dropped unconsumed: they are read again. */
    void dropRecords() {
        haveRecords = false;
    }

    /** The partition is no longer the thread's: its records not processed yet are dropped. */
    void forget(PartitionState p) {
        if (current == p) {
            haveRecords = false;
            current = null;
        }
    }

    @Override
    public boolean flush(PartitionState part, long nowNanos) {
        return flushStaged(part, nowNanos);
    }

    @Override
    public boolean flushCurrent(long nowNanos) {
        return current == null || flushStaged(current, nowNanos);
    }

    /** Processes the polled records from the cursor, until done, paused or stopped. */
    void process(long nowNanos) {
        PolledRecords rb = records;
        PartitionState part = current;
        if (cursor == 0 && rb.partitionStart && rb.count > 0 && part.lane.decoder.expectsHeader()) {
            if (!readHeader(part.lane, rb)) {
                return;
            }
            part.tracker.consumed(next(rb, 0));
            cursor = 1;
        }
        while (cursor < rb.count) {
            if (account.paused()
                    || context.lifecycle().mode() != Lifecycle.Mode.RUN
                    || part.atCeiling()) {
                // The rest waits in `records` (property 3: one record over at most); the staged
                // rows are flushed first: they never outlive this call, nor `records`.
                flushStaged(part, nowNanos);
                return;
            }
            boolean handled =
                    rb.errors > 0 && rb.error[cursor] != null
                            ? reject(rb, cursor, rb.error[cursor]) // the source could not read it
                            : processRecord(part, rb, cursor, nowNanos);
            if (!handled) {
                flushStaged(part, nowNanos); // rows staged before it (the pipeline stops)
                return;
            }
            if (part.open != null && part.open.staged() > 0) {
                consumedAfterFlush = next(rb, cursor);
            } else {
                part.tracker.consumed(next(rb, cursor));
            }
            cursor++;
        }
        haveRecords = false;
        if (!flushStagedAndSeal(part, nowNanos)) {
            return;
        }
        if (rb.partitionEnd) {
            part.tracker.consumed(rb.endPosition);
            part.ended = true;
            if (batches.seal(part, SealReason.PARTITION_END, nowNanos)) {
                batches.dropEmptyBatch(part);
            }
        }
    }

    /** Reads a partition's header record; false when the pipeline must stop instead. */
    private boolean readHeader(Lane lane, PolledRecords rb) {
        if (rb.errors > 0 && rb.error[0] != null) {
            return reject(rb, 0, rb.error[0]);
        }
        try {
            lane.header(rb, 0);
            return true;
        } catch (RecordException e) {
            return reject(rb, 0, e.getMessage());
        }
    }

    private static long next(PolledRecords rb, int i) {
        return i + 1 < rb.count ? rb.position[i + 1] : rb.endPosition;
    }

    /** Appends record {@code i} as a row; false when the pipeline must stop instead. */
    private boolean processRecord(PartitionState part, PolledRecords rb, int i, long nowNanos) {
        long position = rb.position[i];
        BatchBuilder batch = batches.batchFor(part, position, nowNanos);
        if (batch == null) {
            return false;
        }
        if (batch.isEmpty()) {
            batch.nowSeconds(batches.nowFor(part, batch, position, nowNanos), nowNanos);
        }
        Lane lane = part.lane;
        batch.beginRow();
        try {
            lane.decoder.decode(rb, i, batch);
            if (!lane.chain.applyRow(batch, rb, i, batch.nowSeconds())) {
                batch.rollbackRow();
                context.metrics().filtered.inc();
                return true;
            }
        } catch (RecordException | ColumnValueException e) {
            batch.rollbackRow();
            return reject(rb, i, e.getMessage());
        } catch (DecoderUnavailableException e) {
            // Not the record's fault (a schema registry is down): stop before it, unconsumed.
            batch.rollbackRow();
            context.lifecycle()
                    .fail(new Failure(e.getMessage(), rb.partition, rb.describe(i)), false);
            return false;
        } catch (RuntimeException e) {
            batch.rollbackRow();
            context.lifecycle()
                    .fail(
                            new Failure(
                                    "the decoder or a transform failed (a bug in it): " + e,
                                    rb.partition,
                                    rb.describe(i)),
                            false);
            return false;
        }
        if (lane.stage != null) {
            return stageRow(part, batch, position, i, nowNanos);
        }
        if (batch.commitRow(position)) {
            batch.pending(part.tracker.open(position, nowNanos), readNanos);
        }
        batches.grew(batch, 1);
        return batches.sealIfDue(part, batch, nowNanos);
    }

    /**
     * Stages a complete row for the expression transforms; they run over the staged rows when
     * enough are staged, before the batch could be sealed by size or at its replay end, and when
     * the polled records are done (ADR 0010). Staged rows count toward the batch's size.
     */
    private boolean stageRow(
            PartitionState part, BatchBuilder batch, long position, int record, long nowNanos) {
        batch.stageRow(position, record);
        batches.grew(batch, 1);
        boolean due = batch.staged() >= STAGED_ROWS || batches.dueWithStaged(batch, position);
        return !due || flushStagedAndSeal(part, nowNanos);
    }

    /** {@link #flushStaged}, then the seals the committed rows call for. */
    private boolean flushStagedAndSeal(PartitionState part, long nowNanos) {
        BatchBuilder batch = part.open;
        if (batch == null || batch.staged() == 0) {
            return true;
        }
        return flushStaged(part, nowNanos) && batches.sealIfDue(part, part.open, nowNanos);
    }

    /**
     * Runs the expression transforms over the staged rows of {@code part}'s open batch, column-wise
     * (ADR 0010), commits the rows they keep, counts those they filter and applies the error policy
     * to those they refuse, in record order. Only while the polled records of the staged rows are
     * at hand (within {@link #process}). False when the pipeline must stop at a refused row: rows
     * from it on are neither committed nor consumed, and are read again (property 1).
     */
    private boolean flushStaged(PartitionState part, long nowNanos) {
        BatchBuilder batch = part == null ? null : part.open;
        if (batch == null || batch.staged() == 0) {
            return true;
        }
        int staged = batch.staged();
        ExpressionStage.Outcome out;
        try {
            out =
                    part.lane.stage.run(
                            batch.block(),
                            batch.rows(),
                            staged,
                            records,
                            batch.stagedRecords(),
                            batch.nowSeconds());
        } catch (RuntimeException e) {
            batch.clearStaged();
            consumedAfterFlush = -1;
            context.lifecycle()
                    .fail(
                            new Failure(
                                    "an expression transform failed (a bug in it): " + e,
                                    part.name,
                                    null),
                            false);
            return false;
        }
        int stopAt = staged;
        for (int r = 0; r < out.rejected(); r++) {
            int j = out.rejectedStaged(r);
            if (!reject(records, batch.stagedRecords()[j], out.error(r).getMessage())) {
                stopAt = j;
                break;
            }
        }
        long stopPosition = stopAt < staged ? batch.stagedPosition(stopAt) : -1;
        boolean first = false;
        int committed = 0;
        for (int i = 0; i < out.kept() && out.keptStaged(i) < stopAt; i++) {
            first |= batch.commitStaged(out.keptStaged(i));
            committed++;
        }
        batch.clearStaged();
        if (first) {
            batch.pending(part.tracker.open(batch.firstPosition(), nowNanos), readNanos);
        }
        batches.grew(batch, committed - staged);
        if (stopPosition >= 0) {
            part.tracker.consumed(stopPosition);
            consumedAfterFlush = -1;
            return false;
        }
        context.metrics().filtered.inc(out.filtered());
        if (consumedAfterFlush >= 0) {
            part.tracker.consumed(consumedAfterFlush);
            consumedAfterFlush = -1;
        }
        return true;
    }

    /** Applies the error policy; false when the pipeline must stop. */
    private boolean reject(PolledRecords rb, int i, String reason) {
        String stop;
        try {
            stop = context.errors().reject(rb, i, reason);
        } catch (IOException e) {
            stop = "cannot write the dead-letter file (" + e.getMessage() + ") for: " + reason;
        }
        if (stop != null) {
            context.lifecycle().fail(new Failure(stop, rb.partition, rb.describe(i)), false);
            return false;
        }
        return true;
    }
}
