package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.io.WireOutput;

/** An input format the HTTP transport can send a block in. */
public interface InputFormat {
    /** The name after {@code FORMAT} in the INSERT. */
    String clickHouseName();

    /** Encodes every row of {@code block}. */
    void write(Block block, WireOutput out);

    /** Native at revision 0: what {@code FORMAT Native} reads over HTTP. */
    InputFormat NATIVE =
            new InputFormat() {
                @Override
                public String clickHouseName() {
                    return "Native";
                }

                @Override
                public void write(Block block, WireOutput out) {
                    NativeBlockCodec.write(block, out, 0);
                }
            };
}
