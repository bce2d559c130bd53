package dev.sluice.pipeline.transform.expr;

import dev.sluice.pipeline.decode.convert.DateTimes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer that string-valued expressions build their values in. */
final class TextOut {
    byte[] b = new byte[64];
    int len;

    void clear() {
        len = 0;
    }

    private void room(int n) {
        if (len + n > b.length) {
            b = Arrays.copyOf(b, Math.max(len + n, b.length * 2));
        }
    }

    void append(byte[] src, int off, int n) {
        room(n);
        System.arraycopy(src, off, b, len, n);
        len += n;
    }

    void append(Slice s) {
        append(s.bytes, s.off, s.len);
    }

    void appendLong(long v) {
        room(20);
        if (v == Long.MIN_VALUE) {
            append(Long.toString(v).getBytes(StandardCharsets.US_ASCII), 0, 20);
            return;
        }
        if (v < 0) {
            b[len++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = len + digits - 1; i >= len; i--) {
            b[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += digits;
    }

    /**
     * As ClickHouse prints a Float64: {@code 1} not {@code 1.0}, {@code 1e21} not {@code 1.0E21}.
     */
    void appendDouble(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            appendLong((long) v);
            return;
        }
        String s;
        if (Double.isNaN(v)) {
            s = "nan";
        } else if (Double.isInfinite(v)) {
            s = v > 0 ? "inf" : "-inf";
        } else {
            s = Double.toString(v).replace(".0E", "E").replace('E', 'e');
        }
        byte[] t = s.getBytes(StandardCharsets.US_ASCII);
        append(t, 0, t.length);
    }

    void appendDate(long days) {
        room(10);
        len = DateTimes.formatDate(days, b, len);
    }

    void appendDateTime(long seconds) {
        room(19);
        len = DateTimes.formatDateTime(seconds, b, len);
    }

    void appendBool(boolean v) {
        byte[] t = (v ? "true" : "false").getBytes(StandardCharsets.US_ASCII);
        append(t, 0, t.length);
    }

    /** Appends the text of {@code e}'s value; returns false when it is NULL. */
    boolean appendValue(Expr e, EvalContext c) {
        switch (e.kind) {
            case STRING -> {
                Slice s = e.asString(c);
                if (c.nul) {
                    return false;
                }
                append(s);
            }
            case FLOAT -> {
                double v = e.asDouble(c);
                if (c.nul) {
                    return false;
                }
                appendDouble(v);
            }
            case NULL -> {
                return false;
            }
            default -> {
                long v = e.asLong(c);
                if (c.nul) {
                    return false;
                }
                switch (e.kind) {
                    case DATE -> appendDate(v);
                    case DATETIME -> appendDateTime(v);
                    case BOOL -> appendBool(v != 0);
                    default -> appendLong(v);
                }
            }
        }
        return true;
    }
}
