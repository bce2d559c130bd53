package dev.sluice.pipeline.transform.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A string value: {@code bytes[off, off + len)}. Each string-valued expression owns one slice and
 * refills it per row, pointing into a column's storage or its own buffer, so evaluation does not
 * allocate. Valid until the expression is evaluated again.
 */
public final class Slice {
    public byte[] bytes = new byte[0];
    public int off;
    public int len;

    void set(byte[] b, int off, int len) {
        this.bytes = b;
        this.off = off;
        this.len = len;
    }

    int compareTo(Slice o) {
        return Arrays.compareUnsigned(bytes, off, off + len, o.bytes, o.off, o.off + o.len);
    }

    boolean equalTo(Slice o) {
        return Arrays.equals(bytes, off, off + len, o.bytes, o.off, o.off + o.len);
    }

    @Override
    public String toString() {
        return new String(bytes, off, len, StandardCharsets.UTF_8);
    }
}
