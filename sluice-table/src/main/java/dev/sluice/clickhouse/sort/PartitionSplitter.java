package dev.sluice.clickhouse.sort;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.ValueType;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a batch into one block per partition of the table (rows grouped by the value of the
 * partition key, computed as the server computes it), so that each INSERT writes one part. Groups
 * come in order of first appearance, as the server forms them, and keep the rows' order within a
 * group: split after {@link Presorter#sort} and every group stays sorted.
 *
 * <pre>{@code
 * PartitionSplitter splitter = PartitionSplitter.of(schema, blockColumnNames, zone);
 * if (splitter.supported()) {
 *     for (Block part : splitter.split(batch, nowSeconds)) inserter.insert(table, part, ...);
 * }
 * }</pre>
 *
 * The blocks returned are reused by the next {@link #split}; not thread-safe.
 */
public final class PartitionSplitter {
    private final KeyColumns key;
    private final String unsupported;
    private int[] group = new int[0];
    private int[] order = new int[0];
    private int[] slots = new int[64];
    private int[] firstRow = new int[16];
    private int[] starts = new int[17];
    private int groups;
    private final List<Block> blocks = new ArrayList<>();

    private PartitionSplitter(KeyColumns key, String unsupported) {
        this.key = key;
        this.unsupported = unsupported;
    }

    /** The splitter for {@code table}'s partition key over blocks with {@code blockColumns}. */
    public static PartitionSplitter of(
            TableSchema table, List<String> blockColumns, ZoneId serverZone) {
        if (table.partitionKey() == null || table.partitionKey().isBlank()) {
            return new PartitionSplitter(
                    null, "table " + table.qualifiedName() + " is not partitioned");
        }
        try {
            KeyColumns key =
                    KeyColumns.of(table::partitionKeyExpressions, table, blockColumns, serverZone);
            return new PartitionSplitter(key, null);
        } catch (UnsupportedExpressionException e) {
            return new PartitionSplitter(
                    null,
                    "the partition key ("
                            + table.partitionKey()
                            + ") of "
                            + table.qualifiedName()
                            + " is not supported: "
                            + e.getMessage());
        }
    }

    public boolean supported() {
        return unsupported == null;
    }

    public String unsupportedReason() {
        return unsupported;
    }

    /**
     * Groups {@code block}'s rows by partition. Returns the blocks, one per partition (the input
     * block itself when all rows share one partition); they are reused by the next call.
     *
     * @throws IllegalStateException when the key is not supported
     * @throws dev.sluice.clickhouse.expr.UnsupportedValueException when a key value cannot be
     *     computed here
     */
    public List<Block> split(Block block, long nowSeconds) {
        if (key == null) {
            throw new IllegalStateException(unsupported);
        }
        key.evaluate(block, nowSeconds);
        int n = key.rows();
        assignGroups(n);
        if (groups <= 1) {
            return List.of(block);
        }
        groupOrder(n);
        while (blocks.size() < groups) {
            blocks.add(Presorter.emptyLike(block));
        }
        List<Block> out = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            Block target = blocks.get(g);
            Presorter.gather(block, target, order, starts[g], starts[g + 1]);
            out.add(target);
        }
        return out;
    }

    /** Number of partitions in the last split block. */
    public int partitions() {
        return groups;
    }

    /**
     * Where row {@code k} of part {@code part} of the last split came from: its row in the block
     * that was split. Valid until the next {@link #split}; a split that returned the block itself
     * (one partition) maps every row to itself.
     */
    public int sourceRow(int part, int k) {
        if (groups <= 1) {
            return k;
        }
        return order[starts[part] + k];
    }

    /** {@code group[r]}: the partition of row r, numbered by first appearance. */
    private void assignGroups(int n) {
        if (group.length < n) {
            group = new int[n];
        }
        groups = 0;
        int capacity = Integer.highestOneBit(Math.max(16, n / 4)) * 4;
        if (slots.length < capacity) {
            slots = new int[capacity];
        }
        Arrays.fill(slots, 0);
        int mask = slots.length - 1;
        for (int r = 0; r < n; r++) {
            int h = mix(hash(r));
            int s = h & mask;
            while (true) {
                int g = slots[s] - 1;
                if (g < 0) {
                    if (groups == firstRow.length) {
                        firstRow = Arrays.copyOf(firstRow, groups * 2);
                    }
                    firstRow[groups] = r;
                    slots[s] = ++groups;
                    group[r] = groups - 1;
                    if (groups * 2 > slots.length) {
                        rehash();
                        mask = slots.length - 1;
                    }
                    break;
                }
                if (key.compare(firstRow[g], r) == 0) {
                    group[r] = g;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int g = 0; g < groups; g++) {
            int s = mix(hash(firstRow[g])) & mask;
            while (slots[s] != 0) {
                s = (s + 1) & mask;
            }
            slots[s] = g + 1;
        }
    }

    /** Rows ordered by group, stably: a counting sort by group number. */
    private void groupOrder(int n) {
        if (starts.length < groups + 1) {
            starts = new int[groups + 1];
        }
        Arrays.fill(starts, 0, groups + 1, 0);
        for (int r = 0; r < n; r++) {
            starts[group[r] + 1]++;
        }
        for (int g = 0; g < groups; g++) {
            starts[g + 1] += starts[g];
        }
        if (order.length < n) {
            order = new int[n];
        }
        int[] next = Arrays.copyOf(starts, groups);
        for (int r = 0; r < n; r++) {
            order[next[group[r]]++] = r;
        }
    }

    /** A hash consistent with {@link KeyColumns#compare} equality (NaN = NaN, -0 = 0). */
    private int hash(int r) {
        int h = 1;
        for (int p = 0; p < key.size(); p++) {
            ValueVector v = key.part(p);
            int x;
            if (v.isNull(r)) {
                x = 0x9E37;
            } else {
                ValueType.Kind k = v.type().kind();
                if (k == ValueType.Kind.FLOAT) {
                    double d = v.getDouble(r);
                    x = d == 0 ? 0 : Double.isNaN(d) ? 1 : Double.hashCode(d);
                } else if (k == ValueType.Kind.STRING || k == ValueType.Kind.FIXED_STRING) {
                    x = 1;
                    byte[] b = v.bytes();
                    for (int i = v.start(r), e = v.end(r); i < e; i++) {
                        x = 31 * x + b[i];
                    }
                } else {
                    x = Long.hashCode(v.getLong(r));
                }
            }
            h = 31 * h + x;
        }
        return h;
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
