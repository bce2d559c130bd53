package dev.sluice.clickhouse.column;

import java.math.BigInteger;

/** Little-endian two's complement integers of 16 or 32 bytes, to and from BigInteger. */
final class WideIntegers {
    private WideIntegers() {}

    /** Writes {@code v} as {@code width} bytes at {@code off}; the caller checked the range. */
    static void put(byte[] dst, int off, int width, BigInteger v) {
        byte[] be = v.toByteArray(); // big-endian, minimal, sign-carrying
        byte fill = (byte) (v.signum() < 0 ? 0xFF : 0);
        for (int i = 0; i < width; i++) {
            int src = be.length - 1 - i;
            dst[off + i] = src >= 0 ? be[src] : fill;
        }
    }

    /** Writes a long sign- or zero-extended to {@code width} bytes. */
    static void putLong(byte[] dst, int off, int width, long v, boolean signExtend) {
        FixedWidthColumn.LONG_LE.set(dst, off, v);
        byte fill = (byte) (signExtend && v < 0 ? 0xFF : 0);
        for (int i = 8; i < width; i++) {
            dst[off + i] = fill;
        }
    }

    static BigInteger get(byte[] src, int off, int width, boolean signed) {
        byte[] be = new byte[width + 1];
        for (int i = 0; i < width; i++) {
            be[width - i] = src[off + i];
        }
        be[0] = signed && src[off + width - 1] < 0 ? (byte) 0xFF : 0;
        return new BigInteger(be);
    }

    /** True if {@code v} fits {@code bits} bits, signed or unsigned. */
    static boolean fits(BigInteger v, int bits, boolean signed) {
        if (signed) {
            return v.bitLength() <= bits - 1;
        }
        return v.signum() >= 0 && v.bitLength() <= bits;
    }
}
