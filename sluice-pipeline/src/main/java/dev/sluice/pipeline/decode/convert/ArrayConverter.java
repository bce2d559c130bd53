package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ArrayType;

/**
 * Array(T) from its text form {@code [v1, v2, ...]}; JSON arrays are walked by the JSON decoder,
 * which uses {@link #element()} directly. A failed element takes back the whole array.
 */
public final class ArrayConverter extends Converter {
    private final Converter element;
    private final QuotedReader reader;

    ArrayConverter(ArrayType type, Converter element) {
        super(type);
        this.element = element;
        this.reader = new QuotedReader(type.typeName());
    }

    public Converter element() {
        return element;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        ArrayColumn a = (ArrayColumn) c;
        Column elements = a.elements();
        try {
            reader.start(b, off, len, '[');
            if (!reader.closes(']')) {
                do {
                    reader.value(element, elements);
                } while (reader.next(']'));
            }
            reader.finish();
        } catch (RuntimeException e) {
            a.abortArray();
            throw e;
        }
        a.endArray();
    }
}
