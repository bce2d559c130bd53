package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.DecimalColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.DateTimes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * Readers of Avro's logical types: decimal, date, time, timestamp and local timestamp, uuid on a
 * fixed, duration. What a value becomes depends on the column's kind ({@link Target}), decided when
 * the plan is built.
 */
final class LogicalReaders {
    private LogicalReaders() {}

    /** The kind of column a logical value goes to. */
    enum Target {
        /** Decimal(P, S). */
        DECIMAL,
        /** DateTime or DateTime64(p): a moment. */
        MOMENT,
        /** Date or Date32. */
        DATE,
        /** String or FixedString: the value's text. */
        TEXT,
        /** UUID. */
        UUID,
        /** Tuple (a duration's three parts). */
        TUPLE,
        /** Float32 or Float64. */
        FLOAT,
        /** Anything else: the underlying number (or bytes), converted by the column's rules. */
        PLAIN
    }

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    static long pow10(int n) {
        return POW10[n];
    }

    /**
     * decimal on bytes or fixed: a big-endian two's-complement unscaled integer with the schema's
     * scale. Up to 8 bytes it stays a long and goes to a Decimal column without allocation when the
     * scales agree (or the column's is larger and the value fits); other values go through
     * BigDecimal, whose column rules reject a value with more fractional digits than the column
     * keeps, never rounding.
     */
    static final class Decimal extends ValueReader {
        private final Converter conv;
        private final int scale;
        private final int fixedSize; // -1: bytes
        private final Target target;
        private final int columnScale;

        Decimal(Converter conv, int scale, int fixedSize, Target target, int columnScale) {
            this.conv = conv;
            this.scale = scale;
            this.fixedSize = fixedSize;
            this.target = target;
            this.columnScale = columnScale;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            int n = fixedSize >= 0 ? fixedSize : in.readLength();
            in.require(n);
            byte[] b = in.bytes();
            int p = in.position();
            in.skip(n);
            if (n == 0) {
                write(c, 0L);
                return true;
            }
            if (n <= 8) {
                long v = b[p]; // sign-extended
                for (int i = 1; i < n; i++) {
                    v = (v << 8) | (b[p + i] & 0xFF);
                }
                write(c, v);
            } else {
                write(c, new BigDecimal(new BigInteger(b, p, n), scale));
            }
            return true;
        }

        private void write(Column c, long unscaled) {
            if (target == Target.DECIMAL && columnScale >= scale && columnScale - scale <= 18) {
                long factor = POW10[columnScale - scale];
                long v = unscaled * factor;
                if (factor == 1 || (Math.multiplyHigh(unscaled, factor) == (v >> 63))) {
                    if (c instanceof NullableColumn nc) {
                        ((DecimalColumn) nc.inner()).appendUnscaled(v);
                        nc.markNotNull();
                    } else {
                        ((DecimalColumn) c).appendUnscaled(v);
                    }
                    return;
                }
            }
            write(c, BigDecimal.valueOf(unscaled, scale));
        }

        private void write(Column c, BigDecimal v) {
            switch (target) {
                case DECIMAL -> c.appendBigDecimal(v); // Nullable passes it to its inner column
                case FLOAT -> conv.floating(c, v.doubleValue());
                case PLAIN -> {
                    byte[] t = v.toPlainString().getBytes(StandardCharsets.US_ASCII);
                    conv.number(c, t, 0, t.length);
                }
                default -> {
                    byte[] t = v.toPlainString().getBytes(StandardCharsets.US_ASCII);
                    conv.text(c, t, 0, t.length);
                }
            }
        }
    }

    /** date: days since 1970-01-01, by the converter's date rules (text for String columns). */
    static final class Date extends ValueReader {
        private final Converter conv;

        Date(Converter conv) {
            this.conv = conv;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            conv.date(c, in.readInt());
            return true;
        }
    }

    /**
     * timestamp-millis/micros/nanos (UTC) and local-timestamp-* (a wall-clock time, placed in the
     * column's time zone, or UTC when it has none — as text without an offset is read). DateTime
     * and DateTime64(p) get the moment cut to their precision (toward the past), Date the day,
     * String the text {@code YYYY-MM-DD hh:mm:ss.fff} (UTC, or the wall-clock time for local
     * timestamps), other columns the number as it is.
     */
    static final class Timestamp extends ValueReader {
        private final Converter conv;
        private final int unitDigits; // 3, 6 or 9
        private final long unitsPerSecond;
        private final Target target;
        private final int precision; // of a DateTime64 column; 0 for DateTime
        private final boolean local;
        private final ZoneRules rules; // local into a zoned column with daylight saving, else null
        private final int fixedOffset; // local into a zoned column without daylight saving
        private final byte[] text = new byte[32];

        Timestamp(
                Converter conv,
                int unitDigits,
                Target target,
                int precision,
                boolean local,
                String timezone) {
            this.conv = conv;
            this.unitDigits = unitDigits;
            this.unitsPerSecond = POW10[unitDigits];
            this.target = target;
            this.precision = precision;
            this.local = local;
            ZoneRules r = local && timezone != null ? ZoneId.of(timezone).getRules() : null;
            if (r != null && r.isFixedOffset()) {
                fixedOffset = r.getOffset(Instant.EPOCH).getTotalSeconds();
                r = null;
            } else {
                fixedOffset = 0;
            }
            this.rules = r;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            long v = in.readLong();
            switch (target) {
                case MOMENT -> conv.integer(c, ticks(utc(v)));
                case DATE -> conv.date(c, (int) Math.floorDiv(v, unitsPerSecond * 86_400));
                case TEXT -> {
                    long seconds = Math.floorDiv(v, unitsPerSecond);
                    int p = DateTimes.formatDateTime(seconds, text, 0);
                    text[p++] = '.';
                    long fraction = v - seconds * unitsPerSecond;
                    for (int i = p + unitDigits - 1; i >= p; i--) {
                        text[i] = (byte) ('0' + fraction % 10);
                        fraction /= 10;
                    }
                    conv.text(c, text, 0, p + unitDigits);
                }
                default -> conv.integer(c, v);
            }
            return true;
        }

        /** A local timestamp's moment in the column's zone. */
        private long utc(long v) {
            if (!local) {
                return v;
            }
            long offset = fixedOffset;
            if (rules != null) {
                long seconds = Math.floorDiv(v, unitsPerSecond);
                offset =
                        rules.getOffset(LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC))
                                .getTotalSeconds();
            }
            return v - offset * unitsPerSecond;
        }

        /** Ticks of the column's precision, cut toward the past. */
        private long ticks(long v) {
            if (precision >= unitDigits) {
                long factor = POW10[precision - unitDigits];
                long t = v * factor;
                if (Math.multiplyHigh(v, factor) != (t >> 63)) {
                    throw new ConversionException(
                            "the timestamp "
                                    + v
                                    + " is outside the range of "
                                    + conv.type().typeName());
                }
                return t;
            }
            return Math.floorDiv(v, POW10[unitDigits - precision]);
        }
    }

    /**
     * time-millis (int) and time-micros (long), time of day: {@code hh:mm:ss.fff} for String
     * columns, the number as it is for others (ClickHouse 18.16 has no time type).
     */
    static final class TimeOfDay extends ValueReader {
        private final Converter conv;
        private final int unitDigits;
        private final long unitsPerSecond;
        private final boolean asText;
        private final byte[] text = new byte[24];

        TimeOfDay(Converter conv, int unitDigits, boolean asText) {
            this.conv = conv;
            this.unitDigits = unitDigits;
            this.unitsPerSecond = POW10[unitDigits];
            this.asText = asText;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            long v = unitDigits == 3 ? in.readInt() : in.readLong();
            if (!asText) {
                conv.integer(c, v);
                return true;
            }
            if (v < 0 || v >= 86_400 * unitsPerSecond) {
                throw new ConversionException(
                        "time of day " + v + " is outside 00:00:00 .. 23:59:59");
            }
            long s = v / unitsPerSecond;
            long fraction = v % unitsPerSecond;
            int p = two(s / 3600, 0);
            text[p++] = ':';
            p = two(s / 60 % 60, p);
            text[p++] = ':';
            p = two(s % 60, p);
            text[p++] = '.';
            for (int i = p + unitDigits - 1; i >= p; i--) {
                text[i] = (byte) ('0' + fraction % 10);
                fraction /= 10;
            }
            conv.text(c, text, 0, p + unitDigits);
            return true;
        }

        private int two(long v, int p) {
            text[p] = (byte) ('0' + v / 10);
            text[p + 1] = (byte) ('0' + v % 10);
            return p + 2;
        }
    }

    /** uuid on a fixed(16): the 16 bytes, big-endian, into UUID; its text into String. */
    static final class UuidFixed extends ValueReader {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

        private final Converter conv;
        private final Target target;
        private final byte[] text = new byte[36];

        UuidFixed(Converter conv, Target target) {
            this.conv = conv;
            this.target = target;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            in.require(16);
            byte[] b = in.bytes();
            int p = in.position();
            in.skip(16);
            switch (target) {
                case UUID -> c.appendUuid(long8(b, p), long8(b, p + 8));
                case TEXT -> {
                    int t = 0;
                    for (int i = 0; i < 16; i++) {
                        if (i == 4 || i == 6 || i == 8 || i == 10) {
                            text[t++] = '-';
                        }
                        text[t++] = HEX[(b[p + i] >> 4) & 0xF];
                        text[t++] = HEX[b[p + i] & 0xF];
                    }
                    conv.text(c, text, 0, 36);
                }
                default -> conv.text(c, b, p, 16);
            }
            return true;
        }

        private static long long8(byte[] b, int p) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (b[p + i] & 0xFF);
            }
            return v;
        }
    }

    /**
     * duration on a fixed(12): three little-endian unsigned 32-bit counts — months, days,
     * milliseconds. A Tuple of three numbers gets them in that order; String gets ISO-8601 {@code
     * P1M2DT3.004S}; other columns (FixedString(12)) the 12 bytes.
     */
    static final class Duration extends ValueReader {
        private final Converter[] parts; // TUPLE: the three elements' converters
        private final Converter conv;
        private final Target target;

        Duration(Converter conv, Converter[] parts, Target target) {
            this.conv = conv;
            this.parts = parts;
            this.target = target;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            in.require(12);
            int at = in.position();
            long months = in.readFixedInt() & 0xFFFF_FFFFL;
            long days = in.readFixedInt() & 0xFFFF_FFFFL;
            long millis = in.readFixedInt() & 0xFFFF_FFFFL;
            switch (target) {
                case TUPLE -> {
                    TupleColumn t = (TupleColumn) c;
                    parts[0].integer(t.element(0), months);
                    parts[1].integer(t.element(1), days);
                    parts[2].integer(t.element(2), millis);
                }
                case TEXT -> {
                    String iso =
                            "P"
                                    + months
                                    + "M"
                                    + days
                                    + "DT"
                                    + millis / 1000
                                    + "."
                                    + String.format("%03d", millis % 1000)
                                    + "S";
                    byte[] t = iso.getBytes(StandardCharsets.US_ASCII);
                    conv.text(c, t, 0, t.length);
                }
                default -> conv.text(c, in.bytes(), at, 12);
            }
            return true;
        }
    }

    /**
     * big-decimal (Avro 1.12) on bytes: the value holds its own scale — the unscaled integer as
     * Avro bytes, then the scale as an Avro int. Goes through BigDecimal (it has no fixed scale to
     * plan for), with the decimal reader's rules.
     */
    static final class BigDecimalBytes extends ValueReader {
        private final Converter conv;
        private final Target target;

        BigDecimalBytes(Converter conv, Target target) {
            this.conv = conv;
            this.target = target;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            int outer = in.readLength();
            int end = in.position() + outer;
            int n = in.readLength();
            if (n == 0 || in.position() + n > end) {
                throw new AvroDataException(
                        "malformed big-decimal at byte "
                                + in.offset()
                                + ": "
                                + n
                                + " bytes of unscaled value in a value of "
                                + outer);
            }
            BigInteger unscaled = new BigInteger(in.bytes(), in.position(), n);
            in.skip(n);
            int scale = in.readInt();
            if (Math.abs(scale) > 1000) {
                throw new AvroDataException(
                        "big-decimal scale " + scale + " is beyond ±1000 (a corrupt value?)");
            }
            if (in.position() != end) {
                throw new AvroDataException(
                        "malformed big-decimal at byte "
                                + in.offset()
                                + ": the value does not end after its scale");
            }
            BigDecimal v = new BigDecimal(unscaled, scale);
            switch (target) {
                case DECIMAL -> c.appendBigDecimal(v);
                case FLOAT -> conv.floating(c, v.doubleValue());
                default -> {
                    byte[] t = v.toPlainString().getBytes(StandardCharsets.US_ASCII);
                    if (target == Target.TEXT) {
                        conv.text(c, t, 0, t.length);
                    } else {
                        conv.number(c, t, 0, t.length);
                    }
                }
            }
            return true;
        }
    }
}
