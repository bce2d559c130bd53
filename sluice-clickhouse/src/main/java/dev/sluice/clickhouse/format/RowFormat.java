package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;

/**
 * A row-oriented input format written from the columns of a {@link Block}. Instances are immutable
 * and shareable; {@link #encoderFor} binds one to a block's columns. Used directly as an {@link
 * InputFormat}, it builds that encoder for each block it writes (a few objects per block, none per
 * row); keep the encoder to write the same refilled block again without even that.
 */
public abstract class RowFormat implements InputFormat {
    private final String name;

    RowFormat(String name) {
        this.name = name;
    }

    @Override
    public final String clickHouseName() {
        return name;
    }

    /**
     * An encoder for {@code block}'s columns.
     *
     * @throws IllegalArgumentException for a column the format cannot express
     */
    public abstract BlockEncoder encoderFor(Block block);

    @Override
    public void write(Block block, WireOutput out) {
        encoderFor(block).writeAll(out);
    }

    @Override
    public String toString() {
        return name;
    }
}
