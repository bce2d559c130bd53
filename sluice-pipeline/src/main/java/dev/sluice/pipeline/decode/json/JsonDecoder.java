package dev.sluice.pipeline.decode.json;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.List;

/**
 * JSON objects, one per record (NDJSON / JSONEachRow), read straight into the columns.
 *
 * <p>Fields map to columns by top-level key, or by the path configured for the column ({@link
 * JsonPath}); {@code $} gives a column the whole record. A top-level key that feeds no column is an
 * error unless ignored; keys under a mapped path that no column reads are skipped. A column whose
 * field is missing, or null while the column cannot hold NULL, gets its default and is reported
 * absent; a key given twice is an error, as in ClickHouse.
 *
 * <p>The values are read by {@link FastJsonReader}, a byte scanner, and the records it declines
 * (damaged, or unusual: escaped keys, NaN, ...) again by {@link JacksonReader}, whose rows and
 * errors are the decoder's; with the fast path off, by Jackson alone. This class frames the record,
 * keeps the whole record for {@code $} and fills in the absent columns.
 */
public final class JsonDecoder implements Decoder {
    private final FieldTree tree;
    private final int[] fedIndexes;
    private final SeenColumns seen;
    private final JacksonReader jackson;
    private final FastJsonReader fast;
    private long fastRecords;
    private long declined;
    private final BlockColumns blockColumns = new BlockColumns();

    /**
     * @param fed the columns to feed, in target order, with their paths ({@link JsonPath} specs)
     * @param targetSize how many target columns there are
     */
    public JsonDecoder(
            List<ColumnSlot> fed, List<String> paths, int targetSize, FieldResolver resolver) {
        this(fed, paths, targetSize, resolver, true);
    }

    /**
     * @param fastPath read with {@link FastJsonReader} first (where it handles every column type)
     */
    public JsonDecoder(
            List<ColumnSlot> fed,
            List<String> paths,
            int targetSize,
            FieldResolver resolver,
            boolean fastPath) {
        this.tree = new FieldTree(fed, paths, resolver);
        this.fedIndexes = fed.stream().mapToInt(s -> s.index).toArray();
        this.seen = new SeenColumns(targetSize);
        this.jackson = new JacksonReader(tree, seen);
        this.fast =
                fastPath && FastJsonReader.handles(tree)
                        ? new FastJsonReader(tree, seen, targetSize)
                        : null;
    }

    /** True when records are read by the fast path first. */
    public boolean fastPath() {
        return fast != null;
    }

    /** Records the fast path read. */
    public long fastRecords() {
        return fastRecords;
    }

    /** Records the fast path declined (read by Jackson instead). */
    public long declinedRecords() {
        return declined;
    }

    @Override
    public int[] fedColumns() {
        return fedIndexes.clone();
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        seen.next();
        Column[] cols = blockColumns.of(row.block());
        byte[] d = batch.data;
        int start = batch.start[index];
        int end = batch.end[index];
        int trimmed = end;
        while (trimmed > start && isSpace(d[trimmed - 1])) {
            trimmed--;
        }
        if (trimmed == start) {
            throw new RecordException(null, "an empty record is not a JSON object");
        }
        if (fast != null && fast.read(d, start, trimmed, cols, row)) {
            fastRecords++;
        } else {
            if (fast != null) {
                declined++;
                seen.next(); // the fast path's marks are void: start the record over
            }
            jackson.read(d, start, trimmed, cols, row);
        }
        ColumnSlot raw = tree.raw;
        if (raw != null) {
            cols[raw.index].appendBytes(d, start, end - start);
        }
        for (ColumnSlot s : tree.fed) {
            if (s != raw && !seen.has(s.index)) {
                cols[s.index].appendDefault();
                row.absent(s.index);
            }
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }
}
