package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.ClickHouseType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * FixedString(N) and IPv6: N raw bytes per row. Shorter FixedString values are NUL-padded, as the
 * server does; IPv6 values must be exactly 16 bytes (network order).
 */
public final class FixedBytesColumn extends FixedWidthColumn {
    private final boolean exact;

    public FixedBytesColumn(String name, ClickHouseType type, int width, boolean exactLength) {
        super(name, type, width);
        this.exact = exactLength;
    }

    @Override
    public void appendBytes(byte[] value, int offset, int length) {
        if (length > width || (exact && length != width)) {
            throw invalid(
                    "value of "
                            + length
                            + " bytes does not fit "
                            + (exact ? "exactly " : "at most ")
                            + width
                            + " bytes");
        }
        int off = reserve(1);
        System.arraycopy(value, offset, data, off, length);
        Arrays.fill(data, off + length, off + width, (byte) 0);
        rows++;
    }

    @Override
    public void appendString(CharSequence value) {
        byte[] b = value.toString().getBytes(StandardCharsets.UTF_8);
        appendBytes(b, 0, b.length);
    }

    public byte[] getBytes(int row) {
        checkRow(row);
        return Arrays.copyOfRange(data, row * width, row * width + width);
    }

    @Override
    public String getString(int row) {
        return new String(getBytes(row), StandardCharsets.UTF_8);
    }

    @Override
    public Object getObject(int row) {
        return getBytes(row);
    }
}
