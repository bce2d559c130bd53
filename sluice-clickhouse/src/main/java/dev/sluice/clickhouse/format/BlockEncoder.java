package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.Objects;

/**
 * A format bound to one block's columns: the per-column writers are built once, in {@link
 * RowFormat#encoderFor}, and each {@link #write} only runs them. The writers read the columns'
 * buffers afresh on every call, so an encoder stays valid while its block is reset and refilled; a
 * block with other column objects needs a new one. Not thread-safe (scratch buffers are reused).
 */
public abstract class BlockEncoder implements InputFormat {
    private final String name;
    protected final Block block;

    protected BlockEncoder(String name, Block block) {
        this.name = name;
        this.block = block;
    }

    @Override
    public final String clickHouseName() {
        return name;
    }

    public final Block block() {
        return block;
    }

    /** The header a -WithNames/-WithNamesAndTypes variant puts before the rows; else nothing. */
    public void writeHeader(WireOutput out) {}

    /** Writes rows {@code [from, to)} (no header). */
    public abstract void writeRows(int from, int to, WireOutput out);

    /** The whole body of an INSERT: header, then every row. */
    public final void writeAll(WireOutput out) {
        writeHeader(out);
        writeRows(0, block.rows(), out);
    }

    /**
     * Writes {@code block}, which must be the bound block or one made of the same column objects.
     *
     * @throws IllegalArgumentException for a block with other columns
     */
    @Override
    public final void write(Block block, WireOutput out) {
        if (block != this.block && !block.columns().equals(this.block.columns())) {
            throw new IllegalArgumentException(
                    name
                            + " encoder was built for other columns ("
                            + this.block.columns()
                            + "); build one for "
                            + block.columns());
        }
        writeAll(out);
    }

    static void checkRows(Block block, int from, int to) {
        Objects.checkFromToIndex(from, to, block.rows());
    }
}
