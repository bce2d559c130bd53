package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;

/**
 * A block's columns as an array, looked up again only when the block changes: decoders and
 * transforms index it per value instead of going through the block's list.
 */
public final class BlockColumns {
    private Block block;
    private Column[] columns;

    public Column[] of(Block b) {
        if (b != block) {
            Column[] c = new Column[b.columnCount()];
            for (int i = 0; i < c.length; i++) {
                c[i] = b.column(i);
            }
            columns = c;
            block = b;
        }
        return columns;
    }
}
