package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;

/**
 * RowBinary, and RowBinaryWithNamesAndTypes (ClickHouse 19.3+): the rows as {@link RowBinaryWriter}
 * writes them, the latter after a header of the column count (VarUInt), the names and the type
 * names (each a String). The type names are the block's, as the server spelled them: newer servers
 * compare them with the table's ({@code input_format_with_types_use_header}).
 */
final class RowBinaryFormat extends RowFormat {
    private final boolean header;

    RowBinaryFormat(String name, boolean header) {
        super(name);
        this.header = header;
    }

    @Override
    public BlockEncoder encoderFor(Block block) {
        return new Encoder(clickHouseName(), block, RowBinaryWriter.forBlock(block), header);
    }

    private static final class Encoder extends BlockEncoder {
        private final RowBinaryWriter rows;
        private final boolean header;

        Encoder(String name, Block block, RowBinaryWriter rows, boolean header) {
            super(name, block);
            this.rows = rows;
            this.header = header;
        }

        @Override
        public void writeHeader(WireOutput out) {
            if (!header) {
                return;
            }
            out.writeVarUInt(block.columnCount());
            for (int i = 0; i < block.columnCount(); i++) {
                out.writeString(block.column(i).name());
            }
            for (int i = 0; i < block.columnCount(); i++) {
                out.writeString(block.typeName(i));
            }
        }

        @Override
        public void writeRows(int from, int to, WireOutput out) {
            rows.writeRows(from, to, out);
        }
    }
}
