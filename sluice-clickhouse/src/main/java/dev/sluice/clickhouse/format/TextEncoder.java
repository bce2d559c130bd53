package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;
import java.nio.charset.StandardCharsets;

/**
 * A {@link TextFormat} bound to a block: one writer tree per column, plus the bytes that go before
 * each value and after each row, all built here once.
 */
final class TextEncoder extends BlockEncoder {
    private final TextFormat format;
    private final TextWriters.Writer[] writers;
    private final byte[][] before;
    private final byte[] rowEnd;
    private final boolean commaBetweenRows;

    TextEncoder(TextFormat format, Block block) {
        super(format.clickHouseName(), block);
        this.format = format;
        int n = block.columnCount();
        TextWriters.Context ctx =
                switch (format.kind()) {
                    case TSV -> TextWriters.Context.ESCAPED;
                    case CSV -> TextWriters.Context.CSV;
                    case VALUES -> TextWriters.Context.QUOTED;
                    case JSON_EACH_ROW, JSON_COMPACT_EACH_ROW -> TextWriters.Context.JSON;
                };
        writers = new TextWriters.Writer[n];
        before = new byte[n][];
        for (int i = 0; i < n; i++) {
            writers[i] =
                    TextWriters.writerFor(
                            block.column(i), ctx, format.quotes64BitIntegers(), false);
            before[i] = separator(format.kind(), block.column(i).name(), i);
        }
        rowEnd =
                TextWriters.ascii(
                        switch (format.kind()) {
                            case TSV, CSV -> "\n";
                            case VALUES -> ")";
                            case JSON_EACH_ROW -> "}\n";
                            case JSON_COMPACT_EACH_ROW -> "]\n";
                        });
        commaBetweenRows = format.kind() == TextFormat.Kind.VALUES;
    }

    private static byte[] separator(TextFormat.Kind kind, String column, int i) {
        return switch (kind) {
            case TSV -> TextWriters.ascii(i == 0 ? "" : "\t");
            case CSV -> TextWriters.ascii(i == 0 ? "" : ",");
            case VALUES -> TextWriters.ascii(i == 0 ? "(" : ",");
            case JSON_COMPACT_EACH_ROW -> TextWriters.ascii(i == 0 ? "[" : ",");
            case JSON_EACH_ROW -> {
                WireOutput key = new WireOutput(64);
                key.writeByte(i == 0 ? '{' : ',');
                byte[] name = column.getBytes(StandardCharsets.UTF_8);
                TextOut.json(key, name, 0, name.length);
                key.writeByte(':');
                yield key.toByteArray();
            }
        };
    }

    @Override
    public void writeHeader(WireOutput out) {
        if (format.withNames()) {
            headerLine(out, false);
        }
        if (format.withTypes()) {
            headerLine(out, true);
        }
    }

    private void headerLine(WireOutput out, boolean types) {
        boolean csv = format.kind() == TextFormat.Kind.CSV;
        for (int i = 0; i < block.columnCount(); i++) {
            if (i > 0) {
                out.writeByte(csv ? ',' : '\t');
            }
            String s = types ? block.typeName(i) : block.column(i).name();
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (csv) {
                TextOut.csv(out, b, 0, b.length);
            } else {
                TextOut.escaped(out, b, 0, b.length, 0);
            }
        }
        out.writeByte('\n');
    }

    @Override
    public void writeRows(int from, int to, WireOutput out) {
        checkRows(block, from, to);
        TextWriters.Writer[] ws = writers;
        byte[][] sep = before;
        for (int r = from; r < to; r++) {
            if (commaBetweenRows && r > 0) {
                out.writeByte(',');
            }
            for (int c = 0; c < ws.length; c++) {
                TextOut.raw(out, sep[c]);
                ws[c].write(r, out);
            }
            TextOut.raw(out, rowEnd);
        }
    }
}
