package dev.sluice.clickhouse.defaults;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fallback for DEFAULT expressions not computed here: the batch is split by which of those
 * columns each row lacks, and each group goes in its own INSERT that leaves those columns out, so
 * the server computes them for exactly those rows. A MergeTree table does not keep row order, so
 * the table ends up with the same rows as from one INSERT; the cost is one INSERT (one part per
 * partition) per group, and no atomicity across the groups.
 */
public final class DefaultGroups {

    /**
     * One INSERT's worth of rows.
     *
     * @param block the rows, without the {@code omitted} columns
     * @param omitted the columns the server fills for these rows
     * @param rows for each row of {@code block}, its row in the block that was split
     */
    public record Group(Block block, List<String> omitted, int[] rows) {}

    private DefaultGroups() {}

    /**
     * Splits {@code block} by which of {@code columns} (block column indexes, as {@link
     * DefaultFiller#fill} returns them; at most 63) each row lacks. Groups come in order of first
     * appearance; rows keep their order within a group.
     */
    public static List<Group> split(Block block, AbsentRows absent, List<Integer> columns) {
        if (columns.size() > 63) {
            throw new IllegalArgumentException("more than 63 columns left to the server");
        }
        int rows = block.rows();
        // Each row's pattern of lacking columns; groups numbered by first appearance.
        Map<Long, Integer> groupOf = new LinkedHashMap<>();
        int[] group = new int[rows];
        for (int r = 0; r < rows; r++) {
            long p = 0;
            for (int i = 0; i < columns.size(); i++) {
                if (absent.isAbsent(columns.get(i), r)) {
                    p |= 1L << i;
                }
            }
            Integer g = groupOf.get(p);
            if (g == null) {
                g = groupOf.size();
                groupOf.put(p, g);
            }
            group[r] = g;
        }
        // Rows by group, keeping their order: a counting sort.
        int[] starts = new int[groupOf.size() + 1];
        for (int r = 0; r < rows; r++) {
            starts[group[r] + 1]++;
        }
        for (int g = 0; g < groupOf.size(); g++) {
            starts[g + 1] += starts[g];
        }
        int[] order = new int[rows];
        int[] next = starts.clone();
        for (int r = 0; r < rows; r++) {
            order[next[group[r]]++] = r;
        }
        List<Group> groups = new ArrayList<>(groupOf.size());
        int g = 0;
        for (long pattern : groupOf.keySet()) {
            groups.add(group(block, columns, pattern, order, starts[g], starts[g + 1]));
            g++;
        }
        return groups;
    }

    private static Group group(
            Block block, List<Integer> columns, long pattern, int[] order, int from, int to) {
        List<Integer> kept = new ArrayList<>();
        List<String> omitted = new ArrayList<>();
        for (int c = 0; c < block.columnCount(); c++) {
            int i = columns.indexOf(c);
            if (i >= 0 && (pattern & (1L << i)) != 0) {
                omitted.add(block.column(c).name());
            } else {
                kept.add(c);
            }
        }
        List<String> names = new ArrayList<>(kept.size());
        List<String> types = new ArrayList<>(kept.size());
        for (int c : kept) {
            names.add(block.column(c).name());
            types.add(block.typeName(c));
        }
        Block out = Block.forHeader(names, types);
        for (int k = 0; k < kept.size(); k++) {
            Column source = block.column(kept.get(k));
            out.column(k).appendRowsFrom(source, order, from, to);
        }
        return new Group(out, List.copyOf(omitted), Arrays.copyOfRange(order, from, to));
    }
}
