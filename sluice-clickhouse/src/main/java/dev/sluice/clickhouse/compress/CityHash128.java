package dev.sluice.clickhouse.compress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * CityHash128 as of CityHash v1.0.2, the variant ClickHouse pins for compressed-frame checksums.
 *
 * <p>Google's later releases (v1.0.3, v1.1) changed the seeding, the short-input paths and the
 * long-input loop, so their hashes do not verify ClickHouse frames. This implementation follows the
 * v1.0.2 algorithm; all arithmetic is on unsigned 64-bit values, which Java's wrapping {@code long}
 * add/multiply/xor reproduce exactly (shifts must be unsigned, hence {@code >>>}).
 *
 * <p>The only allocation is the returned {@link Hash128}; the 128-bit intermediate pairs of the
 * reference code live in local variables.
 */
public final class CityHash128 {

    /** The two 64-bit halves; ClickHouse writes {@code low} first, each little-endian. */
    public record Hash128(long low, long high) {}

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    static final long K0 = 0xc3a5c85c97cb3127L;
    static final long K1 = 0xb492b66fbe98f273L;
    static final long K2 = 0x9ae16a3b2f90404fL;
    static final long K3 = 0xc949d7c7509e6557L;
    private static final long K_MUL = 0x9ddfea08eb382d69L;

    private CityHash128() {}

    /** Hashes {@code data[off .. off+len)}. */
    public static Hash128 hash(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        if (len >= 16) {
            return withSeed(
                    data, off + 16, len - 16, fetch64(data, off) ^ K3, fetch64(data, off + 8));
        }
        if (len >= 8) {
            // v1.0.2 folds 8..15-byte inputs entirely into the seed and hashes nothing.
            return withSeed(
                    data,
                    off,
                    0,
                    fetch64(data, off) ^ (len * K0),
                    fetch64(data, off + len - 8) ^ K1);
        }
        return withSeed(data, off, len, K0, K1);
    }

    private static Hash128 withSeed(byte[] s, int pos, int len, long seedLow, long seedHigh) {
        if (len < 128) {
            return cityMurmur(s, pos, len, seedLow, seedHigh);
        }
        long x = seedLow;
        long y = seedHigh;
        long z = len * K1;
        long v0 = Long.rotateRight(y ^ K1, 49) * K1 + fetch64(s, pos);
        long v1 = Long.rotateRight(v0, 42) * K1 + fetch64(s, pos + 8);
        long w0 = Long.rotateRight(y + z, 35) * K1 + x;
        long w1 = Long.rotateRight(x + fetch64(s, pos + 88), 53) * K1;

        // The reference unrolls two 64-byte rounds per 128-byte step; the round count is the same.
        for (int rounds = (len / 128) * 2; rounds > 0; rounds--) {
            x = Long.rotateRight(x + y + v0 + fetch64(s, pos + 16), 37) * K1;
            y = Long.rotateRight(y + v1 + fetch64(s, pos + 48), 42) * K1;
            x ^= w1;
            y ^= v0;
            z = Long.rotateRight(z ^ w0, 33);
            long a = v1 * K1;
            long b = x + w0;
            v0 = weakFirst(s, pos, a);
            v1 = weakSecond(s, pos, a, b);
            a = z + w1;
            w0 = weakFirst(s, pos + 32, a);
            w1 = weakSecond(s, pos + 32, a, y);
            long t = z;
            z = x;
            x = t;
            pos += 64;
        }
        len %= 128;

        y += Long.rotateRight(w0, 37) * K0 + z;
        x += Long.rotateRight(v0 + z, 49) * K0;
        // Up to four 32-byte chunks counted back from the end; they may overlap bytes already
        // consumed by the loop above, which is why the loop needs at least 128 bytes.
        for (int tailDone = 0; tailDone < len; ) {
            tailDone += 32;
            int chunk = pos + len - tailDone;
            y = Long.rotateRight(y - x, 42) * K0 + v1;
            w0 += fetch64(s, chunk + 16);
            x = Long.rotateRight(x, 49) * K0 + w0;
            w0 += v0;
            long a = v0;
            v0 = weakFirst(s, chunk, a);
            v1 = weakSecond(s, chunk, a, v1);
        }
        x = hashLen16(x, v0);
        y = hashLen16(y, w0);
        return new Hash128(hashLen16(x + v1, w1) + y, hashLen16(x + w1, y + v1));
    }

    private static Hash128 cityMurmur(byte[] s, int pos, int len, long seedLow, long seedHigh) {
        long a = seedLow;
        long b = seedHigh;
        long c;
        long d;
        if (len <= 16) {
            a = shiftMix(a * K1) * K1;
            c = b * K1 + hashLen0to16(s, pos, len);
            d = shiftMix(a + (len >= 8 ? fetch64(s, pos) : c));
        } else {
            c = hashLen16(fetch64(s, pos + len - 8) + K1, a);
            d = hashLen16(b + len, c + fetch64(s, pos + len - 16));
            a += d;
            // do/while: the first 16-byte round always runs (a v1.0.2 detail).
            int l = len - 16;
            do {
                a ^= shiftMix(fetch64(s, pos) * K1) * K1;
                a *= K1;
                b ^= a;
                c ^= shiftMix(fetch64(s, pos + 8) * K1) * K1;
                c *= K1;
                d ^= c;
                pos += 16;
                l -= 16;
            } while (l > 0);
        }
        a = hashLen16(a, c);
        b = hashLen16(d, b);
        return new Hash128(a ^ b, hashLen16(b, a));
    }

    static long hashLen0to16(byte[] s, int pos, int len) {
        if (len > 8) {
            long a = fetch64(s, pos);
            long b = fetch64(s, pos + len - 8);
            return hashLen16(a, Long.rotateRight(b + len, len)) ^ b;
        }
        if (len >= 4) {
            long a = fetch32(s, pos);
            return hashLen16(len + (a << 3), fetch32(s, pos + len - 4));
        }
        if (len > 0) {
            long a = s[pos] & 0xFF;
            long b = s[pos + (len >> 1)] & 0xFF;
            long c = s[pos + len - 1] & 0xFF;
            long y = a + (b << 8);
            long z = len + (c << 2);
            return shiftMix(y * K2 ^ z * K3) * K2;
        }
        return K2;
    }

    /** First half of the reference's WeakHashLen32WithSeeds over {@code s[p .. p+32)}. */
    static long weakFirst(byte[] s, int p, long a) {
        return a + fetch64(s, p) + fetch64(s, p + 8) + fetch64(s, p + 16) + fetch64(s, p + 24);
    }

    /** Second half of WeakHashLen32WithSeeds; split from the first so that nothing is allocated. */
    static long weakSecond(byte[] s, int p, long a, long b) {
        long w = fetch64(s, p);
        long z = fetch64(s, p + 24);
        long aw = a + w;
        return Long.rotateRight(b + aw + z, 21)
                + Long.rotateRight(aw + fetch64(s, p + 8) + fetch64(s, p + 16), 44)
                + aw;
    }

    /** Hash128to64 from city.h. */
    static long hashLen16(long u, long v) {
        long a = (u ^ v) * K_MUL;
        a ^= a >>> 47;
        long b = (v ^ a) * K_MUL;
        b ^= b >>> 47;
        return b * K_MUL;
    }

    static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    static long fetch64(byte[] s, int p) {
        return (long) LONG_LE.get(s, p);
    }

    static long fetch32(byte[] s, int p) {
        return Integer.toUnsignedLong((int) INT_LE.get(s, p));
    }
}
