package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;

/** The kinds of {@link Step}. */
final class Steps {
    private Steps() {}

    static RecordException bad(String field, String avroType, AvroDataException e) {
        return RecordException.ofField(field, e.getMessage() + " (Avro " + avroType + ")");
    }

    /** A field into the column of its name (or rename). */
    static final class Into extends Step {
        private final ColumnSlot slot;
        private final ValueReader reader;
        private final String field;
        private final String avroType;

        Into(ColumnSlot slot, ValueReader reader, String field, String avroType) {
            this.slot = slot;
            this.reader = reader;
            this.field = field;
            this.avroType = avroType;
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            Column c = cols[slot.index];
            try {
                if (!reader.read(in, c)) {
                    c.appendDefault();
                    row.absent(slot.index);
                }
            } catch (AvroDataException e) {
                throw bad(field, avroType, e);
            } catch (ConversionException | ColumnValueException e) {
                throw slot.error(e);
            }
        }
    }

    /** A field no column takes (dropped, or unknown under ignore_unknown). */
    static final class Skip extends Step {
        private final Skipper skipper;
        private final String field;
        private final String avroType;

        Skip(Skipper skipper, String field, String avroType) {
            this.skipper = skipper;
            this.field = field;
            this.avroType = avroType;
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            try {
                skipper.skip(in);
            } catch (AvroDataException e) {
                throw bad(field, avroType, e);
            }
        }
    }

    /** A record flattened into {@code a.b} columns: its fields' steps. */
    static final class Group extends Step {
        private final Step[] steps;

        Group(Step[] steps) {
            this.steps = steps;
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            for (Step s : steps) {
                s.run(in, cols, row);
            }
        }
    }

    /**
     * A union of null and a flattened record (or map): null sets every column under it to NULL, or
     * to its default (absent) when it cannot hold NULL.
     */
    static final class NullOr extends Step {
        private final int nullBranch;
        private final Step inner;
        private final ColumnSlot[] leaves;
        private final String field;
        private final String avroType;

        NullOr(int nullBranch, Step inner, ColumnSlot[] leaves, String field, String avroType) {
            this.nullBranch = nullBranch;
            this.inner = inner;
            this.leaves = leaves;
            this.field = field;
            this.avroType = avroType;
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            int branch;
            try {
                branch = UnionIndex.read(in, 2);
            } catch (AvroDataException e) {
                throw bad(field, avroType, e);
            }
            if (branch != nullBranch) {
                inner.run(in, cols, row);
                return;
            }
            for (ColumnSlot s : leaves) {
                try {
                    s.nullOrAbsent(cols[s.index], row);
                } catch (ConversionException | ColumnValueException e) {
                    throw s.error(e);
                }
            }
        }
    }

    /**
     * An Avro map into two Array columns, {@code m.keys} and {@code m.values} — ClickHouse's Nested
     * form of a map, for servers without the Map type (18.16). Either may be missing: its part is
     * skipped.
     */
    static final class MapArrays extends Step {
        private final ColumnSlot keys; // or null
        private final Converter keyConv;
        private final ColumnSlot values; // or null
        private final ValueReader value; // null when values is null
        private final Skipper valueSkip;
        private final String field;
        private final String avroType;

        MapArrays(
                ColumnSlot keys,
                Converter keyConv,
                ColumnSlot values,
                ValueReader value,
                Skipper valueSkip,
                String field,
                String avroType) {
            this.keys = keys;
            this.keyConv = keyConv;
            this.values = values;
            this.value = value;
            this.valueSkip = valueSkip;
            this.field = field;
            this.avroType = avroType;
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            ArrayColumn k = keys == null ? null : (ArrayColumn) cols[keys.index];
            ArrayColumn v = values == null ? null : (ArrayColumn) cols[values.index];
            ColumnSlot at = keys;
            try {
                for (long n = in.readBlockCount(); n != 0; n = in.readBlockCount()) {
                    Skipper.items(in, n, 1);
                    for (long i = 0; i < n; i++) {
                        int len = in.readLength();
                        if (k != null) {
                            at = keys;
                            keyConv.text(k.elements(), in.bytes(), in.position(), len);
                        }
                        in.skip(len);
                        if (v != null) {
                            at = values;
                            if (!value.read(in, v.elements())) {
                                v.elements().appendDefault();
                            }
                        } else {
                            valueSkip.skip(in);
                        }
                    }
                }
            } catch (AvroDataException e) {
                throw bad(field, avroType, e);
            } catch (ConversionException | ColumnValueException e) {
                throw at.error(e);
            }
            if (k != null) {
                k.endArray();
            }
            if (v != null) {
                v.endArray();
            }
        }
    }

    /**
     * An array of records into a ClickHouse Nested structure: field {@code x} of every item goes to
     * the Array column {@code n.x}, one array per column and row. Fields without a column are
     * skipped ({@code ignore_unknown}, {@code drop}).
     */
    static final class NestedArrays extends Step {
        /** Per field of the item record: its column, or null to skip it. */
        private final ColumnSlot[] columns;

        private final ValueReader[] readers;
        private final Skipper[] skips;
        private final ColumnSlot[] all; // the distinct columns, each closed once per row
        private final int itemMinBytes;
        private final String field;
        private final String avroType;
        private final ArrayColumn[] arrays;

        NestedArrays(
                ColumnSlot[] columns,
                ValueReader[] readers,
                Skipper[] skips,
                ColumnSlot[] all,
                int itemMinBytes,
                String field,
                String avroType) {
            this.columns = columns;
            this.readers = readers;
            this.skips = skips;
            this.all = all;
            this.itemMinBytes = itemMinBytes;
            this.field = field;
            this.avroType = avroType;
            this.arrays = new ArrayColumn[columns.length];
        }

        @Override
        void run(AvroInput in, Column[] cols, RowTarget row) throws RecordException {
            for (int f = 0; f < columns.length; f++) {
                arrays[f] = columns[f] == null ? null : (ArrayColumn) cols[columns[f].index];
            }
            int f = 0;
            try {
                for (long n = in.readBlockCount(); n != 0; n = in.readBlockCount()) {
                    Skipper.items(in, n, itemMinBytes);
                    for (long i = 0; i < n; i++) {
                        for (f = 0; f < columns.length; f++) {
                            if (arrays[f] == null) {
                                skips[f].skip(in);
                            } else if (!readers[f].read(in, arrays[f].elements())) {
                                arrays[f].elements().appendDefault();
                            }
                        }
                    }
                }
            } catch (AvroDataException e) {
                throw bad(field, avroType, e);
            } catch (ConversionException | ColumnValueException e) {
                throw columns[f].error(e);
            }
            for (ColumnSlot s : all) {
                ((ArrayColumn) cols[s.index]).endArray();
            }
        }
    }
}
