package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.pipeline.decode.convert.Converter;

/**
 * Readers of Avro arrays, maps and records into Array, Map and Tuple columns. A null item (of a
 * union with null) in a column that cannot hold NULL becomes the item type's default, as in JSON.
 * Partly appended values need no undo here: a rejected record's row is truncated by the runtime,
 * which takes back the elements of the unfinished row too.
 */
final class CompositeReaders {
    private CompositeReaders() {}

    static final class Array extends ValueReader {
        private final ValueReader item;
        private final int itemMinBytes;

        Array(ValueReader item, int itemMinBytes) {
            this.item = item;
            this.itemMinBytes = itemMinBytes;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            ArrayColumn a = (ArrayColumn) c;
            Column elements = a.elements();
            for (long n = in.readBlockCount(); n != 0; n = in.readBlockCount()) {
                Skipper.items(in, n, itemMinBytes);
                for (long i = 0; i < n; i++) {
                    if (!item.read(in, elements)) {
                        elements.appendDefault();
                    }
                }
            }
            a.endArray();
            return true;
        }
    }

    /** An Avro map into Map(K, V): keys are Avro strings, converted to K. */
    static final class Map extends ValueReader {
        private final Converter key;
        private final ValueReader value;

        Map(Converter key, ValueReader value) {
            this.key = key;
            this.value = value;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            MapColumn m = (MapColumn) c;
            Column keys = m.keys();
            Column values = m.values();
            for (long n = in.readBlockCount(); n != 0; n = in.readBlockCount()) {
                Skipper.items(in, n, 1);
                for (long i = 0; i < n; i++) {
                    int len = in.readLength();
                    key.text(keys, in.bytes(), in.position(), len);
                    in.skip(len);
                    if (!value.read(in, values)) {
                        values.appendDefault();
                    }
                }
            }
            m.endMap();
            return true;
        }
    }

    /**
     * An Avro record into a Tuple: each writer field into the element it was matched with (by name
     * for a named tuple, else by position), or skipped; elements no field fills get their default.
     */
    static final class Tuple extends ValueReader {
        /** Per writer field: its reader, or null when it is skipped. */
        private final ValueReader[] fields;

        private final Skipper[] skips;

        /** Per writer field: the tuple element it fills. */
        private final int[] element;

        /** Elements no writer field fills. */
        private final int[] unfilled;

        Tuple(ValueReader[] fields, Skipper[] skips, int[] element, int[] unfilled) {
            this.fields = fields;
            this.skips = skips;
            this.element = element;
            this.unfilled = unfilled;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            TupleColumn t = (TupleColumn) c;
            for (int i = 0; i < fields.length; i++) {
                if (fields[i] == null) {
                    skips[i].skip(in);
                } else {
                    Column e = t.element(element[i]);
                    if (!fields[i].read(in, e)) {
                        e.appendDefault();
                    }
                }
            }
            for (int e : unfilled) {
                t.element(e).appendDefault();
            }
            return true;
        }
    }
}
