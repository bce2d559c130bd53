package dev.sluice.clickhouse.expr;

/**
 * String functions on bytes, as the server computes them: {@code lower}/{@code upper} change ASCII
 * letters only, {@code length} counts bytes, {@code lengthUTF8} counts bytes that do not continue a
 * UTF-8 sequence, {@code substring} works on bytes with constant 1-based (or negative, from the
 * end) offset and optional constant length, {@code concat} joins its arguments.
 */
final class StringNode extends Node {
    enum Fn {
        LOWER,
        UPPER,
        LENGTH,
        LENGTH_UTF8,
        EMPTY,
        NOT_EMPTY,
        SUBSTRING,
        CONCAT
    }

    private final Fn fn;
    private final Node[] args;
    private final ValueVector[] values;
    private final long offset;
    private final long length; // -1: to the end

    StringNode(Fn fn, ValueType type, Node[] args, long offset, long length) {
        super(type);
        this.fn = fn;
        this.args = args;
        this.values = new ValueVector[args.length];
        this.offset = offset;
        this.length = length;
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
        ValueVector a = values[0];
        for (int i = 0; i < n; i++) {
            int k = at(a, i);
            int s = a.starts[k];
            int e = a.ends[k];
            switch (fn) {
                case LOWER, UPPER -> caseMap(i, a.bytes, s, e, fn == Fn.UPPER);
                case LENGTH -> out.longs[i] = e - s;
                case LENGTH_UTF8 -> out.longs[i] = utf8Length(a.bytes, s, e);
                case EMPTY -> out.longs[i] = e == s ? 1 : 0;
                case NOT_EMPTY -> out.longs[i] = e == s ? 0 : 1;
                case SUBSTRING -> substring(i, a.bytes, s, e);
                case CONCAT -> concat(i);
            }
        }
        return out;
    }

    private void caseMap(int i, byte[] src, int s, int e, boolean upper) {
        out.putString(i, src, s, e);
        byte[] b = out.bytes;
        for (int p = out.starts[i]; p < out.ends[i]; p++) {
            byte c = b[p];
            if (upper ? c >= 'a' && c <= 'z' : c >= 'A' && c <= 'Z') {
                b[p] = (byte) (c ^ 0x20);
            }
        }
    }

    private static long utf8Length(byte[] b, int s, int e) {
        long n = 0;
        for (int p = s; p < e; p++) {
            if ((b[p] & 0xC0) != 0x80) {
                n++;
            }
        }
        return n;
    }

    /** Bytes {@code [from, to)} of the value, clipped to it; the offset may point before it. */
    private void substring(int i, byte[] src, int s, int e) {
        long size = e - s;
        long from = offset > 0 ? offset - 1 : size + offset;
        long to = length < 0 ? size : from + length;
        from = Math.max(0, Math.min(from, size));
        to = Math.max(from, Math.min(to, size));
        out.putString(i, src, s + (int) from, s + (int) to);
    }

    private void concat(int i) {
        int total = 0;
        for (ValueVector v : values) {
            int k = at(v, i);
            total += v.ends[k] - v.starts[k];
        }
        byte[] b = out.ownBytes(total);
        int p = out.bytesUsed;
        out.starts[i] = p;
        for (ValueVector v : values) {
            int k = at(v, i);
            int len = v.ends[k] - v.starts[k];
            System.arraycopy(v.bytes, v.starts[k], b, p, len);
            p += len;
        }
        out.bytesUsed = p;
        out.ends[i] = p;
    }
}
