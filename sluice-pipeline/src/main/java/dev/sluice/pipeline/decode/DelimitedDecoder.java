package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What CSV and TSV decoding share: the layout of fields (which column each position feeds), taken
 * from the {@code columns} list, the table's column order, or each partition's header line; and the
 * columns no field feeds, appended as absent in every row.
 */
public abstract class DelimitedDecoder implements Decoder {

    /** The fields of one layout, in input order. */
    protected static final class Layout {
        /** The column each field feeds; null for a dropped or ignored field. */
        public final ColumnSlot[] fields;

        /** Target indexes of fed columns that no field feeds: absent in every row. */
        public final int[] absent;

        Layout(ColumnSlot[] fields, int[] absent) {
            this.fields = fields;
            this.absent = absent;
        }
    }

    private final ColumnSlot[] fed;
    private final int[] fedIndexes;
    private final FieldResolver resolver;
    private final boolean header;
    private final Layout fixed; // null: from each partition's header
    private final Map<String, Layout> headers = new HashMap<>();
    private final Set<String> ended = new HashSet<>();
    private String lastPartition;
    private Layout lastLayout;
    private final BlockColumns blockColumns = new BlockColumns();

    /**
     * @param fed the columns this decoder feeds, in target order
     * @param header the first record of each partition is a header line
     * @param names the input fields in order ({@code columns}), or null to take them from the
     *     header, or, without a header, to read the fed columns in table order
     */
    protected DelimitedDecoder(
            List<ColumnSlot> fed, FieldResolver resolver, boolean header, List<String> names) {
        this.fed = fed.toArray(new ColumnSlot[0]);
        this.fedIndexes = fed.stream().mapToInt(s -> s.index).toArray();
        this.resolver = resolver;
        this.header = header;
        if (names != null) {
            try {
                this.fixed = layout(names);
            } catch (RecordException e) {
                throw new IllegalArgumentException("columns: " + e.getMessage(), e);
            }
        } else if (!header) {
            this.fixed = new Layout(this.fed, new int[0]);
        } else {
            this.fixed = null;
        }
    }

    @Override
    public final boolean expectsHeader() {
        return header;
    }

    @Override
    public final int[] fedColumns() {
        return fedIndexes.clone();
    }

    @Override
    public final void header(PolledRecords batch, int index) throws RecordException {
        if (fixed != null) {
            return; // a header line with an explicit column list is only skipped
        }
        for (String p : ended) {
            headers.remove(p);
        }
        ended.clear();
        byte[] d = batch.data;
        int start = batch.start[index];
        int end = batch.end[index];
        if (end - start >= 3
                && d[start] == (byte) 0xEF
                && d[start + 1] == (byte) 0xBB
                && d[start + 2] == (byte) 0xBF) {
            start += 3; // a UTF-8 byte order mark, as spreadsheet exports write
        }
        List<String> names = headerNames(d, start, end);
        headers.put(batch.partition, layout(names));
        lastPartition = null;
    }

    /** The field names of a header line, unescaped. */
    protected abstract List<String> headerNames(byte[] d, int start, int end)
            throws RecordException;

    private Layout layout(List<String> names) throws RecordException {
        ColumnSlot[] fields = new ColumnSlot[names.size()];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < fields.length; i++) {
            ColumnSlot s = resolver.resolve(names.get(i));
            if (s != null && !seen.add(s.index)) {
                throw RecordException.ofField(
                        names.get(i), "a second field for column " + s.name + " (a duplicate)");
            }
            fields[i] = s;
        }
        List<Integer> absent = new ArrayList<>();
        for (ColumnSlot s : fed) {
            if (!seen.contains(s.index)) {
                absent.add(s.index);
            }
        }
        return new Layout(fields, absent.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The layout for the batch's partition. */
    protected final Layout layout(PolledRecords batch) throws RecordException {
        if (fixed != null) {
            return fixed;
        }
        String partition = batch.partition;
        if (partition != lastPartition) {
            Layout l = headers.get(partition);
            if (l == null) {
                throw new RecordException(
                        null, "no header line was read for " + describe(partition));
            }
            lastPartition = partition;
            lastLayout = l;
        }
        if (batch.partitionEnd) {
            ended.add(partition);
        }
        return lastLayout;
    }

    private static String describe(String partition) {
        return partition.isEmpty() ? "the input" : partition;
    }

    /** The block's columns by target index. */
    protected final Column[] columns(Block block) {
        return blockColumns.of(block);
    }

    /** Appends the default of every fed column no field of this layout feeds. */
    protected static void appendAbsent(Layout layout, Column[] cols, RowTarget row) {
        for (int t : layout.absent) {
            cols[t].appendDefault();
            row.absent(t);
        }
    }

    protected static RecordException fieldCount(Layout layout, int found, String format) {
        return new RecordException(
                null,
                "expected "
                        + layout.fields.length
                        + " "
                        + format
                        + " fields, found "
                        + (found > layout.fields.length ? "more" : found));
    }
}
