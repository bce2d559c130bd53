package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.DecimalColumn;
import dev.sluice.clickhouse.types.DecimalType;
import java.math.BigDecimal;

/**
 * Decimal(P, S) from its text (a JSON number's text too, never a double): exact, with no rounding.
 * Up to 18 significant digits the unscaled value is computed in a long without allocation; longer
 * values go through BigDecimal. More than S fractional digits (other than trailing zeros) is an
 * error, as in ClickHouse; so is more than P digits. An empty field is 0.
 */
final class DecimalConverter extends Converter {
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private final int scale;

    DecimalConverter(DecimalType type) {
        super(type);
        this.scale = type.scale();
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (len == 0) {
            unscaled(c, 0);
            return;
        }
        int end = off + len;
        int p = off;
        boolean negative = b[p] == '-';
        if (negative || b[p] == '+') {
            p++;
        }
        long m = 0; // significant digits so far
        int significant = 0;
        int fraction = 0;
        boolean point = false;
        int digits = 0;
        for (; p < end; p++) {
            byte ch = b[p];
            if (ch >= '0' && ch <= '9') {
                digits++;
                if (point) {
                    fraction++;
                }
                if (m != 0 || ch != '0') {
                    if (++significant > 18) {
                        slow(c, b, off, len);
                        return;
                    }
                }
                m = m * 10 + (ch - '0');
            } else if (ch == '.' && !point) {
                point = true;
            } else {
                slow(c, b, off, len); // an exponent, or not a number at all
                return;
            }
        }
        if (digits == 0) {
            throw notA("a decimal number", b, off, len);
        }
        int shift = scale - fraction;
        if (shift >= 0) {
            if (significant + shift > 18) {
                slow(c, b, off, len);
                return;
            }
            m *= POW10[shift];
        } else {
            int drop = -shift;
            long unit = drop > 18 ? 0 : POW10[drop];
            if (m != 0 && (unit == 0 || m % unit != 0)) {
                throw new ConversionException(
                        "value "
                                + Texts.plain(b, off, len)
                                + " has more than "
                                + scale
                                + " fractional digits");
            }
            m = m == 0 ? 0 : m / unit;
        }
        unscaled(c, negative ? -m : m);
    }

    private void unscaled(Column c, long v) {
        if (c instanceof DecimalColumn d) {
            d.appendUnscaled(v);
        } else {
            c.appendBigDecimal(BigDecimal.valueOf(v, scale));
        }
    }

    private static void slow(Column c, byte[] b, int off, int len) {
        BigDecimal v = Decimals.parse(b, off, len);
        if (v == null) {
            throw notA("a decimal number", b, off, len);
        }
        c.appendBigDecimal(v);
    }

    @Override
    public void integer(Column c, long v) {
        c.appendBigDecimal(BigDecimal.valueOf(v));
    }

    @Override
    public void floating(Column c, double v) {
        c.appendDouble(v);
    }
}
