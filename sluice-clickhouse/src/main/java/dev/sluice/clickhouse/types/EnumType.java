package dev.sluice.clickhouse.types;

import java.util.List;

/** {@code Enum8(...)} or {@code Enum16(...)}: Int8/Int16 values with names. */
public record EnumType(int bits, List<Entry> entries) implements ClickHouseType {

    /** One {@code 'name' = value} pair. */
    public record Entry(String name, int value) {}

    public EnumType {
        if (bits != 8 && bits != 16) {
            throw new IllegalArgumentException("Enum width must be 8 or 16 bits: " + bits);
        }
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("Enum" + bits + " needs at least one value");
        }
        int min = bits == 8 ? Byte.MIN_VALUE : Short.MIN_VALUE;
        int max = bits == 8 ? Byte.MAX_VALUE : Short.MAX_VALUE;
        for (Entry e : entries) {
            if (e.value() < min || e.value() > max) {
                throw new IllegalArgumentException(
                        "Enum"
                                + bits
                                + " value "
                                + e.value()
                                + " of '"
                                + e.name()
                                + "' is outside "
                                + min
                                + ".."
                                + max);
            }
        }
    }

    /** The value named {@code name}, or {@code Integer.MIN_VALUE} when there is none. */
    public int valueOf(String name) {
        for (Entry e : entries) {
            if (e.name().equals(name)) {
                return e.value();
            }
        }
        return Integer.MIN_VALUE;
    }

    /** The name of {@code value}, or null when there is none. */
    public String nameOf(int value) {
        for (Entry e : entries) {
            if (e.value() == value) {
                return e.name();
            }
        }
        return null;
    }

    @Override
    public String typeName() {
        StringBuilder sb = new StringBuilder("Enum").append(bits).append('(');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Entry e = entries.get(i);
            sb.append(TypeParser.quote(e.name())).append(" = ").append(e.value());
        }
        return sb.append(')').toString();
    }
}
