package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;

/**
 * String (and FixedString, and the JSON type, which takes text): the bytes as given. Numbers keep
 * the text they were written with, booleans become {@code true}/{@code false}, and a JSON object or
 * array becomes its JSON text, as written in the record. FixedString rejects a value longer than N
 * bytes and pads a shorter one with NUL bytes.
 */
final class StringConverter extends Converter {
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private final boolean jsonText;

    StringConverter(ClickHouseType type, boolean jsonText) {
        super(type);
        this.jsonText = jsonText;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        c.appendBytes(b, off, len);
    }

    @Override
    public void bool(Column c, boolean v) {
        byte[] t = v ? TRUE : FALSE;
        c.appendBytes(t, 0, t.length);
    }

    @Override
    public boolean takesJsonText() {
        return jsonText;
    }
}
