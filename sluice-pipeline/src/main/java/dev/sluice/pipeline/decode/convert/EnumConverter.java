package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.EnumType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Enum8/Enum16 by name (matched on the bytes, no String per value) or by number. Text that is no
 * name but an integer is taken as the value, as newer ClickHouse versions do; the column rejects
 * values the type does not declare.
 */
final class EnumConverter extends Converter {
    private final byte[][] names;
    private final int[] values;

    /** Open addressing over the names: slot holds entry index + 1, 0 = empty. */
    private final int[] slots;

    EnumConverter(EnumType type) {
        super(type);
        int n = type.entries().size();
        names = new byte[n][];
        values = new int[n];
        slots = new int[Integer.highestOneBit(n * 2) * 2];
        for (int i = 0; i < n; i++) {
            names[i] = type.entries().get(i).name().getBytes(StandardCharsets.UTF_8);
            values[i] = type.entries().get(i).value();
            int s = hash(names[i], 0, names[i].length) & (slots.length - 1);
            while (slots[s] != 0) {
                s = (s + 1) & (slots.length - 1);
            }
            slots[s] = i + 1;
        }
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x811C9DC5;
        for (int i = off; i < off + len; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return h ^ (h >>> 15);
    }

    /** The index of the entry named {@code b[off, off + len)}, or -1. */
    private int find(byte[] b, int off, int len) {
        int mask = slots.length - 1;
        for (int s = hash(b, off, len) & mask; slots[s] != 0; s = (s + 1) & mask) {
            byte[] name = names[slots[s] - 1];
            if (Arrays.equals(name, 0, name.length, b, off, off + len)) {
                return slots[s] - 1;
            }
        }
        return -1;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        int i = find(b, off, len);
        if (i >= 0) {
            c.appendLong(values[i]);
            return;
        }
        if (isInteger(b, off, len)) {
            number(c, b, off, len);
            return;
        }
        throw new ConversionException(
                Texts.show(b, off, len) + " is not a name of " + type.typeName());
    }

    private static boolean isInteger(byte[] b, int off, int len) {
        return len > 0
                && len <= 6
                && (b[off] == '-'
                        ? Texts.allDigits(b, off + 1, len - 1)
                        : Texts.allDigits(b, off, len));
    }

    @Override
    public void number(Column c, byte[] b, int off, int len) {
        if (!isInteger(b, off, len)) {
            throw notA("a value of " + type.typeName(), b, off, len);
        }
        int v = Integer.parseInt(new String(b, off, len, StandardCharsets.US_ASCII));
        c.appendLong(v); // the column refuses undeclared values
    }

    @Override
    public void integer(Column c, long v) {
        c.appendLong(v);
    }
}
