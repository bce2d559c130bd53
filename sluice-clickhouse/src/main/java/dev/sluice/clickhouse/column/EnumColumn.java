package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.EnumType;
import java.util.HashMap;
import java.util.Map;

/** Enum8/Enum16: only the values the type declares are accepted, by number or by name. */
public final class EnumColumn extends IntColumn {
    private final EnumType enumType;
    private final Map<String, Integer> byName = new HashMap<>();
    private final boolean[] known = new boolean[65536];
    private final int defaultValue;

    public EnumColumn(String name, EnumType type) {
        super(
                name,
                type,
                type.bits() / 8,
                true,
                type.bits() == 8 ? Byte.MIN_VALUE : Short.MIN_VALUE,
                type.bits() == 8 ? Byte.MAX_VALUE : Short.MAX_VALUE);
        this.enumType = type;
        int min = Integer.MAX_VALUE;
        for (EnumType.Entry e : type.entries()) {
            byName.put(e.name(), e.value());
            known[e.value() + 32768] = true;
            min = Math.min(min, e.value());
        }
        this.defaultValue = min;
    }

    @Override
    public void appendLong(long value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE || !known[(int) value + 32768]) {
            throw invalid("value " + value + " is not one of the enum's values");
        }
        put(value);
    }

    @Override
    public void appendString(CharSequence value) {
        Integer v = byName.get(value.toString());
        if (v == null) {
            throw invalid("unknown enum name " + abbreviate(value));
        }
        put(v);
    }

    @Override
    public void appendDefault() {
        // The server keeps entries sorted by value and defaults to the first: the smallest.
        put(defaultValue);
    }

    @Override
    public String getString(int row) {
        String n = enumType.nameOf((int) getLong(row));
        return n != null ? n : Long.toString(getLong(row));
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }
}
