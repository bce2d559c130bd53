package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parts an INSERT is sent in once the server refused it for its rows or its size: halves of its
 * block's rows, then halves of those, as far as needed (docs/pipeline.md, "Server errors"). Each
 * part has a sub-token of its own, {@code <INSERT's token>/r<first>-<last>} with the rows numbered
 * in the INSERT's block — which the batch's recorded boundaries fix — so a retry and a replay that
 * split alike send the same parts under the same tokens, and their query ids ({@code
 * <sub-token>#<nonce>.<n>}) find each part's attempts on the server (property 2). A sub-token never
 * equals a batch's or another INSERT's token: those never contain {@code /r}.
 *
 * <p>One per writer: a part's rows are copied into one reused block (per INSERT) when the part is
 * sent; the INSERT's own block is valid until the writer's next batch, as the whole send.
 */
final class InsertParts {

    /**
     * The rows {@code [from, to)} of one INSERT of a batch, and their progress across attempts.
     *
     * @param insert the INSERT, with its block and its rows' rows in the batch
     * @param token the INSERT's own token (the batch's, with {@code /g}, {@code /p} suffixes)
     */
    record Unit(BatchShaper.Insert insert, String token, int from, int to, InsertState state) {
        int rows() {
            return to - from;
        }

        boolean whole() {
            return from == 0 && to == insert.block().rows();
        }

        /** Row {@code r} of this part's row in the batch's block. */
        int origin(int r) {
            return insert.origin().applyAsInt(from + r);
        }

        /** The first half: {@code [from, mid)}. */
        Unit left() {
            return part(from, from + rows() / 2);
        }

        /** The second half: {@code [mid, to)}. */
        Unit right() {
            return part(from + rows() / 2, to);
        }

        private Unit part(int a, int b) {
            String t = subToken(token, a, b);
            InsertState s = new InsertState(t, b - a, 0, state.index, state.of);
            s.part =
                    "rows "
                            + a
                            + "-"
                            + (b - 1)
                            + " of "
                            + (state.of > 1 ? "its INSERT" : "the batch")
                            + " (sent in parts)";
            return new Unit(insert, token, a, b, s);
        }
    }

    /** The sub-token of rows {@code [from, to)} of the INSERT with {@code token}. */
    static String subToken(String token, int from, int to) {
        return token + "/r" + from + "-" + (to - 1);
    }

    /** The token of the INSERT whose part {@code token} is ({@link #subToken}); else itself. */
    static String wholeToken(String token) {
        int r = token.lastIndexOf("/r");
        if (r < 0 || !token.substring(r + 2).matches("[0-9]+-[0-9]+")) {
            return token;
        }
        return token.substring(0, r);
    }

    /** One INSERT, whole: {@code index} of the batch's {@code of}. */
    static Unit whole(BatchShaper.Insert insert, String token, int index, int of) {
        Block b = insert.block();
        return new Unit(
                insert,
                token,
                0,
                b.rows(),
                new InsertState(token, b.rows(), b.dataBytes(), index, of));
    }

    /**
     * {@code unit} with its rows re-encoded for its altered table ({@link Reencoding#forTable}): a
     * whole INSERT of {@code block} under the unit's own token — the same rows, less those that
     * could not be converted, so the same token (a part sent in halves later gets sub-tokens under
     * it). {@code kept} maps each row of {@code block} to its row in the unit.
     */
    static Unit reencoded(Unit unit, Block block, int[] kept) {
        BatchShaper.Insert insert = new BatchShaper.Insert(block, "", r -> unit.origin(kept[r]));
        InsertState state = unit.state().reencoded(block.rows(), block.dataBytes());
        return new Unit(insert, state.token, 0, block.rows(), state);
    }

    private BatchShaper.Insert copyOf;
    private Block copy;
    private Unit copied;
    private int[] rowIndex = new int[0];

    /** The block to send for {@code unit}: the INSERT's own, or a copy of the part's rows. */
    Block block(Unit unit) {
        if (unit.whole()) {
            return unit.insert().block();
        }
        if (copied == unit) {
            return copy; // a retry of the same part sends the same block
        }
        Block from = unit.insert().block();
        if (copyOf != unit.insert()) {
            List<String> names = new ArrayList<>(from.columnCount());
            for (Column c : from.columns()) {
                names.add(c.name());
            }
            copy = Block.forHeader(names, from.typeNames());
            copyOf = unit.insert();
        } else {
            copy.reset();
        }
        int n = unit.rows();
        if (rowIndex.length < n) {
            rowIndex = new int[Math.max(n, rowIndex.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            rowIndex[i] = unit.from() + i;
        }
        for (int c = 0; c < from.columnCount(); c++) {
            copy.column(c).appendRowsFrom(from.column(c), rowIndex, 0, n);
        }
        copied = unit;
        return copy;
    }

    /** Drops the copy of the last part sent (at the end of its batch). */
    void clear() {
        copyOf = null;
        copy = null;
        copied = null;
    }

    /**
     * The first row of {@code unit} as it is sent: one JSON object of its columns (ClickHouse's
     * JSONEachRow, 64-bit integers as numbers), without the line end.
     */
    byte[] render(Unit unit) {
        return renderRow(block(unit), 0);
    }

    /** Row {@code row} of {@code b} as one JSON object of its columns, like {@link #render}. */
    static byte[] renderRow(Block b, int row) {
        WireOutput out = new WireOutput(256);
        Formats.JSON_EACH_ROW
                .withQuoted64BitIntegers(false)
                .encoderFor(b)
                .writeRows(row, row + 1, out);
        byte[] bytes = out.toByteArray();
        int len = bytes.length;
        while (len > 0 && (bytes[len - 1] == '\n' || bytes[len - 1] == '\r')) {
            len--;
        }
        return Arrays.copyOf(bytes, len);
    }
}
