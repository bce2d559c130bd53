package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.types.SimpleType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Int8..Int256 and UInt8..UInt256. Text is parsed from the bytes (sign, digits) with no allocation;
 * the column checks the range, so {@code 300} in a UInt8 is an error rather than the 44 ClickHouse
 * 18.16 stores. Integral values written as decimals or with an exponent ({@code 5.0}, {@code 1e3})
 * are accepted; a fraction is an error, never a rounding. An empty field is 0, as in ClickHouse.
 */
final class IntegerConverter extends Converter {
    /** Largest magnitude that can take one more decimal digit without passing 2^64. */
    private static final long TENTH_OF_2_64 = 0x1999_9999_9999_9999L;

    /** Wider than 64 bits: magnitudes beyond 2^64 go through BigInteger instead of failing. */
    private final boolean wide;

    /** Takes values from 2^63 to 2^64 - 1 (UInt64 and the wide types). */
    private final boolean unsigned64;

    IntegerConverter(SimpleType type, boolean wide) {
        super(type);
        this.wide = wide;
        this.unsigned64 = wide || type == SimpleType.UINT64;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (len == 0) {
            c.appendLong(0); // ClickHouse reads an empty number as 0
            return;
        }
        int i = off;
        int end = off + len;
        boolean negative = b[i] == '-';
        if (negative || b[i] == '+') {
            i++;
        }
        if (i == end) {
            throw notA("an integer", b, off, len);
        }
        long magnitude = 0; // unsigned
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                viaDecimal(c, b, off, len);
                return;
            }
            if (Long.compareUnsigned(magnitude, TENTH_OF_2_64) > 0
                    || (magnitude == TENTH_OF_2_64 && d > 5)) {
                viaDecimal(c, b, off, len); // beyond 64 bits
                return;
            }
            magnitude = magnitude * 10 + d;
        }
        if (negative) {
            if (Long.compareUnsigned(magnitude, Long.MIN_VALUE) > 0) {
                viaDecimal(c, b, off, len);
                return;
            }
            c.appendLong(-magnitude);
        } else if (magnitude < 0) {
            if (!unsigned64) {
                throw new ConversionException(
                        "value " + Texts.plain(b, off, len) + " is out of range");
            }
            c.appendUnsignedLong(magnitude);
        } else {
            c.appendLong(magnitude);
        }
    }

    /** The slow path: exponents, decimal points, more than 64 bits. */
    private void viaDecimal(Column c, byte[] b, int off, int len) {
        BigDecimal v = Decimals.parse(b, off, len);
        if (v == null) {
            throw notA("an integer", b, off, len);
        }
        BigInteger exact;
        try {
            exact = v.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw notA("an integer", b, off, len);
        }
        if (!wide && exact.bitLength() > 64) {
            throw new ConversionException("value " + Texts.plain(b, off, len) + " is out of range");
        }
        c.appendBigInteger(exact);
    }

    @Override
    public void integer(Column c, long v) {
        c.appendLong(v);
    }

    @Override
    public void floating(Column c, double v) {
        c.appendDouble(v);
    }

    @Override
    public void bool(Column c, boolean v) {
        c.appendLong(v ? 1 : 0);
    }

    @Override
    public void date(Column c, int days) {
        c.appendLong(days);
    }

    @Override
    public void dateTime(Column c, long seconds) {
        c.appendLong(seconds);
    }
}
