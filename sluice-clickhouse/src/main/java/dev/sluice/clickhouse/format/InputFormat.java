package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.io.WireOutput;

/** An input format the HTTP transport can send a block in. */
public interface InputFormat {
    /** The name after {@code FORMAT} in the INSERT. */
    String clickHouseName();

    /** Encodes every row of {@code block}. */
    void write(Block block, WireOutput out);

    /**
     * The format called {@code name}: any case, or a server alias such as TSV or NDJSON; see {@link
     * Formats}.
     *
     * @throws IllegalArgumentException naming the formats there are
     */
    static InputFormat byName(String name) {
        return Formats.byName(name);
    }

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
