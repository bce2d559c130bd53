package dev.sluice.clickhouse.expr;

import java.util.Arrays;

/**
 * {@code x IN (a, b, ...)} and {@code x NOT IN (...)} over a list of constants the compiler has
 * converted to the type of {@code x} (dropping those the type cannot hold, as the server does):
 * UInt8, never NULL; a NULL {@code x} is in no list (so it is {@code NOT IN} every list). Numbers,
 * dates, times and Enums are looked up by their stored value, floats by their bits (as the server's
 * hash set compares them: {@code -0.} is not {@code 0.}, NaN is NaN), strings by their bytes, in a
 * sorted array (no allocation per row).
 */
final class InNode extends Node {
    private final Node arg;
    private final boolean negated;
    private final long[] numbers;
    private final byte[][] strings;

    /** A list of numbers ({@code strings} null), or of strings ({@code numbers} null). */
    InNode(Node arg, boolean negated, long[] numbers, byte[][] strings) {
        super(ValueType.UINT8);
        this.arg = arg;
        this.negated = negated;
        if (numbers != null) {
            this.numbers = numbers.clone();
            Arrays.sort(this.numbers);
            this.strings = null;
        } else {
            this.numbers = null;
            this.strings = strings.clone();
            Arrays.sort(this.strings, Arrays::compareUnsigned);
        }
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = a.constant ? 1 : ctx.count;
        out.prepare(n, a.constant);
        long[] r = out.longs;
        boolean floating = a.type.kind() == ValueType.Kind.FLOAT;
        for (int i = 0; i < n; i++) {
            boolean found;
            if (a.hasNulls && a.nulls[i] != 0) {
                found = false;
            } else if (numbers != null) {
                long key = floating ? Double.doubleToRawLongBits(a.doubles[i]) : a.longs[i];
                found = Arrays.binarySearch(numbers, key) >= 0;
            } else {
                found = containsString(a.bytes, a.starts[i], a.ends[i]);
            }
            r[i] = found != negated ? 1 : 0;
        }
        return out;
    }

    private boolean containsString(byte[] b, int from, int to) {
        int lo = 0;
        int hi = strings.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            byte[] s = strings[mid];
            int c = Arrays.compareUnsigned(s, 0, s.length, b, from, to);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
