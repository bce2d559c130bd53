package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.checkpoint.CheckpointTracker;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.decode.RowTarget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The batch a pipeline thread is filling for one partition: decoders and transforms append rows to
 * its block (property 6), and it tracks, per column, how many rows stand for an absent field.
 *
 * <p>A row is built in three steps: {@link #beginRow()}, the decoder's appends, {@link
 * #decoded(long)} (absent fields get their client-computed DEFAULT, so transforms read it), the
 * transforms' appends, then {@link #commitRow(long, long)} or {@link #rollbackRow()} (the block is
 * cut back to the row's start, so a rejected record leaves nothing behind).
 *
 * <p>At seal time a column absent from every row is left out of the INSERT, so the server fills its
 * DEFAULT; see {@link #insertBlock()}.
 */
public final class OpenBatch implements RowTarget {
    private final String partition;
    private final Block block;
    private final ClientDefaults defaults;
    private final int[] absentRows;
    private int[] rowAbsent = new int[8];
    private int rowAbsentCount;
    private int rowFilled;
    private int rows;
    private long firstPosition = -1;
    private long lastPosition = -1;
    private long firstReadNanos;
    private long accountedBytes;
    private CheckpointTracker.Pending pending;
    private LedgerEntry pinned;

    public OpenBatch(String partition, Block block, ClientDefaults defaults) {
        this.partition = partition;
        this.block = block;
        this.defaults = defaults;
        this.absentRows = new int[block.columnCount()];
    }

    @Override
    public Block block() {
        return block;
    }

    @Override
    public int row() {
        return rows;
    }

    @Override
    public void absent(int column) {
        for (int i = 0; i < rowAbsentCount; i++) {
            if (rowAbsent[i] == column) {
                return;
            }
        }
        if (rowAbsentCount == rowAbsent.length) {
            rowAbsent = Arrays.copyOf(rowAbsent, rowAbsentCount * 2);
        }
        rowAbsent[rowAbsentCount++] = column;
    }

    public void beginRow() {
        rowAbsentCount = 0;
        rowFilled = 0;
    }

    /** The decoder is done with the row: absent fields get their DEFAULT before transforms run. */
    public void decoded(long nowMillis) {
        fillDefaults(nowMillis);
    }

    private void fillDefaults(long nowMillis) {
        for (; rowFilled < rowAbsentCount; rowFilled++) {
            int c = rowAbsent[rowFilled];
            if (defaults.computes(c)) {
                Column column = block.column(c);
                if (column.rows() == rows + 1) {
                    defaults.fill(c, column, nowMillis);
                }
            }
        }
    }

    /**
     * The row is complete; its record is at {@code position}.
     *
     * @return true when this was the batch's first row
     */
    public boolean commitRow(long position, long nowMillis) {
        fillDefaults(nowMillis);
        for (int i = 0; i < rowAbsentCount; i++) {
            absentRows[rowAbsent[i]]++;
        }
        rowAbsentCount = 0;
        lastPosition = position;
        if (rows++ == 0) {
            firstPosition = position;
            return true;
        }
        return false;
    }

    /** Takes back everything appended since {@link #beginRow()}. */
    public void rollbackRow() {
        block.truncate(rows);
        rowAbsentCount = 0;
    }

    public String partition() {
        return partition;
    }

    public int rows() {
        return rows;
    }

    public boolean isEmpty() {
        return rows == 0;
    }

    /** Position of the first record with a row, or -1 while empty. */
    public long firstPosition() {
        return firstPosition;
    }

    public long lastPosition() {
        return lastPosition;
    }

    /** Bytes of this batch counted against the in-flight budget so far. */
    public long accountedBytes() {
        return accountedBytes;
    }

    public void accountedBytes(long bytes) {
        accountedBytes = bytes;
    }

    public CheckpointTracker.Pending pending() {
        return pending;
    }

    /** The batch got its first row: it now holds back its partition's commits. */
    public void pending(CheckpointTracker.Pending p, long firstReadNanos) {
        this.pending = p;
        this.firstReadNanos = firstReadNanos;
    }

    /** Clock time at which the record of the first row was read. */
    public long firstReadNanos() {
        return firstReadNanos;
    }

    /** The ledger entry this batch re-creates after a restart, or null. */
    public LedgerEntry pinned() {
        return pinned;
    }

    public void pin(LedgerEntry entry) {
        this.pinned = entry;
    }

    /**
     * Why this batch cannot be sent, or null: a column present in some rows and absent in others
     * whose DEFAULT the client cannot compute.
     */
    public String unsendable() {
        for (int c = 0; c < absentRows.length; c++) {
            if (absentRows[c] > 0 && absentRows[c] < rows && defaults.unsupported(c) != null) {
                return defaults.unsupported(c)
                        + "; the server computes it only for a column an INSERT leaves out, but "
                        + absentRows[c]
                        + " of this batch's "
                        + rows
                        + " records lack the field and the others have it";
            }
        }
        return null;
    }

    /**
     * The block to insert: the batch's block without the columns that no row has, so the server
     * fills their DEFAULT. The columns are shared, not copied.
     */
    public Block insertBlock() {
        List<Column> columns = new ArrayList<>(block.columnCount());
        List<String> types = new ArrayList<>(block.columnCount());
        for (int c = 0; c < block.columnCount(); c++) {
            if (absentRows[c] < rows) {
                columns.add(block.column(c));
                types.add(block.typeName(c));
            }
        }
        if (columns.size() == block.columnCount()) {
            return block;
        }
        // An INSERT needs a column; when every field of every record is absent, send them all.
        return columns.isEmpty() ? block : new Block(columns, types);
    }
}
