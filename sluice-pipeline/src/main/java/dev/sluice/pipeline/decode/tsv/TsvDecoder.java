package dev.sluice.pipeline.decode.tsv;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.DelimitedDecoder;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ArrayConverter;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.MapConverter;
import dev.sluice.pipeline.decode.convert.TupleConverter;
import dev.sluice.pipeline.source.PolledRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * TabSeparated (and TSVWithNames, with a header): one record per line, fields separated by tabs,
 * values in ClickHouse's text form with its escaping ({@link TsvEscaping}), {@code \N} for NULL.
 * Arrays, tuples and maps are written in their quoted form ({@code ['a\'b',NULL]}) without a second
 * layer of TSV escaping, as ClickHouse writes them.
 *
 * <p>The hot path of {@code sluice load} (property 6): fields are found ({@link TsvScan}) and
 * converted straight from the record's bytes; only a field that holds a backslash is first
 * unescaped, into one reused buffer. As in ClickHouse, the character after a backslash belongs to
 * the value, so an escaped raw tab does not end a field.
 */
public final class TsvDecoder extends DelimitedDecoder {
    private byte[] scratch = new byte[256];

    /** By target index: the column's type has a quoted text form (Array, Tuple, Map). */
    private final boolean[] composite;

    public TsvDecoder(
            List<ColumnSlot> fed, FieldResolver resolver, boolean header, List<String> names) {
        super(fed, resolver, header, names);
        int size = fed.stream().mapToInt(s -> s.index + 1).max().orElse(0);
        composite = new boolean[size];
        for (ColumnSlot s : fed) {
            composite[s.index] =
                    s.converter instanceof ArrayConverter
                            || s.converter instanceof TupleConverter
                            || s.converter instanceof MapConverter;
        }
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        Layout layout = layout(batch);
        Column[] cols = columns(row.block());
        ColumnSlot[] slots = layout.fields;
        byte[] d = batch.data;
        int p = batch.start[index];
        int end = batch.end[index];
        int f = 0;
        ColumnSlot slot = null;
        try {
            while (true) {
                int q = TsvScan.tabOrBackslash(d, p, end);
                boolean escaped = false;
                while (q < end && d[q] == '\\') {
                    // the escaped character is part of the value, even a tab
                    escaped = true;
                    q = TsvScan.tabOrBackslash(d, Math.min(q + 2, end), end);
                }
                if (f == slots.length) {
                    throw fieldCount(layout, f + 1, "tab-separated");
                }
                slot = slots[f++];
                if (slot != null) {
                    Column col = cols[slot.index];
                    if (!escaped) {
                        slot.converter.text(col, d, p, q - p);
                    } else if (q - p == 2 && d[p + 1] == 'N') {
                        slot.nullOrAbsent(col, row);
                    } else if (composite[slot.index]) {
                        // Arrays, tuples and maps are read from the field as it is: their
                        // quoted strings carry their own escapes (ClickHouse does the same).
                        slot.converter.text(col, d, p, q - p);
                    } else {
                        if (scratch.length < q - p) {
                            scratch = new byte[Math.max(q - p, scratch.length * 2)];
                        }
                        int n = TsvEscaping.unescape(d, p, q, scratch);
                        slot.converter.text(col, scratch, 0, n);
                    }
                }
                if (q == end) {
                    break;
                }
                p = q + 1;
            }
        } catch (ConversionException | ColumnValueException e) {
            throw slot.error(e);
        }
        if (f != slots.length) {
            throw fieldCount(layout, f, "tab-separated");
        }
        appendAbsent(layout, cols, row);
    }

    @Override
    protected List<String> headerNames(byte[] d, int start, int end) {
        List<String> names = new ArrayList<>();
        int p = start;
        while (true) {
            int q = p;
            while (q < end && d[q] != '\t') {
                q++;
            }
            byte[] buf = new byte[q - p];
            int n = TsvEscaping.unescape(d, p, q, buf);
            names.add(new String(buf, 0, n, StandardCharsets.UTF_8));
            if (q == end) {
                return names;
            }
            p = q + 1;
        }
    }
}
