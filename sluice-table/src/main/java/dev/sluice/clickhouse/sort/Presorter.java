package dev.sluice.clickhouse.sort;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Client-side pre-sorting: puts a batch's rows in the order of the table's sorting key before it is
 * encoded, so that the server finds the block already sorted and skips its own sort ({@code
 * MergeTreeDataWriterBlocksAlreadySorted}). The order is exactly the server's: the key is computed
 * with the server's functions ({@link dev.sluice.clickhouse.expr}), rows compare as the server
 * compares them, and equal keys keep their input order (the server's sort is stable too), so the
 * part written is the one the server would have written from the unsorted batch.
 *
 * <p>Build one per table, block shape and thread (it keeps its buffers); then per batch:
 *
 * <pre>{@code
 * Presorter sorter = Presorter.of(schema, blockColumnNames, Bindings.zone(server.timezone()));
 * if (!sorter.supported()) log.info("not pre-sorting {}: {}", table, sorter.unsupportedReason());
 * Block spare = Presorter.emptyLike(batch);
 * Block toSend = sorter.sort(batch, spare, nowSeconds); // batch itself when already sorted
 * }</pre>
 *
 * A key the evaluator does not compute makes {@link #supported()} false (say so once); a value it
 * does not reproduce leaves that batch unsorted ({@link #lastOutcome()}).
 */
public final class Presorter {

    /** What the last {@link #sort} did. */
    public enum Outcome {
        /** The rows were reordered into the target block. */
        SORTED,
        /** The rows were already in key order; the block was returned as is. */
        ALREADY_SORTED,
        /** The table's key is not supported; the block was returned unsorted. */
        KEY_UNSUPPORTED,
        /** A key value could not be computed here; this block was returned unsorted. */
        VALUE_UNSUPPORTED
    }

    private final KeyColumns key;
    private final String unsupported;
    private int[] rows = new int[0];
    private int[] rowScratch = new int[0];
    private long[] packed = new long[0];
    private long[] packedScratch = new long[0];
    private Outcome lastOutcome;
    private String lastReason;

    private Presorter(KeyColumns key, String unsupported) {
        this.key = key;
        this.unsupported = unsupported;
    }

    /**
     * The pre-sorter for {@code table}'s sorting key over blocks whose columns are named {@code
     * blockColumns} (the insert's columns; keys may also use DEFAULT and MATERIALIZED columns the
     * insert leaves to the server).
     *
     * @param serverZone the server's time zone ({@code Bindings.zone(server.timezone())})
     */
    public static Presorter of(TableSchema table, List<String> blockColumns, ZoneId serverZone) {
        if (table.sortingKey() == null || table.sortingKey().isBlank()) {
            return new Presorter(null, "table " + table.qualifiedName() + " has no sorting key");
        }
        try {
            KeyColumns key =
                    KeyColumns.of(table::sortingKeyExpressions, table, blockColumns, serverZone);
            return new Presorter(key, null);
        } catch (UnsupportedExpressionException e) {
            return new Presorter(
                    null,
                    "the sorting key ("
                            + table.sortingKey()
                            + ") of "
                            + table.qualifiedName()
                            + " is not supported: "
                            + e.getMessage());
        }
    }

    public boolean supported() {
        return unsupported == null;
    }

    /** Why the table's key is not supported, or null. */
    public String unsupportedReason() {
        return unsupported;
    }

    public Outcome lastOutcome() {
        return lastOutcome;
    }

    /** Why the last block went unsorted, or null. */
    public String lastReason() {
        return lastReason;
    }

    /**
     * The stable permutation that puts {@code block}'s rows in key order ({@code result[i]} is the
     * block row that goes to position i; valid until the next call), or null when the block is
     * already in order.
     *
     * @throws IllegalStateException when the key is not supported
     * @throws UnsupportedValueException when a key value cannot be computed here
     */
    public int[] permutation(Block block, long nowSeconds) {
        if (key == null) {
            throw new IllegalStateException(unsupported);
        }
        key.evaluate(block, nowSeconds);
        int n = key.rows();
        if (key.sorted()) {
            return null;
        }
        if (rows.length < n) {
            rows = new int[n];
            rowScratch = new int[n];
        }
        if (packed.length < n) {
            packed = new long[n];
            packedScratch = new long[n];
        }
        int bits = key.pack(packed);
        if (bits > 0) {
            StableSort.radixSort(packed, n, bits, rows, rowScratch, packedScratch);
        } else {
            for (int i = 0; i < n; i++) {
                rows[i] = i;
            }
            StableSort.mergeSort(rows, rowScratch, n, key::compare);
        }
        return rows;
    }

    /**
     * {@code block} in key order: {@code block} itself when it is already in order (or cannot be
     * sorted, see {@link #lastOutcome()}), else {@code target} (reset, then filled with the rows in
     * order). {@code target} must have {@code block}'s columns ({@link #emptyLike}).
     */
    public Block sort(Block block, Block target, long nowSeconds) {
        lastReason = null;
        if (key == null) {
            lastOutcome = Outcome.KEY_UNSUPPORTED;
            lastReason = unsupported;
            return block;
        }
        int[] perm;
        try {
            perm = permutation(block, nowSeconds);
        } catch (UnsupportedValueException e) {
            lastOutcome = Outcome.VALUE_UNSUPPORTED;
            lastReason = e.getMessage();
            return block;
        }
        if (perm == null) {
            lastOutcome = Outcome.ALREADY_SORTED;
            return block;
        }
        gather(block, target, perm, 0, block.rows());
        lastOutcome = Outcome.SORTED;
        return target;
    }

    /** Resets {@code target} and fills it with {@code source}'s rows {@code rows[from .. to)}. */
    static void gather(Block source, Block target, int[] rows, int from, int to) {
        if (target.columnCount() != source.columnCount()) {
            throw new IllegalArgumentException("the target block has other columns");
        }
        target.reset();
        for (int c = 0; c < source.columnCount(); c++) {
            Column s = source.column(c);
            Column t = target.column(c);
            if (!s.name().equals(t.name())) {
                throw new IllegalArgumentException(
                        "column " + c + " is " + s.name() + " here and " + t.name() + " there");
            }
            t.appendRowsFrom(s, rows, from, to);
        }
    }

    /** An empty block with {@code block}'s column names and types: a target for {@link #sort}. */
    public static Block emptyLike(Block block) {
        List<String> names = new ArrayList<>(block.columnCount());
        for (Column c : block.columns()) {
            names.add(c.name());
        }
        return Block.forHeader(names, block.typeNames());
    }
}
