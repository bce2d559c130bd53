package dev.sluice.connect;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.Converters;
import dev.sluice.pipeline.writer.Rows;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns a record's value into one row of one table's {@link Rows}, column by column: a schemaless
 * map by looking each column up in it, a {@link Struct} through its schema's fields (mapped to
 * columns once per schema), nested structs as maps ({@link RecordValues}). Nothing is allocated per
 * record on the way — no entry views, no per-field callbacks — and a Java string bound for a plain
 * {@code String} column is encoded straight into the column's buffer; every other value goes
 * through {@link Rows#set(int, Object)}, so the conversions are the writer's.
 *
 * <p>A field the table has no column for: an error naming it ({@code unknown.fields=reject}) or
 * dropped ({@code ignore}). A field whose value is null is a NULL for a Nullable column and the
 * DEFAULT otherwise; a column the value lacks gets its DEFAULT. A bad value leaves no part of the
 * row behind. One per table; used from the task's thread only.
 */
final class RowFiller {
    /** In a staged record's first slot: its value's look-ups are to be made as it is added. */
    private static final Object NOT_STAGED = new Object();

    private final String[] columns;
    private final boolean[] plainString;
    private final Converter[] converters;
    private final boolean ignoreUnknown;
    private Schema lastSchema;
    private long touched; // of lookUp, only for the reads' sake
    private final Object[] one = new Object[1]; // add(Rows, Object)'s value and its look-ups
    private final Object[] oneStaged;
    private int[] lastColumnOf; // the column of each of lastSchema's fields, -1 for none

    /**
     * @param sample rows of the table (the columns' types are read from it)
     */
    RowFiller(Rows sample, boolean ignoreUnknown) {
        // Interned: JSON converters' keys are interned too (Jackson's field names), so a map's
        // look-up of a column meets its key by identity, without comparing the characters
        List<String> names = new java.util.ArrayList<>(sample.columnNames().size());
        for (String n : sample.columnNames()) {
            names.add(n.intern());
        }
        this.columns = names.toArray(new String[0]);
        this.plainString = new boolean[columns.length];
        this.converters = new Converter[columns.length];
        for (int i = 0; i < plainString.length; i++) {
            plainString[i] = sample.column(i).getClass() == StringColumn.class;
            converters[i] = Converters.forType(sample.column(i).type());
        }
        this.ignoreUnknown = ignoreUnknown;
        this.oneStaged = new Object[columns.length];
    }

    /** How many values {@link #lookUp} stages for a record: one per column. */
    int width() {
        return columns.length;
    }

    /**
     * Looks up the value of every column in each of {@code values[0 .. n)} that is a schemaless
     * map, into {@code staged[k * width() + i]} for value {@code k} and column {@code i} (null
     * where the map has none), for {@link #add(Rows, Object, Object[], int)}. A value that is no
     * map, or a map whose keys are not strings (a sorted map of other keys), is marked as not
     * staged: add then takes it as it is, and says what is wrong with it.
     *
     * <p>Why a pass of its own, column by column: the records are scattered over the heap, and each
     * look-up waits for memory (the map, its table, the entry, the value). Made in a short loop
     * over many records, the look-ups of consecutive records wait at the same time; made between
     * filling the columns of each row, they wait one after another. On the benchmark's records
     * (docs/connect.md) the task's thread used about a third less CPU.
     */
    void lookUp(Object[] values, int n, Object[] staged) {
        int w = columns.length;
        for (int k = 0; k < n; k++) {
            staged[k * w] = values[k] instanceof Map<?, ?> ? null : NOT_STAGED;
        }
        int last = 0;
        for (int i = 0; i < w; i++) {
            String name = columns[i];
            for (int k = 0; k < n; k++) {
                if (staged[k * w] != NOT_STAGED) {
                    Object v;
                    try {
                        v = ((Map<?, ?>) values[k]).get(name);
                    } catch (ClassCastException keysAreNotStrings) {
                        staged[k * w] = NOT_STAGED;
                        continue;
                    }
                    if (v instanceof String str && !str.isEmpty()) {
                        // reading its length and last char brings its text into the cache too
                        last += str.charAt(str.length() - 1);
                    }
                    staged[k * w + i] = v;
                }
            }
        }
        touched += last; // kept, so that the reads are not optimised away
    }

    /**
     * Adds {@code value} as the next row of {@code rows}.
     *
     * @throws RuntimeException naming the field or column when the value cannot be a row: not a map
     *     or struct ({@link DataException}), a field without a column, a value its column cannot
     *     take; the row is then taken back
     */
    void add(Rows rows, Object value) {
        one[0] = value;
        lookUp(one, 1, oneStaged);
        one[0] = null;
        add(rows, value, oneStaged, 0);
    }

    /**
     * {@link #add(Rows, Object)} with the value's look-ups made by {@link #lookUp}, at {@code
     * staged[at]}: the task's way, many records looked up at once.
     */
    void add(Rows rows, Object value, Object[] staged, int at) {
        if (value == null) {
            throw new IllegalArgumentException(
                    "a record without a value (a tombstone) cannot become a row");
        }
        try {
            if (value instanceof Map<?, ?> m) {
                if (staged[at] == NOT_STAGED) { // a sorted map of other keys: says which
                    otherFields(rows, m);
                    throw new DataException("a record value's keys must be field names (strings)");
                }
                fromMap(rows, m, staged, at);
            } else if (value instanceof Struct s) {
                fromStruct(rows, s);
            } else {
                throw new DataException(
                        "a record value must be a map (schemaless JSON) or a Struct to become a"
                                + " row, not "
                                + RecordValues.typeOf(value));
            }
        } catch (RuntimeException e) {
            rows.abortRow();
            throw e;
        }
        rows.endRow();
    }

    /**
     * True when {@code values[k]} is plain: a map (looked up by {@link #lookUp} into {@code
     * staged}) with a value for every column and no other field, each value a string for a plain
     * String column or a Long, Integer or Double, none null. Plain values can be added column by
     * column ({@link #addPlain}).
     */
    boolean plain(Object[] values, Object[] staged, int k) {
        return plain(values[k], staged, k * columns.length);
    }

    private boolean plain(Object value, Object[] staged, int at) {
        if (!(value instanceof Map<?, ?> m) || staged[at] == NOT_STAGED || m.size() != width()) {
            return false;
        }
        for (int i = 0; i < columns.length; i++) {
            if (!direct(i, staged[at + i])) {
                return false; // null too
            }
        }
        return true;
    }

    /**
     * Adds the {@code count} plain values from {@code from} on ({@link #plain}) as rows, column by
     * column: each column's buffer and conversion stay at hand for all of them, and the rows end at
     * once, where row by row each value would find its column, its conversion and the row's end
     * anew. Their values go in exactly as {@link #add(Rows, Object, Object[], int)} puts them.
     *
     * @return false when a column refused one of the values: nothing of them is then left in {@code
     *     rows}, and adding them one by one says which and why (or takes the value the writer's own
     *     path converts)
     */
    boolean addPlain(Rows rows, Object[] staged, int from, int count) {
        int w = columns.length;
        try {
            for (int i = 0; i < w; i++) {
                Column c = rows.column(i);
                for (int at = from * w + i, end = at + count * w; at < end; at += w) {
                    appendDirect(c, i, staged[at]); // plain: each goes straight in
                }
            }
        } catch (RuntimeException refused) {
            rows.abortRow();
            return false;
        }
        rows.endRows(count);
        return true;
    }

    /** The row of map {@code m}, its look-ups at {@code staged[at]}. */
    private void fromMap(Rows rows, Map<?, ?> m, Object[] staged, int at) {
        int found = 0;
        for (int i = 0; i < columns.length; i++) {
            Object v = staged[at + i];
            if (v == null) {
                if (!m.containsKey(columns[i])) {
                    continue;
                }
                rows.set(i, null);
            } else {
                set(rows, i, v);
            }
            found++;
        }
        if (found < m.size()) {
            otherFields(rows, m);
        }
    }

    /** The map has keys that are no column: refused, unless they are names and ignored. */
    private void otherFields(Rows rows, Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getKey() instanceof String k)) {
                throw new DataException(
                        "a record value's keys must be field names (strings), not "
                                + RecordValues.typeOf(e.getKey()));
            }
            if (!ignoreUnknown && rows.columnIndex(k) < 0) {
                rows.set(k, e.getValue()); // throws, naming the field and the table
            }
        }
    }

    private void fromStruct(Rows rows, Struct s) {
        Schema schema = s.schema();
        if (schema != lastSchema) {
            lastColumnOf = columnsOf(rows, schema);
            lastSchema = schema;
        }
        int[] columnOf = lastColumnOf;
        List<Field> fields = schema.fields();
        for (int f = 0; f < columnOf.length; f++) {
            Field field = fields.get(f);
            int i = columnOf[f];
            if (i < 0) {
                if (!ignoreUnknown) {
                    // throws, naming the field and the table
                    rows.set(field.name(), RecordValues.nested(s.get(field)));
                }
                continue;
            }
            Object v = s.get(field);
            if (v == null) {
                rows.set(i, null);
            } else {
                set(rows, i, RecordValues.nested(v));
            }
        }
    }

    private static int[] columnsOf(Rows rows, Schema schema) {
        List<Field> fields = schema.fields();
        int[] out = new int[fields.size()];
        for (int f = 0; f < out.length; f++) {
            out[f] = rows.columnIndex(fields.get(f).name());
        }
        return out;
    }

    /**
     * Appends {@code v} to column {@code i}: the commonest values straight into the column ({@link
     * #appendDirect}); anything else — and any of these the column refuses — through {@link
     * Rows#set(int, Object)}, which converts or says why not.
     */
    private void set(Rows rows, int i, Object v) {
        Column c = rows.column(i);
        int row = rows.size();
        try {
            if (appendDirect(c, i, v)) {
                return;
            }
        } catch (RuntimeException refused) {
            if (c.rows() > row) {
                c.truncate(row);
            }
            // the writer's own path converts it (a lone surrogate becomes '?') or names the
            // column, its type and the value
        }
        rows.set(i, v);
    }

    /** True when {@code v} goes straight into column {@code i} ({@link #appendDirect}). */
    private boolean direct(int i, Object v) {
        return v instanceof String
                ? plainString[i]
                : v instanceof Long || v instanceof Double || v instanceof Integer;
    }

    /**
     * Appends {@code v} to column {@code i}'s buffer {@code c} when it goes straight in, with the
     * converter the writer itself uses for that value (its {@code ObjectValue}: a Long or Integer
     * is {@code integer}, a Double {@code floating}), a string for a plain String column encoded in
     * place; false, with nothing appended, for any other value.
     *
     * @throws RuntimeException when the column refuses the value (part of it may be appended)
     */
    private boolean appendDirect(Column c, int i, Object v) {
        if (v instanceof String s) {
            if (!plainString[i]) {
                return false;
            }
            c.appendString(s); // the UTF-8 the writer would send, without a copy
        } else if (v instanceof Long n) {
            converters[i].integer(c, n);
        } else if (v instanceof Double d) {
            converters[i].floating(c, d);
        } else if (v instanceof Integer n) {
            converters[i].integer(c, n);
        } else {
            return false;
        }
        return true;
    }
}
