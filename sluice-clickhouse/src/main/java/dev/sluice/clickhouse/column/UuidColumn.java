package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.SimpleType;
import java.util.UUID;

/**
 * UUID: 16 bytes per row, each 8-byte half little-endian — the most significant half first. So
 * 550e8400-e29b-41d4-a716-446655440000 is {@code D4 41 9B E2 00 84 0E 55 00 00 44 55 66 44 16 A7}.
 */
public final class UuidColumn extends FixedWidthColumn {

    public UuidColumn(String name) {
        super(name, SimpleType.UUID, 16);
    }

    @Override
    public void appendUuid(long mostSignificant, long leastSignificant) {
        int off = reserve(1);
        LONG_LE.set(data, off, mostSignificant);
        LONG_LE.set(data, off + 8, leastSignificant);
        rows++;
    }

    @Override
    public void appendString(CharSequence value) {
        UUID u;
        try {
            u = UUID.fromString(value.toString());
        } catch (IllegalArgumentException e) {
            throw invalid("'" + value + "' is not a UUID");
        }
        if (value.length() != 36) {
            throw invalid("'" + value + "' is not a UUID in 8-4-4-4-12 form");
        }
        appendUuid(u.getMostSignificantBits(), u.getLeastSignificantBits());
    }

    public UUID getUuid(int row) {
        checkRow(row);
        int off = row * 16;
        return new UUID((long) LONG_LE.get(data, off), (long) LONG_LE.get(data, off + 8));
    }

    @Override
    public String getString(int row) {
        return getUuid(row).toString();
    }

    @Override
    public Object getObject(int row) {
        return getUuid(row);
    }
}
