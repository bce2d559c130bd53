package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The expression transforms at the end of a chain, evaluated column-wise over a range of rows the
 * decoder (and the row-wise transforms before them) appended to a block: filters narrow a selection
 * vector of the range's rows, computed columns are evaluated for the selected rows and appended,
 * and the rows that are not selected are cut out of every column (ADR 0010).
 *
 * <p>A row a filter drops counts as filtered; a row whose value the engine or its column refuses is
 * rejected, with the reason, and left out (the caller applies the error policy, property 4).
 * Cutting rows out copies the rows after the first one cut through a scratch block (per pipeline
 * thread, reused), so a range where every row stays costs no copy. Nothing is allocated per row.
 */
public final class ExpressionStage {
    private final ExpressionTransform[] steps;
    private final Outcome outcome = new Outcome();
    private Block scratch;
    private int[] selection = new int[0];
    private int[] recordOf = new int[0];
    private int[] stagedOf = new int[0];
    private int[] identity = new int[0];
    private final List<Rejection> rejections = new ArrayList<>();

    ExpressionStage(List<ExpressionTransform> steps) {
        this.steps = steps.toArray(new ExpressionTransform[0]);
    }

    /** What a {@link #run} did to its range; valid until the next run. */
    public static final class Outcome {
        private int kept;
        private int[] keptStaged = new int[0];
        private int filtered;
        private int rejected;
        private int[] rejectedStaged = new int[0];
        private RecordException[] errors = new RecordException[0];

        /** Rows kept: now block rows {@code first .. first + kept}, in order. */
        public int kept() {
            return kept;
        }

        /** The range index (0-based, in the order appended) of kept row {@code i}. */
        public int keptStaged(int i) {
            return keptStaged[i];
        }

        /** Rows a filter dropped. */
        public int filtered() {
            return filtered;
        }

        /** Rows refused; {@link #rejectedStaged} ascending. */
        public int rejected() {
            return rejected;
        }

        public int rejectedStaged(int i) {
            return rejectedStaged[i];
        }

        public RecordException error(int i) {
            return errors[i];
        }
    }

    private record Rejection(int staged, RecordException error) {}

    /**
     * Runs the transforms over block rows {@code [first, first + count)}, where row {@code first +
     * j} came from record {@code records[j]} of {@code batch}; {@code now()} is {@code nowSeconds}.
     * Every column of the block holds {@code first + count} rows before, and {@code first + kept}
     * after (the transforms' own columns included).
     */
    public Outcome run(
            Block block,
            int first,
            int count,
            PolledRecords batch,
            int[] records,
            long nowSeconds) {
        ensure(count);
        for (int j = 0; j < count; j++) {
            selection[j] = first + j;
            recordOf[j] = records[j];
            stagedOf[j] = j;
        }
        int selected = count;
        int length = count; // rows [first, first + length) of the columns filled so far
        boolean contiguous = true;
        int filtered = 0;
        rejections.clear();
        for (ExpressionTransform step : steps) {
            boolean computed = step instanceof ComputedColumns;
            while (selected > 0) {
                if (computed && !contiguous) {
                    length = compact(block, first, length, selected);
                    contiguous = true;
                }
                try {
                    int kept =
                            step.evaluate(
                                    block, selection, selected, nowSeconds, batch, first, recordOf);
                    if (kept < selected) {
                        filtered += selected - kept;
                        selected = kept;
                        contiguous = false;
                    }
                    break;
                } catch (ExpressionTransform.Refused r) {
                    selected = reject(r, first, selected);
                    contiguous = false;
                }
            }
        }
        if (!contiguous) {
            length = compact(block, first, length, selected);
        }
        return outcome(length, filtered);
    }

    /** Records the refused rows and takes them out of the selection; returns its new size. */
    private int reject(ExpressionTransform.Refused r, int first, int selected) {
        int w = 0;
        int next = 0;
        for (int i = 0; i < selected; i++) {
            if (next < r.indexes.length && r.indexes[next] == i) {
                rejections.add(new Rejection(stagedOf[selection[i] - first], r.errors[next]));
                next++;
            } else {
                selection[w++] = selection[i];
            }
        }
        return w;
    }

    /**
     * Cuts every filled column (those of {@code first + length} rows) down to the selected rows, in
     * order, and makes the selection contiguous again. Returns the new length.
     */
    private int compact(Block block, int first, int length, int selected) {
        int inPlace = 0;
        while (inPlace < selected && selection[inPlace] == first + inPlace) {
            inPlace++;
        }
        if (inPlace < selected) {
            if (scratch == null) {
                scratch = emptyLike(block);
            }
            for (int c = 0, n = block.columnCount(); c < n; c++) {
                Column column = block.column(c);
                if (column.rows() != first + length) {
                    continue; // a column a later transform computes
                }
                Column copy = scratch.column(c);
                copy.reset();
                copy.appendRowsFrom(column, selection, inPlace, selected);
                column.truncate(first + inPlace);
                column.appendRowsFrom(copy, identity, 0, selected - inPlace);
            }
        } else {
            for (int c = 0, n = block.columnCount(); c < n; c++) {
                Column column = block.column(c);
                if (column.rows() == first + length) {
                    column.truncate(first + selected);
                }
            }
        }
        for (int j = 0; j < selected; j++) {
            int from = selection[j] - first;
            recordOf[j] = recordOf[from];
            stagedOf[j] = stagedOf[from];
            selection[j] = first + j;
        }
        return selected;
    }

    private Outcome outcome(int kept, int filtered) {
        Outcome o = outcome;
        o.kept = kept;
        if (o.keptStaged.length < kept) {
            o.keptStaged = new int[Math.max(kept, o.keptStaged.length * 2)];
        }
        System.arraycopy(stagedOf, 0, o.keptStaged, 0, kept);
        o.filtered = filtered;
        o.rejected = rejections.size();
        if (o.rejected > 0) {
            rejections.sort((a, b) -> Integer.compare(a.staged(), b.staged()));
            o.rejectedStaged = new int[o.rejected];
            o.errors = new RecordException[o.rejected];
            for (int i = 0; i < o.rejected; i++) {
                o.rejectedStaged[i] = rejections.get(i).staged();
                o.errors[i] = rejections.get(i).error();
            }
        }
        return o;
    }

    private void ensure(int count) {
        if (selection.length < count) {
            int n = Math.max(count, selection.length * 2);
            selection = new int[n];
            recordOf = new int[n];
            stagedOf = new int[n];
            identity = new int[n];
            for (int i = 0; i < n; i++) {
                identity[i] = i;
            }
        }
    }

    private static Block emptyLike(Block block) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (int c = 0; c < block.columnCount(); c++) {
            names.add(block.column(c).name());
            types.add(block.typeName(c));
        }
        return Block.forHeader(names, types);
    }

    @Override
    public String toString() {
        return "expression transforms " + Arrays.toString(steps);
    }
}
