package dev.sluice.clickhouse.compress;

import static dev.sluice.clickhouse.compress.CityHash128.K0;
import static dev.sluice.clickhouse.compress.CityHash128.K1;
import static dev.sluice.clickhouse.compress.CityHash128.K2;
import static dev.sluice.clickhouse.compress.CityHash128.K3;
import static dev.sluice.clickhouse.compress.CityHash128.fetch64;
import static dev.sluice.clickhouse.compress.CityHash128.hashLen0to16;
import static dev.sluice.clickhouse.compress.CityHash128.hashLen16;
import static dev.sluice.clickhouse.compress.CityHash128.shiftMix;
import static dev.sluice.clickhouse.compress.CityHash128.weakFirst;
import static dev.sluice.clickhouse.compress.CityHash128.weakSecond;

import java.util.Objects;

/**
 * CityHash64 as of CityHash v1.0.2: what ClickHouse's SQL function {@code cityHash64} computes for
 * a String (and {@code URLHash}, {@code farmHash64}'s sibling). Later CityHash releases changed
 * every length class, so their values differ; see {@link CityHash128} for the 128-bit variant.
 *
 * <p>{@link #combine} is the reference's {@code Hash128to64}: how {@code cityHash64(a, b, ...)}
 * folds the hash of each further argument into the running value.
 */
public final class CityHash64 {

    private CityHash64() {}

    /** Hashes {@code data[off .. off+len)}. */
    public static long hash(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        if (len <= 16) {
            return hashLen0to16(data, off, len);
        }
        if (len <= 32) {
            return hashLen17to32(data, off, len);
        }
        if (len <= 64) {
            return hashLen33to64(data, off, len);
        }
        return hashLong(data, off, len);
    }

    /** {@code Hash128to64(uint128(low, high))}. */
    public static long combine(long low, long high) {
        return hashLen16(low, high);
    }

    private static long hashLen17to32(byte[] s, int p, int len) {
        long a = fetch64(s, p) * K1;
        long b = fetch64(s, p + 8);
        long c = fetch64(s, p + len - 8) * K2;
        long d = fetch64(s, p + len - 16) * K0;
        return hashLen16(
                Long.rotateRight(a - b, 43) + Long.rotateRight(c, 30) + d,
                a + Long.rotateRight(b ^ K3, 20) - c + len);
    }

    private static long hashLen33to64(byte[] s, int p, int len) {
        long z = fetch64(s, p + 24);
        long a = fetch64(s, p) + (len + fetch64(s, p + len - 16)) * K0;
        long b = Long.rotateRight(a + z, 52);
        long c = Long.rotateRight(a, 37);
        a += fetch64(s, p + 8);
        c += Long.rotateRight(a, 7);
        a += fetch64(s, p + 16);
        long vf = a + z;
        long vs = b + Long.rotateRight(a, 31) + c;
        a = fetch64(s, p + 16) + fetch64(s, p + len - 32);
        z = fetch64(s, p + len - 8);
        b = Long.rotateRight(a + z, 52);
        c = Long.rotateRight(a, 37);
        a += fetch64(s, p + len - 24);
        c += Long.rotateRight(a, 7);
        a += fetch64(s, p + len - 16);
        long wf = a + z;
        long ws = b + Long.rotateRight(a, 31) + c;
        long r = shiftMix((vf + ws) * K2 + (wf + vs) * K0);
        return shiftMix(r * K0 + vs) * K2;
    }

    /** More than 64 bytes: the tail seeds the state, then 64-byte chunks from the start. */
    private static long hashLong(byte[] s, int p, int len) {
        long x = fetch64(s, p);
        long y = fetch64(s, p + len - 16) ^ K1;
        long z = fetch64(s, p + len - 56) ^ K0;
        // v and w are the reference's pairs, held as two longs each so nothing is allocated.
        long v0 = weakFirst(s, p + len - 64, len);
        long v1 = weakSecond(s, p + len - 64, len, y);
        long w0 = weakFirst(s, p + len - 32, len * K1);
        long w1 = weakSecond(s, p + len - 32, len * K1, K0);
        z += shiftMix(v1) * K1;
        x = Long.rotateRight(z + x, 39) * K1;
        y = Long.rotateRight(y, 33) * K1;

        // As many 64-byte chunks as fit in len - 1 (a multiple of 64, at least one).
        for (int left = (len - 1) & ~63; left != 0; left -= 64) {
            x = Long.rotateRight(x + y + v0 + fetch64(s, p + 16), 37) * K1;
            y = Long.rotateRight(y + v1 + fetch64(s, p + 48), 42) * K1;
            x ^= w1;
            y ^= v0;
            z = Long.rotateRight(z ^ w0, 33);
            long va = v1 * K1;
            long vb = x + w0;
            v0 = weakFirst(s, p, va);
            v1 = weakSecond(s, p, va, vb);
            long wa = z + w1;
            w0 = weakFirst(s, p + 32, wa);
            w1 = weakSecond(s, p + 32, wa, y);
            long t = z;
            z = x;
            x = t;
            p += 64;
        }
        return hashLen16(hashLen16(v0, w0) + shiftMix(y) * K1 + z, hashLen16(v1, w1) + x);
    }
}
