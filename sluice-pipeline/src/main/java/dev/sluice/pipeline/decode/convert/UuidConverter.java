package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;

/** UUID from its 36-character text form (either case), parsed from the bytes. */
final class UuidConverter extends Converter {

    UuidConverter() {
        super(SimpleType.UUID);
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (len != 36) {
            throw bad(b, off, len);
        }
        long hi = 0;
        long lo = 0;
        int n = 0;
        for (int i = 0; i < 36; i++) {
            int ch = b[off + i];
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (ch != '-') {
                    throw bad(b, off, len);
                }
                continue;
            }
            int d = hexValue(ch);
            if (d < 0) {
                throw bad(b, off, len);
            }
            if (n++ < 16) {
                hi = hi << 4 | d;
            } else {
                lo = lo << 4 | d;
            }
        }
        c.appendUuid(hi, lo);
    }

    static int hexValue(int ch) {
        if (ch >= '0' && ch <= '9') {
            return ch - '0';
        }
        if (ch >= 'a' && ch <= 'f') {
            return ch - 'a' + 10;
        }
        if (ch >= 'A' && ch <= 'F') {
            return ch - 'A' + 10;
        }
        return -1;
    }

    private static ConversionException bad(byte[] b, int off, int len) {
        return notA("a UUID (expected 8-4-4-4-12 hex digits)", b, off, len);
    }
}
