package dev.sluice.pipeline.decode.csv;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.DelimitedDecoder;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.PolledRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV (RFC 4180, and CSVWithNames with a header): fields separated by the delimiter, optionally in
 * double quotes, where {@code ""} is a quote and delimiters and newlines are plain text. The source
 * frames records quote-aware; this decoder splits one record.
 *
 * <p>As ClickHouse reads CSV: spaces (and tabs, unless tab is the delimiter) around a field are
 * trimmed, an unquoted {@code \N} is NULL, and a value's text form is the one TSV uses without its
 * escaping ({@code [1,2]}, {@code 2024-01-01 00:00:00}). An empty unquoted field is the column's
 * default (NULL for Nullable, as with input_format_csv_empty_as_default); a quoted empty field is
 * an empty string.
 */
public final class CsvDecoder extends DelimitedDecoder {
    private final byte delimiter;
    private byte[] scratch = new byte[256];

    /** Where the last field's value is, set by {@link #field}. */
    private byte[] value;

    private int valueOff;
    private int valueLen;
    private boolean quoted;

    public CsvDecoder(
            List<ColumnSlot> fed,
            FieldResolver resolver,
            boolean header,
            List<String> names,
            char delimiter) {
        super(fed, resolver, header, names);
        if (delimiter > 0x7F || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException(
                    "the CSV delimiter must be one ASCII character other than a quote or newline");
        }
        this.delimiter = (byte) delimiter;
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        Layout layout = layout(batch);
        Column[] cols = columns(row.block());
        ColumnSlot[] slots = layout.fields;
        byte[] d = batch.data;
        int p = batch.start[index];
        int end = batch.end[index];
        if (end > p && d[end - 1] == '\r') {
            end--;
        }
        int f = 0;
        ColumnSlot slot = null;
        try {
            while (true) {
                int next = field(d, p, end, f);
                if (f == slots.length) {
                    throw fieldCount(layout, f + 1, "CSV");
                }
                slot = slots[f++];
                if (slot != null) {
                    Column col = cols[slot.index];
                    if (quoted) {
                        slot.converter.text(col, value, valueOff, valueLen);
                    } else if (valueLen == 0) {
                        col.appendDefault();
                    } else if (valueLen == 2
                            && value[valueOff] == '\\'
                            && value[valueOff + 1] == 'N') {
                        slot.nullOrAbsent(col, row);
                    } else {
                        slot.converter.text(col, value, valueOff, valueLen);
                    }
                }
                if (next == end) {
                    break;
                }
                p = next + 1;
            }
        } catch (ConversionException | ColumnValueException e) {
            throw slot.error(e);
        }
        if (f != slots.length) {
            throw fieldCount(layout, f, "CSV");
        }
        appendAbsent(layout, cols, row);
    }

    /**
     * Reads the field starting at {@code p}; sets {@link #value}, {@link #valueOff}, {@link
     * #valueLen} and {@link #quoted}.
     *
     * @return the index of the delimiter after the field, or {@code end}
     */
    private int field(byte[] d, int p, int end, int number) throws RecordException {
        p = skipSpaces(d, p, end);
        if (p < end && d[p] == '"') {
            int q = p + 1;
            boolean doubled = false;
            while (true) {
                if (q >= end) {
                    throw new RecordException(
                            null, "field " + (number + 1) + ": a quoted field is not closed");
                }
                if (d[q] == '"') {
                    if (q + 1 < end && d[q + 1] == '"') {
                        doubled = true;
                        q += 2;
                        continue;
                    }
                    break;
                }
                q++;
            }
            quoted = true;
            if (doubled) {
                if (scratch.length < q - p) {
                    scratch = new byte[Math.max(q - p, scratch.length * 2)];
                }
                int n = 0;
                for (int i = p + 1; i < q; i++) {
                    scratch[n++] = d[i];
                    if (d[i] == '"') {
                        i++; // the second quote of a pair
                    }
                }
                value = scratch;
                valueOff = 0;
                valueLen = n;
            } else {
                value = d;
                valueOff = p + 1;
                valueLen = q - p - 1;
            }
            int after = skipSpaces(d, q + 1, end);
            if (after < end && d[after] != delimiter) {
                throw new RecordException(
                        null,
                        "field "
                                + (number + 1)
                                + ": unexpected text after the closing quote (a quote inside a"
                                + " quoted field is written twice)");
            }
            return after;
        }
        int q = p;
        while (q < end && d[q] != delimiter) {
            q++;
        }
        int e = q;
        while (e > p && isTrimmed(d[e - 1])) {
            e--;
        }
        quoted = false;
        value = d;
        valueOff = p;
        valueLen = e - p;
        return q;
    }

    private int skipSpaces(byte[] d, int p, int end) {
        while (p < end && isTrimmed(d[p])) {
            p++;
        }
        return p;
    }

    private boolean isTrimmed(byte c) {
        return c == ' ' || (c == '\t' && delimiter != '\t');
    }

    @Override
    protected List<String> headerNames(byte[] d, int start, int end) throws RecordException {
        if (end > start && d[end - 1] == '\r') {
            end--;
        }
        List<String> names = new ArrayList<>();
        int p = start;
        while (true) {
            int next = field(d, p, end, names.size());
            names.add(new String(value, valueOff, valueLen, StandardCharsets.UTF_8));
            if (next == end) {
                return names;
            }
            p = next + 1;
        }
    }
}
