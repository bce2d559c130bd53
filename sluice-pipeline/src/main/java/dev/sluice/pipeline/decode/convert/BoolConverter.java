package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;

/** Bool from true/false (any case), 1/0, and JSON booleans and numbers 0/1. */
final class BoolConverter extends Converter {

    BoolConverter() {
        super(SimpleType.BOOL);
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (Texts.equalsIgnoreCase(b, off, len, "true")
                || Texts.equalsIgnoreCase(b, off, len, "1")) {
            c.appendLong(1);
        } else if (Texts.equalsIgnoreCase(b, off, len, "false")
                || Texts.equalsIgnoreCase(b, off, len, "0")) {
            c.appendLong(0);
        } else {
            throw notA("a boolean (expected true, false, 1 or 0)", b, off, len);
        }
    }

    @Override
    public void integer(Column c, long v) {
        c.appendLong(v); // the column takes 0 and 1 only
    }

    @Override
    public void bool(Column c, boolean v) {
        c.appendLong(v ? 1 : 0);
    }
}
