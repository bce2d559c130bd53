package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.clickhouse.types.TupleType;
import java.util.List;

/**
 * Tuple(T1, ..., Tn) from its text form {@code (v1, ..., vn)}; the JSON decoder takes JSON arrays
 * by position and, for named tuples, objects by name, through {@link #element}.
 */
public final class TupleConverter extends Converter {
    private final Converter[] elements;
    private final List<String> names;
    private final QuotedReader reader;

    TupleConverter(TupleType type, Converter[] elements) {
        super(type);
        this.elements = elements;
        this.names = type.names();
        this.reader = new QuotedReader(type.typeName());
    }

    public int size() {
        return elements.length;
    }

    public Converter element(int i) {
        return elements[i];
    }

    /** Element names of a named tuple, else empty. */
    public List<String> names() {
        return names;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        TupleColumn t = (TupleColumn) c;
        int before = t.rows();
        try {
            reader.start(b, off, len, '(');
            for (int i = 0; i < elements.length; i++) {
                if (i > 0) {
                    reader.expect(',');
                }
                reader.value(elements[i], t.element(i));
            }
            reader.expect(')');
            reader.finish();
        } catch (RuntimeException e) {
            t.truncate(before); // drop the elements of the unfinished row
            throw e;
        }
    }
}
