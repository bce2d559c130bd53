package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.types.MapType;

/**
 * Map(K, V) from its text form {@code {k1:v1, k2:v2}}; the JSON decoder takes JSON objects through
 * {@link #key()} and {@link #value()}.
 */
public final class MapConverter extends Converter {
    private final Converter key;
    private final Converter value;
    private final QuotedReader reader;

    MapConverter(MapType type, Converter key, Converter value) {
        super(type);
        this.key = key;
        this.value = value;
        this.reader = new QuotedReader(type.typeName());
    }

    public Converter key() {
        return key;
    }

    public Converter value() {
        return value;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        MapColumn m = (MapColumn) c;
        try {
            reader.start(b, off, len, '{');
            if (!reader.closes('}')) {
                do {
                    reader.value(key, m.keys());
                    reader.expect(':');
                    reader.value(value, m.values());
                } while (reader.next('}'));
            }
            reader.finish();
        } catch (RuntimeException e) {
            m.abortMap();
            throw e;
        }
        m.endMap();
    }
}
