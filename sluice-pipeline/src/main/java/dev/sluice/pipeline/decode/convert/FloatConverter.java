package dev.sluice.pipeline.decode.convert;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.ClickHouseType;

/**
 * Float32, Float64 and BFloat16. Accepts decimal notation with an optional exponent, {@code inf},
 * {@code -inf}, {@code infinity} and {@code nan} (any case, as ClickHouse writes and reads them);
 * an empty field is 0. Parsing is correctly rounded and allocation-free (Jackson's bundled
 * FastDoubleParser over a reused char buffer).
 */
final class FloatConverter extends Converter {
    private char[] chars = new char[32];

    FloatConverter(ClickHouseType type) {
        super(type);
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        c.appendDouble(parse(b, off, len));
    }

    private double parse(byte[] b, int off, int len) {
        if (len == 0) {
            return 0; // as ClickHouse reads an empty number
        }
        int p = off;
        int end = off + len;
        boolean negative = b[p] == '-';
        if (negative || b[p] == '+') {
            p++;
        }
        int rest = end - p;
        if (Texts.equalsIgnoreCase(b, p, rest, "inf")
                || Texts.equalsIgnoreCase(b, p, rest, "infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (Texts.equalsIgnoreCase(b, p, rest, "nan")) {
            return Double.NaN;
        }
        if (!isDecimal(b, off, end)) {
            throw notA("a number", b, off, len);
        }
        if (chars.length < len) {
            chars = new char[len];
        }
        for (int i = 0; i < len; i++) {
            chars[i] = (char) b[off + i];
        }
        return NumberInput.parseDouble(chars, 0, len, true);
    }

    /**
     * {@code [+-]digits[.digits][(e|E)[+-]digits]}, with digits on at least one side of the point.
     */
    private static boolean isDecimal(byte[] b, int p, int end) {
        if (b[p] == '-' || b[p] == '+') {
            p++;
        }
        int digits = 0;
        while (p < end && Decimals.isDigit(b[p])) {
            p++;
            digits++;
        }
        if (p < end && b[p] == '.') {
            p++;
            while (p < end && Decimals.isDigit(b[p])) {
                p++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '-' || b[p] == '+')) {
                p++;
            }
            int start = p;
            while (p < end && Decimals.isDigit(b[p])) {
                p++;
            }
            if (p == start) {
                return false;
            }
        }
        return p == end;
    }

    @Override
    public void integer(Column c, long v) {
        c.appendDouble(v);
    }

    @Override
    public void floating(Column c, double v) {
        c.appendDouble(v);
    }
}
