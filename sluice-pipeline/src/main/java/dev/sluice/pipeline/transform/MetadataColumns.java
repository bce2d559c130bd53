package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.FieldRules;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converters;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.RecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A message's metadata as columns, like any field: {@code _key}, {@code _timestamp}, {@code
 * _topic}, {@code _partition}, {@code _offset} and {@code _header.NAME}. A column gets one when it
 * bears its name, or when a rename maps the field to it ({@code rename: {_key: kafka_key}}).
 *
 * <p>Values are converted into the column's type as text fields are ({@code _partition} and {@code
 * _offset} as numbers; {@code _timestamp}, epoch milliseconds, as an instant into
 * DateTime/DateTime64 columns and as a number otherwise). A record without a key, or without the
 * header, gets NULL in a Nullable column and the column's DEFAULT otherwise, as an absent field
 * does. Runs first in the transform chain, so computed columns and filters can read them.
 */
public final class MetadataColumns implements Transform {
    /** The metadata field names; {@code _header.} is followed by the header's name. */
    public static final List<String> FIELDS =
            List.of("_key", "_timestamp", "_topic", "_partition", "_offset");

    public static final String HEADER = "_header.";

    private enum Kind {
        KEY,
        TIMESTAMP,
        TOPIC,
        PARTITION,
        OFFSET,
        HEADER
    }

    private final ColumnSlot[] slots;
    private final Kind[] kinds;
    private final boolean[] instants;
    private final byte[][] headerNames;
    private final int[] produced;
    private final byte[] digits = new byte[24];
    private byte[] topicBytes = new byte[0];
    private String topic = "";

    private MetadataColumns(Map<Integer, String> fields, TargetColumns target) {
        int n = fields.size();
        slots = new ColumnSlot[n];
        kinds = new Kind[n];
        instants = new boolean[n];
        headerNames = new byte[n][];
        produced = new int[n];
        int k = 0;
        for (Map.Entry<Integer, String> e : fields.entrySet()) {
            TableSchema.Column c = target.columns().get(e.getKey());
            slots[k] =
                    new ColumnSlot(
                            e.getKey(), c.name(), c.typeName(), Converters.forType(c.type()));
            String field = e.getValue();
            kinds[k] =
                    switch (field) {
                        case "_key" -> Kind.KEY;
                        case "_timestamp" -> Kind.TIMESTAMP;
                        case "_topic" -> Kind.TOPIC;
                        case "_partition" -> Kind.PARTITION;
                        case "_offset" -> Kind.OFFSET;
                        default -> Kind.HEADER;
                    };
            if (kinds[k] == Kind.HEADER) {
                headerNames[k] = field.substring(HEADER.length()).getBytes(StandardCharsets.UTF_8);
            }
            instants[k] = c.typeName().contains("DateTime");
            produced[k] = e.getKey();
            k++;
        }
    }

    /** True when {@code field} names a metadata field. */
    public static boolean isField(String field) {
        return FIELDS.contains(field)
                || (field.startsWith(HEADER) && field.length() > HEADER.length());
    }

    /**
     * The columns of {@code table} a metadata field feeds (column → field): by their own name, or
     * through a rename; in table order.
     */
    public static Map<String, String> columns(TableSchema table, FieldRules rules) {
        Map<String, String> fed = new LinkedHashMap<>();
        for (TableSchema.Column c : table.insertableColumns()) {
            String from = rules.renamedFrom(c.name());
            if (from != null && isField(from)) {
                fed.put(c.name(), from);
            } else if (from == null && isField(c.name())) {
                fed.put(c.name(), c.name());
            }
        }
        return fed;
    }

    /** The transform for the metadata columns among {@code target}, or null when there are none. */
    public static MetadataColumns of(Map<String, String> columns, TargetColumns target) {
        Map<Integer, String> fields = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (TableSchema.Column c : target.columns()) {
            names.add(c.name());
        }
        columns.forEach(
                (column, field) -> {
                    int i = names.indexOf(column);
                    if (i >= 0) {
                        fields.put(i, field);
                    }
                });
        return fields.isEmpty() ? null : new MetadataColumns(fields, target);
    }

    @Override
    public int[] producedColumns() {
        return produced.clone();
    }

    @Override
    public boolean apply(RowTarget row, PolledRecords batch, int index) throws RecordException {
        RecordMetadata meta = batch.meta;
        Block block = row.block();
        for (int k = 0; k < slots.length; k++) {
            ColumnSlot s = slots[k];
            Column c = block.column(s.index);
            try {
                if (meta == null) {
                    s.nullOrAbsent(c, row); // a source without metadata
                    continue;
                }
                switch (kinds[k]) {
                    case KEY -> {
                        if (meta.keyStart[index] < 0) {
                            s.nullOrAbsent(c, row);
                        } else {
                            s.converter.text(
                                    c,
                                    meta.bytes,
                                    meta.keyStart[index],
                                    meta.keyEnd[index] - meta.keyStart[index]);
                        }
                    }
                    case TIMESTAMP -> {
                        long millis = meta.timestamp[index];
                        if (instants[k]) {
                            s.converter.floating(c, millis / 1000.0);
                        } else {
                            number(s, c, millis);
                        }
                    }
                    case TOPIC -> {
                        if (!topic.equals(meta.topic)) {
                            topic = meta.topic;
                            topicBytes = topic.getBytes(StandardCharsets.UTF_8);
                        }
                        s.converter.text(c, topicBytes, 0, topicBytes.length);
                    }
                    case PARTITION -> number(s, c, meta.partition);
                    case OFFSET -> number(s, c, batch.position[index]);
                    case HEADER -> {
                        int j = meta.header(index, headerNames[k]);
                        if (j < 0 || meta.valueStart[j] < 0) {
                            s.nullOrAbsent(c, row);
                        } else {
                            s.converter.text(
                                    c,
                                    meta.bytes,
                                    meta.valueStart[j],
                                    meta.valueEnd[j] - meta.valueStart[j]);
                        }
                    }
                }
            } catch (ConversionException | ColumnValueException e) {
                throw s.error(e);
            }
        }
        return true;
    }

    /** A number as its decimal digits, converted as a number field is (no allocation). */
    private void number(ColumnSlot s, Column c, long v) {
        int p = digits.length;
        boolean negative = v < 0;
        long x = Math.abs(v);
        do {
            digits[--p] = (byte) ('0' + x % 10);
            x /= 10;
        } while (x != 0);
        if (negative) {
            digits[--p] = '-';
        }
        s.converter.number(c, digits, p, digits.length - p);
    }
}
