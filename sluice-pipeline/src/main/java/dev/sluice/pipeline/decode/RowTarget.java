package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.block.Block;

/**
 * The row being built: decoders and transforms append its values to {@link #block()}'s columns (row
 * index {@link #row()}). A field absent from the record is still appended (as the column's default,
 * via {@code appendDefault()}) and reported with {@link #absent(int)}, so that the runtime can
 * leave the column to the server's DEFAULT when no record of the batch has it, and knows which rows
 * need a default computed otherwise.
 */
public interface RowTarget {
    Block block();

    /** Index of the row being built within the block. */
    int row();

    /** The value appended to column {@code column} for this row stands for an absent field. */
    void absent(int column);

    /**
     * A transform replaced column {@code column}'s value in this row: it no longer stands for an
     * absent field, so no DEFAULT may overwrite it.
     */
    default void present(int column) {}
}
