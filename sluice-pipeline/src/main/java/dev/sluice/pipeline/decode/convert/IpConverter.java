package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;

/**
 * IPv4 (dotted quad, or its UInt32 value as an integer) and IPv6 (RFC 4291 text: full, {@code ::}
 * compressed, or with a trailing dotted quad; an IPv4 address becomes {@code ::ffff:a.b.c.d}, as
 * ClickHouse maps it).
 */
final class IpConverter extends Converter {
    private final boolean v6;
    private final byte[] address = new byte[16];

    IpConverter(SimpleType type) {
        super(type);
        this.v6 = type == SimpleType.IPV6;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (!v6) {
            long v = ipv4(b, off, off + len);
            if (v < 0) {
                throw notA("an IPv4 address", b, off, len);
            }
            c.appendLong(v);
            return;
        }
        if (!ipv6(b, off, off + len)) {
            throw notA("an IPv6 address", b, off, len);
        }
        c.appendBytes(address, 0, 16);
    }

    @Override
    public void number(Column c, byte[] b, int off, int len) {
        if (v6) {
            throw notA("an IPv6 address", b, off, len);
        }
        long v = 0;
        if (!Texts.allDigits(b, off, len) || len > 10) {
            throw notA("an IPv4 address", b, off, len);
        }
        for (int i = off; i < off + len; i++) {
            v = v * 10 + (b[i] - '0');
        }
        c.appendLong(v); // the column checks the UInt32 range
    }

    @Override
    public void integer(Column c, long v) {
        if (v6) {
            throw new ConversionException("the number " + v + " is not an IPv6 address");
        }
        c.appendLong(v);
    }

    /** The dotted quad in {@code b[p, end)} as an unsigned 32-bit value, or -1. */
    static long ipv4(byte[] b, int p, int end) {
        long v = 0;
        for (int part = 0; part < 4; part++) {
            if (part > 0) {
                if (p >= end || b[p] != '.') {
                    return -1;
                }
                p++;
            }
            int start = p;
            int octet = 0;
            while (p < end && Decimals.isDigit(b[p]) && p - start < 3) {
                octet = octet * 10 + (b[p++] - '0');
            }
            if (p == start || octet > 255) {
                return -1;
            }
            v = v << 8 | octet;
        }
        return p == end ? v : -1;
    }

    /** Parses IPv6 text into {@link #address}. */
    private boolean ipv6(byte[] b, int p, int end) {
        java.util.Arrays.fill(address, (byte) 0);
        long v4 = ipv4(b, p, end);
        if (v4 >= 0) {
            address[10] = (byte) 0xFF;
            address[11] = (byte) 0xFF;
            putInt(v4, 12);
            return true;
        }
        int groups = 0; // 16-bit groups written
        int gap = -1; // group index where "::" stands
        if (end - p >= 2 && b[p] == ':' && b[p + 1] == ':') {
            gap = 0;
            p += 2;
        }
        while (p < end) {
            int start = p;
            int v = 0;
            while (p < end && UuidConverter.hexValue(b[p]) >= 0 && p - start < 4) {
                v = v << 4 | UuidConverter.hexValue(b[p++]);
            }
            if (p < end && b[p] == '.') {
                // a trailing dotted quad takes the last two groups
                long tail = ipv4(b, start, end);
                if (tail < 0 || groups > 6) {
                    return false;
                }
                putInt(tail, groups * 2);
                groups += 2;
                p = end;
                break;
            }
            if (p == start || groups == 8) {
                return false;
            }
            address[groups * 2] = (byte) (v >> 8);
            address[groups * 2 + 1] = (byte) v;
            groups++;
            if (p == end) {
                break;
            }
            if (b[p] != ':') {
                return false;
            }
            p++;
            if (p < end && b[p] == ':') {
                if (gap >= 0) {
                    return false;
                }
                gap = groups;
                p++;
            } else if (p == end) {
                return false; // a trailing single colon
            }
        }
        if (gap < 0) {
            return groups == 8;
        }
        if (groups > 7) {
            return false;
        }
        // move the groups after the gap to the end
        int after = groups - gap;
        System.arraycopy(address, gap * 2, address, 16 - after * 2, after * 2);
        java.util.Arrays.fill(address, gap * 2, 16 - after * 2, (byte) 0);
        return true;
    }

    private void putInt(long v, int at) {
        address[at] = (byte) (v >>> 24);
        address[at + 1] = (byte) (v >>> 16);
        address[at + 2] = (byte) (v >>> 8);
        address[at + 3] = (byte) v;
    }
}
