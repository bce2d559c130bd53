package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.compress.CityHash64;
import dev.sluice.clickhouse.expr.ValueType.Kind;

/**
 * {@code intHash32}, {@code intHash64} and {@code cityHash64} as in ClickHouse's FunctionsHashing:
 * {@code intHash32/64} widen integers (Date as UInt16, DateTime as UInt32) to 64 bits with their
 * sign; {@code cityHash64} hashes a string with CityHash64 v1.0.2 and a number with {@code
 * intHash64(x ^ 0x4CF2D2BAAE6DA887)} of its bytes zero-extended (Int8 -1 is 0xFF, a float is its
 * bits), and folds each further argument into the running hash with {@code Hash128to64(running,
 * hash)}. Checked against the server, which is how the two widenings were found to differ.
 */
final class HashNode extends Node {
    enum Fn {
        INT_HASH32,
        INT_HASH64,
        CITY_HASH64
    }

    private static final long INT_HASH32_SALT = 0x75D9543DE018BF45L;
    private static final long INT_HASH64_SALT = 0x4CF2D2BAAE6DA887L;

    private final Fn fn;
    private final Node[] args;
    private final ValueVector[] values;

    HashNode(Fn fn, Node[] args, ValueType type) {
        super(type);
        this.fn = fn;
        this.args = args;
        this.values = new ValueVector[args.length];
    }

    @Override
    boolean rowIndependent() {
        for (Node a : args) {
            if (!a.rowIndependent()) {
                return false;
            }
        }
        return true;
    }

    @Override
    ValueVector eval(Context ctx) {
        for (int j = 0; j < args.length; j++) {
            values[j] = args[j].eval(ctx);
        }
        int n = prepare(ctx, values);
        long[] r = out.longs;
        switch (fn) {
            case INT_HASH32 -> {
                ValueVector a = values[0];
                for (int i = 0; i < n; i++) {
                    r[i] = intHash32(a.longs[at(a, i)]) & 0xFFFF_FFFFL;
                }
            }
            case INT_HASH64 -> {
                ValueVector a = values[0];
                for (int i = 0; i < n; i++) {
                    r[i] = intHash64(a.longs[at(a, i)] ^ INT_HASH64_SALT);
                }
            }
            case CITY_HASH64 -> {
                for (int i = 0; i < n; i++) {
                    long h = hashOf(values[0], i);
                    for (int j = 1; j < values.length; j++) {
                        h = CityHash64.combine(h, hashOf(values[j], i));
                    }
                    r[i] = h;
                }
            }
        }
        return out;
    }

    private static long hashOf(ValueVector v, int i) {
        int k = at(v, i);
        Kind kind = v.type.kind();
        if (kind == Kind.STRING || kind == Kind.FIXED_STRING) {
            return CityHash64.hash(v.bytes, v.starts[k], v.ends[k] - v.starts[k]);
        }
        long bits;
        if (kind == Kind.FLOAT) {
            bits =
                    v.type.bits() == 32
                            ? Float.floatToRawIntBits((float) v.doubles[k]) & 0xFFFF_FFFFL
                            : Double.doubleToRawLongBits(v.doubles[k]);
        } else {
            // The bytes of the value, zero-extended: Int8 -1 hashes as 0xFF, not as -1.
            bits = v.longs[k];
            int width = v.type.kind() == Kind.INT ? v.type.bits() : 64;
            if (width < 64) {
                bits &= (1L << width) - 1;
            }
        }
        return intHash64(bits ^ INT_HASH64_SALT);
    }

    /** Murmur3's 64-bit finalizer: ClickHouse's {@code intHash64}. */
    static long intHash64(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    /** ClickHouse's {@code intHash32<salt>}: Thomas Wang's hash with rotations. */
    static int intHash32(long key) {
        key ^= INT_HASH32_SALT;
        key = ~key + (key << 18);
        key ^= Long.rotateRight(key, 31);
        key *= 21;
        key ^= Long.rotateRight(key, 11);
        key += key << 6;
        key ^= Long.rotateRight(key, 22);
        return (int) key;
    }
}
