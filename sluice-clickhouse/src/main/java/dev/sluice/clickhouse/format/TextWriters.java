package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.BigIntColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.DecimalColumn;
import dev.sluice.clickhouse.column.EnumColumn;
import dev.sluice.clickhouse.column.FixedBytesColumn;
import dev.sluice.clickhouse.column.FixedWidthColumn;
import dev.sluice.clickhouse.column.FloatColumn;
import dev.sluice.clickhouse.column.IntColumn;
import dev.sluice.clickhouse.column.JsonColumn;
import dev.sluice.clickhouse.column.LowCardinalityColumn;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.column.NothingColumn;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.column.StringColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.clickhouse.column.UuidColumn;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TupleType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The writer trees of the text formats: one small writer per column (and per nested column), chosen
 * once by column kind and by where the value appears, so that writing a row is one virtual call per
 * value with no type test and no allocation.
 *
 * <p>Where a value appears decides its spelling ({@link Context}); the rules are ClickHouse's text
 * serializations (serializeTextEscaped / Quoted / CSV / JSON):
 *
 * <pre>
 *                  ESCAPED (TSV)   QUOTED (Values, nested)  CSV              JSON
 * NULL             \N              NULL                     \N               null
 * String           escaped         'escaped'                "csv"            "json"
 * Date, UUID, Enum bare            '...'                    "..."            "..."
 * DateTime         10 digits       seconds                  10 digits        seconds
 * NaN, +Inf, -Inf  nan inf -inf    nan inf -inf (1)         nan inf -inf     "nan" "inf" "-inf"
 * Array, Map       [..] {..} with QUOTED elements           "[..]" (2)       [..] {"k":..}
 * Tuple            (..) QUOTED     (..)                     one field each   [..] or {"name":..}
 * (U)Int64/128/256 digits          digits                   digits           "digits" (3)
 * </pre>
 *
 * (1) {@code -nan} inside Nullable: 18.16 reads a quoted Nullable value starting with {@code n} as
 * NULL and fails on {@code nan}. (2) the QUOTED text as one CSV field. (3) when {@link
 * TextFormat#quotes64BitIntegers()}, as the server's own {@code
 * output_format_json_quote_64bit_integers} does by default; every version reads both.
 *
 * <p>DateTime is sent as seconds since the epoch, never as local text: text would be read in the
 * column's or the server's time zone (ambiguous in a DST fall-back hour), the number is not. In
 * TSV/CSV fields it has exactly 10 digits because the servers' reader takes a field with a
 * non-digit fifth character for {@code YYYY-MM-DD hh:mm:ss} (18.16: "unix timestamp, exactly 10
 * digits"); in quoted and JSON values an unquoted number is read as an integer.
 *
 * <p>Two limits of the 18.16 server's text readers, not of the text (RowBinary and Native carry
 * both): its float parser is not correctly rounded, so a Float64 or Float32 may come back one or
 * two units in the last place off (and values below 1e-323 as 0); and its date table ends with
 * 2105, so a Date text after 2105-12-31 reads as 0000-00-00.
 */
final class TextWriters {
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Where a value is written; decides quoting, escaping and NULL. */
    enum Context {
        /** A TSV field. */
        ESCAPED,
        /** A Values field, and any value inside an Array, Tuple or Map outside JSON. */
        QUOTED,
        /** A CSV field. */
        CSV,
        /** A JSON value. */
        JSON;

        byte[] nullText() {
            return switch (this) {
                case ESCAPED, CSV -> ascii("\\N");
                case QUOTED -> ascii("NULL");
                case JSON -> ascii("null");
            };
        }

        /** The quote around date-like and string-like values; 0 for none. */
        int quote() {
            return switch (this) {
                case ESCAPED -> 0;
                case QUOTED -> '\'';
                case CSV, JSON -> '"';
            };
        }
    }

    /** Writes the value of one row of one column. */
    abstract static class Writer {
        abstract void write(int row, WireOutput out);
    }

    private TextWriters() {}

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The writer for {@code c} in {@code ctx}.
     *
     * @param quote64 quote 64-bit and wider integers in JSON
     * @param inNullable the value is the inner value of a Nullable (see {@code -nan} above)
     * @throws IllegalArgumentException for a column kind no text format can express
     */
    static Writer writerFor(Column c, Context ctx, boolean quote64, boolean inNullable) {
        return switch (c) {
            case LowCardinalityColumn lc -> {
                boolean nullable = lc.type().isNullable();
                Writer dict = writerFor(lc.dictionary(), ctx, quote64, nullable);
                yield new LowCardinalityText(lc, dict, nullable ? ctx.nullText() : null);
            }
            case NullableColumn n ->
                    new NullableText(n, writerFor(n.inner(), ctx, quote64, true), ctx.nullText());
            case ArrayColumn a -> {
                if (ctx == Context.CSV) {
                    yield new CsvField(writerFor(a, Context.QUOTED, quote64, false));
                }
                Context inner = ctx == Context.JSON ? Context.JSON : Context.QUOTED;
                yield new ArrayText(a, writerFor(a.elements(), inner, quote64, false));
            }
            case MapColumn m -> {
                if (ctx == Context.CSV) {
                    yield new CsvField(writerFor(m, Context.QUOTED, quote64, false));
                }
                if (ctx == Context.JSON) {
                    yield new MapText(
                            m, jsonKey(m.keys()), writerFor(m.values(), ctx, quote64, false));
                }
                yield new MapText(
                        m,
                        writerFor(m.keys(), Context.QUOTED, quote64, false),
                        writerFor(m.values(), Context.QUOTED, quote64, false));
            }
            case TupleColumn t -> tuple(t, ctx, quote64);
            case JsonColumn j ->
                    ctx == Context.JSON
                            ? new RawStringText(j)
                            : stringWriter(j, ctx); // the JSON document as a string
            case StringColumn s -> stringWriter(s, ctx);
            case NothingColumn n -> new ConstText(ctx.nullText());
            case EnumColumn e -> enumWriter(e, ctx);
            case FloatColumn f -> floatWriter(f, ctx, inNullable);
            case DecimalColumn d -> decimalWriter(d);
            case BigIntColumn b -> {
                SimpleType st = (SimpleType) b.type();
                Writer w = new WideText(b, 0, st.isSignedInteger());
                yield ctx == Context.JSON && quote64 ? new Quoted(w) : w;
            }
            case UuidColumn u -> new UuidText(u, ctx.quote());
            case FixedBytesColumn f ->
                    f.type() == SimpleType.IPV6
                            ? new Ipv6Text(f, ctx.quote())
                            : fixedStringWriter(f, ctx);
            case IntColumn i -> intWriter(i, ctx, quote64);
            default ->
                    throw new IllegalArgumentException(
                            "column "
                                    + c.name()
                                    + " of type "
                                    + c.type().typeName()
                                    + " has no text form");
        };
    }

    private static Writer stringWriter(StringColumn s, Context ctx) {
        return switch (ctx) {
            case ESCAPED -> new StringEscaped(s, 0);
            case QUOTED -> new StringEscaped(s, '\'');
            case CSV -> new StringCsv(s);
            case JSON -> new StringJson(s);
        };
    }

    private static Writer fixedStringWriter(FixedBytesColumn f, Context ctx) {
        return switch (ctx) {
            case ESCAPED -> new FixedEscaped(f, 0);
            case QUOTED -> new FixedEscaped(f, '\'');
            case CSV -> new FixedCsv(f);
            case JSON -> new FixedJson(f);
        };
    }

    private static Writer intWriter(IntColumn c, Context ctx, boolean quote64) {
        ClickHouseType t = c.type();
        if (t instanceof DateTimeType) {
            return ctx == Context.ESCAPED || ctx == Context.CSV
                    ? new DateTimePadded(c)
                    : new UInt32Text(c);
        }
        if (t instanceof DateTime64Type d) {
            return new DateTime64Text(c, d.precision(), ctx.quote());
        }
        SimpleType st = (SimpleType) t;
        Writer w =
                switch (st) {
                    case INT8 -> new Int8Text(c);
                    case UINT8 -> new UInt8Text(c);
                    case INT16 -> new Int16Text(c);
                    case UINT16 -> new UInt16Text(c);
                    case INT32 -> new Int32Text(c);
                    case UINT32 -> new UInt32Text(c);
                    case INT64 -> new Int64Text(c);
                    case UINT64 -> new UInt64Text(c);
                    case BOOL -> new BoolText(c);
                    case DATE -> new DateText(c, ctx.quote(), false);
                    case DATE32 -> new DateText(c, ctx.quote(), true);
                    case IPV4 -> new Ipv4Text(c, ctx.quote());
                    default ->
                            throw new IllegalArgumentException(
                                    "column " + c.name() + " of type " + st + " has no text form");
                };
        if (ctx == Context.JSON && quote64 && (st == SimpleType.INT64 || st == SimpleType.UINT64)) {
            return new Quoted(w);
        }
        return w;
    }

    private static Writer floatWriter(FloatColumn f, Context ctx, boolean inNullable) {
        byte[] nan;
        byte[] inf;
        byte[] negInf;
        if (ctx == Context.JSON) {
            nan = ascii("\"nan\"");
            inf = ascii("\"inf\"");
            negInf = ascii("\"-inf\"");
        } else {
            nan = ascii(ctx == Context.QUOTED && inNullable ? "-nan" : "nan");
            inf = ascii("inf");
            negInf = ascii("-inf");
        }
        ClickHouseType t = f.type();
        if (t == SimpleType.FLOAT64) {
            return new Float64Text(f, nan, inf, negInf);
        }
        return new Float32Text(f, t == SimpleType.BFLOAT16, nan, inf, negInf);
    }

    private static Writer decimalWriter(DecimalColumn d) {
        int scale = ((DecimalType) d.type()).scale();
        return switch (d.width()) {
            case 4 -> new Decimal32Text(d, scale);
            case 8 -> new Decimal64Text(d, scale);
            default -> new WideText(d, scale, true);
        };
    }

    private static Writer enumWriter(EnumColumn e, Context ctx) {
        EnumType type = (EnumType) e.type();
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (EnumType.Entry entry : type.entries()) {
            min = Math.min(min, entry.value());
            max = Math.max(max, entry.value());
        }
        byte[][] names = new byte[max - min + 1][];
        WireOutput tmp = new WireOutput(64);
        for (EnumType.Entry entry : type.entries()) {
            byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
            tmp.reset();
            switch (ctx) {
                case ESCAPED -> TextOut.escaped(tmp, name, 0, name.length, 0);
                case QUOTED -> TextOut.escaped(tmp, name, 0, name.length, '\'');
                case CSV -> TextOut.csv(tmp, name, 0, name.length);
                case JSON -> TextOut.json(tmp, name, 0, name.length);
            }
            names[entry.value() - min] = tmp.toByteArray();
        }
        return e.width() == 1 ? new Enum8Text(e, names, min) : new Enum16Text(e, names, min);
    }

    private static Writer tuple(TupleColumn t, Context ctx, boolean quote64) {
        int n = t.size();
        Writer[] elements = new Writer[n];
        byte[][] before = new byte[n][];
        byte[] open;
        byte[] close;
        TupleType type = (TupleType) t.type();
        switch (ctx) {
            case CSV -> {
                // Each element is a field of its own, as the server writes and reads tuples.
                for (int i = 0; i < n; i++) {
                    elements[i] = writerFor(t.element(i), Context.CSV, quote64, false);
                    before[i] = i == 0 ? new byte[0] : ascii(",");
                }
                open = new byte[0];
                close = new byte[0];
            }
            case JSON -> {
                // Named tuples are objects: newer servers read them so by default
                // (input_format_json_named_tuples_as_objects) and need '{' then.
                boolean named = type.isNamed();
                for (int i = 0; i < n; i++) {
                    elements[i] = writerFor(t.element(i), Context.JSON, quote64, false);
                    String sep = i == 0 ? "" : ",";
                    if (named) {
                        byte[] key = type.names().get(i).getBytes(StandardCharsets.UTF_8);
                        WireOutput tmp = new WireOutput(64);
                        tmp.writeBytes(ascii(sep));
                        TextOut.json(tmp, key, 0, key.length);
                        tmp.writeByte(':');
                        before[i] = tmp.toByteArray();
                    } else {
                        before[i] = ascii(sep);
                    }
                }
                open = ascii(named ? "{" : "[");
                close = ascii(named ? "}" : "]");
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    elements[i] = writerFor(t.element(i), Context.QUOTED, quote64, false);
                    before[i] = ascii(i == 0 ? "" : ",");
                }
                open = ascii("(");
                close = ascii(")");
            }
        }
        return new TupleText(elements, open, before, close);
    }

    /** A JSON object key: a string, so a non-string key is its plain text in quotes. */
    private static Writer jsonKey(Column keys) {
        Column k = keys instanceof LowCardinalityColumn lc ? lc.dictionary() : keys;
        boolean stringLike =
                k instanceof StringColumn
                        || k instanceof FixedBytesColumn
                        || k instanceof UuidColumn
                        || k instanceof EnumColumn
                        || k.type() == SimpleType.DATE
                        || k.type() == SimpleType.DATE32
                        || k.type() == SimpleType.IPV4
                        || k.type() instanceof DateTime64Type;
        return stringLike
                ? writerFor(keys, Context.JSON, false, false)
                : new Quoted(writerFor(keys, Context.QUOTED, false, false));
    }

    // ---- Integers ----

    private static final class Int8Text extends Writer {
        private final FixedWidthColumn c;

        Int8Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, c.rawData()[row]);
        }
    }

    private static final class UInt8Text extends Writer {
        private final FixedWidthColumn c;

        UInt8Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, c.rawData()[row] & 0xFF);
        }
    }

    private static final class Int16Text extends Writer {
        private final FixedWidthColumn c;

        Int16Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, (short) SHORT_LE.get(c.rawData(), row << 1));
        }
    }

    private static final class UInt16Text extends Writer {
        private final FixedWidthColumn c;

        UInt16Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, (short) SHORT_LE.get(c.rawData(), row << 1) & 0xFFFF);
        }
    }

    private static final class Int32Text extends Writer {
        private final FixedWidthColumn c;

        Int32Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, (int) INT_LE.get(c.rawData(), row << 2));
        }
    }

    /** UInt32, and DateTime where the value is written as plain seconds. */
    private static final class UInt32Text extends Writer {
        private final FixedWidthColumn c;

        UInt32Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, (int) INT_LE.get(c.rawData(), row << 2) & 0xFFFF_FFFFL);
        }
    }

    private static final class Int64Text extends Writer {
        private final FixedWidthColumn c;

        Int64Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeLong(out, (long) LONG_LE.get(c.rawData(), row << 3));
        }
    }

    private static final class UInt64Text extends Writer {
        private final FixedWidthColumn c;

        UInt64Text(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeUnsignedLong(out, (long) LONG_LE.get(c.rawData(), row << 3));
        }
    }

    /** A value between double quotes: JSON's quoted 64-bit integers and map keys. */
    private static final class Quoted extends Writer {
        private final Writer inner;

        Quoted(Writer inner) {
            this.inner = inner;
        }

        @Override
        void write(int row, WireOutput out) {
            out.writeByte('"');
            inner.write(row, out);
            out.writeByte('"');
        }
    }

    private static final class BoolText extends Writer {
        private static final byte[] TRUE = ascii("true");
        private static final byte[] FALSE = ascii("false");
        private final FixedWidthColumn c;

        BoolText(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.raw(out, c.rawData()[row] != 0 ? TRUE : FALSE);
        }
    }

    /** 128- and 256-bit integers and decimals. */
    private static final class WideText extends Writer {
        private final FixedWidthColumn c;
        private final int width;
        private final int scale;
        private final boolean signed;
        private final int[] limbs;
        private final byte[] digits = new byte[96];

        WideText(FixedWidthColumn c, int scale, boolean signed) {
            this.c = c;
            this.width = c.width();
            this.scale = scale;
            this.signed = signed;
            this.limbs = new int[width / 4];
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeWide(out, c.rawData(), row * width, width, signed, scale, limbs, digits);
        }
    }

    private static final class Decimal32Text extends Writer {
        private final FixedWidthColumn c;
        private final int scale;

        Decimal32Text(FixedWidthColumn c, int scale) {
            this.c = c;
            this.scale = scale;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeDecimal(out, (int) INT_LE.get(c.rawData(), row << 2), scale);
        }
    }

    private static final class Decimal64Text extends Writer {
        private final FixedWidthColumn c;
        private final int scale;

        Decimal64Text(FixedWidthColumn c, int scale) {
            this.c = c;
            this.scale = scale;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writeDecimal(out, (long) LONG_LE.get(c.rawData(), row << 3), scale);
        }
    }

    // ---- Floats ----

    private static final class Float64Text extends Writer {
        private final FixedWidthColumn c;
        private final byte[] nan;
        private final byte[] inf;
        private final byte[] negInf;
        private final int[] exp = new int[1];

        Float64Text(FixedWidthColumn c, byte[] nan, byte[] inf, byte[] negInf) {
            this.c = c;
            this.nan = nan;
            this.inf = inf;
            this.negInf = negInf;
        }

        @Override
        void write(int row, WireOutput out) {
            double v = Double.longBitsToDouble((long) LONG_LE.get(c.rawData(), row << 3));
            if (Double.isFinite(v)) {
                out.ensureWritable(FloatText.MAX_CHARS);
                int p = out.position();
                out.advance(FloatText.write(v, out.array(), p, exp) - p);
            } else {
                TextOut.raw(out, Double.isNaN(v) ? nan : v > 0 ? inf : negInf);
            }
        }
    }

    /** Float32, and BFloat16 (the upper half of a Float32). */
    private static final class Float32Text extends Writer {
        private final FixedWidthColumn c;
        private final boolean bfloat16;
        private final byte[] nan;
        private final byte[] inf;
        private final byte[] negInf;
        private final int[] exp = new int[1];

        Float32Text(FixedWidthColumn c, boolean bfloat16, byte[] nan, byte[] inf, byte[] negInf) {
            this.c = c;
            this.bfloat16 = bfloat16;
            this.nan = nan;
            this.inf = inf;
            this.negInf = negInf;
        }

        @Override
        void write(int row, WireOutput out) {
            int bits =
                    bfloat16
                            ? ((short) SHORT_LE.get(c.rawData(), row << 1) & 0xFFFF) << 16
                            : (int) INT_LE.get(c.rawData(), row << 2);
            float v = Float.intBitsToFloat(bits);
            if (Float.isFinite(v)) {
                out.ensureWritable(FloatText.MAX_CHARS);
                int p = out.position();
                out.advance(FloatText.write(v, out.array(), p, exp) - p);
            } else {
                TextOut.raw(out, Float.isNaN(v) ? nan : v > 0 ? inf : negInf);
            }
        }
    }

    // ---- Dates and times ----

    private static final class DateText extends Writer {
        private final FixedWidthColumn c;
        private final int quote;
        private final boolean date32;

        DateText(FixedWidthColumn c, int quote, boolean date32) {
            this.c = c;
            this.quote = quote;
            this.date32 = date32;
        }

        @Override
        void write(int row, WireOutput out) {
            long days =
                    date32
                            ? (int) INT_LE.get(c.rawData(), row << 2)
                            : (short) SHORT_LE.get(c.rawData(), row << 1) & 0xFFFF;
            if (quote != 0) {
                out.writeByte(quote);
            }
            TextOut.writeDate(out, days);
            if (quote != 0) {
                out.writeByte(quote);
            }
        }
    }

    /** DateTime in a TSV or CSV field: seconds as exactly 10 digits. */
    private static final class DateTimePadded extends Writer {
        private final FixedWidthColumn c;

        DateTimePadded(FixedWidthColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.writePadded10(out, (int) INT_LE.get(c.rawData(), row << 2) & 0xFFFF_FFFFL);
        }
    }

    /**
     * DateTime64(p): seconds.fraction since the epoch; the seconds padded to 10 digits like
     * DateTime, and in quotes where the context quotes, so each reader takes the text path. (Newer
     * than 18.16: written from the servers' readDateTime64Text, not tried against a server.)
     */
    private static final class DateTime64Text extends Writer {
        private final FixedWidthColumn c;
        private final int precision;
        private final long unit;
        private final int quote;

        DateTime64Text(FixedWidthColumn c, int precision, int quote) {
            this.c = c;
            this.precision = precision;
            long u = 1;
            for (int i = 0; i < precision; i++) {
                u *= 10;
            }
            this.unit = u;
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            long ticks = (long) LONG_LE.get(c.rawData(), row << 3);
            if (quote != 0) {
                out.writeByte(quote);
            }
            if (ticks < 0) {
                // Newer readers take a leading '-' as a negative timestamp, fraction included.
                out.writeByte('-');
                long abs = -ticks;
                TextOut.writeLong(out, abs / unit);
                writeFraction(out, abs % unit);
            } else {
                TextOut.writePadded10(out, ticks / unit);
                writeFraction(out, ticks % unit);
            }
            if (quote != 0) {
                out.writeByte(quote);
            }
        }

        private void writeFraction(WireOutput out, long fraction) {
            if (precision > 0) {
                out.ensureWritable(precision + 1);
                byte[] b = out.array();
                int p = out.position();
                b[p] = '.';
                for (int i = p + precision; i > p; i--) {
                    b[i] = (byte) ('0' + fraction % 10);
                    fraction /= 10;
                }
                out.advance(precision + 1);
            }
        }
    }

    // ---- UUID, IP addresses ----

    private static final class UuidText extends Writer {
        private final FixedWidthColumn c;
        private final int quote;

        UuidText(FixedWidthColumn c, int quote) {
            this.c = c;
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            byte[] d = c.rawData();
            int off = row << 4;
            if (quote != 0) {
                out.writeByte(quote);
            }
            TextOut.writeUuid(out, (long) LONG_LE.get(d, off), (long) LONG_LE.get(d, off + 8));
            if (quote != 0) {
                out.writeByte(quote);
            }
        }
    }

    private static final class Ipv4Text extends Writer {
        private final FixedWidthColumn c;
        private final int quote;

        Ipv4Text(FixedWidthColumn c, int quote) {
            this.c = c;
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            int v = (int) INT_LE.get(c.rawData(), row << 2);
            if (quote != 0) {
                out.writeByte(quote);
            }
            for (int shift = 24; shift >= 0; shift -= 8) {
                TextOut.writeLong(out, (v >>> shift) & 0xFF);
                if (shift > 0) {
                    out.writeByte('.');
                }
            }
            if (quote != 0) {
                out.writeByte(quote);
            }
        }
    }

    /** IPv6 as eight groups of hex digits, uncompressed: every reader takes the full form. */
    private static final class Ipv6Text extends Writer {
        private final FixedWidthColumn c;
        private final int quote;

        Ipv6Text(FixedWidthColumn c, int quote) {
            this.c = c;
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            byte[] d = c.rawData();
            int off = row << 4;
            if (quote != 0) {
                out.writeByte(quote);
            }
            out.ensureWritable(40);
            byte[] b = out.array();
            int p = out.position();
            int start = p;
            for (int g = 0; g < 8; g++) {
                int v = (d[off + 2 * g] & 0xFF) << 8 | (d[off + 2 * g + 1] & 0xFF);
                int n = v >= 0x1000 ? 4 : v >= 0x100 ? 3 : v >= 0x10 ? 2 : 1;
                TextOut.hex(b, p, v, n);
                p += n;
                if (g < 7) {
                    b[p++] = ':';
                }
            }
            out.advance(p - start);
            if (quote != 0) {
                out.writeByte(quote);
            }
        }
    }

    // ---- Enums ----

    private static final class Enum8Text extends Writer {
        private final FixedWidthColumn c;
        private final byte[][] names;
        private final int min;

        Enum8Text(FixedWidthColumn c, byte[][] names, int min) {
            this.c = c;
            this.names = names;
            this.min = min;
        }

        @Override
        void write(int row, WireOutput out) {
            int v = c.rawData()[row];
            int i = v - min;
            if (i >= 0 && i < names.length && names[i] != null) {
                TextOut.raw(out, names[i]);
            } else {
                TextOut.writeLong(out, v); // not a declared value: only a decoded block has one
            }
        }
    }

    private static final class Enum16Text extends Writer {
        private final FixedWidthColumn c;
        private final byte[][] names;
        private final int min;

        Enum16Text(FixedWidthColumn c, byte[][] names, int min) {
            this.c = c;
            this.names = names;
            this.min = min;
        }

        @Override
        void write(int row, WireOutput out) {
            int v = (short) SHORT_LE.get(c.rawData(), row << 1);
            int i = v - min;
            if (i >= 0 && i < names.length && names[i] != null) {
                TextOut.raw(out, names[i]);
            } else {
                TextOut.writeLong(out, v);
            }
        }
    }

    // ---- Strings ----

    private static final class StringEscaped extends Writer {
        private final StringColumn c;
        private final int quote;

        StringEscaped(StringColumn c, int quote) {
            this.c = c;
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            TextOut.escaped(out, c.rawBytes(), start, c.end(row) - start, quote);
        }
    }

    private static final class StringCsv extends Writer {
        private final StringColumn c;

        StringCsv(StringColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            TextOut.csv(out, c.rawBytes(), start, c.end(row) - start);
        }
    }

    private static final class StringJson extends Writer {
        private final StringColumn c;

        StringJson(StringColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            TextOut.json(out, c.rawBytes(), start, c.end(row) - start);
        }
    }

    /** A JSON column inside a JSON format: the document itself. */
    private static final class RawStringText extends Writer {
        private final StringColumn c;

        RawStringText(StringColumn c) {
            this.c = c;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            out.writeBytes(c.rawBytes(), start, c.end(row) - start);
        }
    }

    /** FixedString: all N bytes, trailing NULs included (they are part of the value). */
    private static final class FixedEscaped extends Writer {
        private final FixedWidthColumn c;
        private final int width;
        private final int quote;

        FixedEscaped(FixedWidthColumn c, int quote) {
            this.c = c;
            this.width = c.width();
            this.quote = quote;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.escaped(out, c.rawData(), row * width, width, quote);
        }
    }

    private static final class FixedCsv extends Writer {
        private final FixedWidthColumn c;
        private final int width;

        FixedCsv(FixedWidthColumn c) {
            this.c = c;
            this.width = c.width();
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.csv(out, c.rawData(), row * width, width);
        }
    }

    private static final class FixedJson extends Writer {
        private final FixedWidthColumn c;
        private final int width;

        FixedJson(FixedWidthColumn c) {
            this.c = c;
            this.width = c.width();
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.json(out, c.rawData(), row * width, width);
        }
    }

    private static final class ConstText extends Writer {
        private final byte[] text;

        ConstText(byte[] text) {
            this.text = text;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.raw(out, text);
        }
    }

    // ---- Composites ----

    private static final class NullableText extends Writer {
        private final NullableColumn c;
        private final Writer inner;
        private final byte[] nullText;

        NullableText(NullableColumn c, Writer inner, byte[] nullText) {
            this.c = c;
            this.inner = inner;
            this.nullText = nullText;
        }

        @Override
        void write(int row, WireOutput out) {
            if (c.isNull(row)) {
                TextOut.raw(out, nullText);
            } else {
                inner.write(row, out);
            }
        }
    }

    /** Each row is its dictionary value; key 0 of a nullable dictionary is NULL. */
    private static final class LowCardinalityText extends Writer {
        private final LowCardinalityColumn c;
        private final Writer dictionary;
        private final byte[] nullText;

        LowCardinalityText(LowCardinalityColumn c, Writer dictionary, byte[] nullText) {
            this.c = c;
            this.dictionary = dictionary;
            this.nullText = nullText;
        }

        @Override
        void write(int row, WireOutput out) {
            int key = c.index(row);
            if (key == 0 && nullText != null) {
                TextOut.raw(out, nullText);
            } else {
                dictionary.write(key, out);
            }
        }
    }

    private static final class ArrayText extends Writer {
        private final ArrayColumn c;
        private final Writer elements;

        ArrayText(ArrayColumn c, Writer elements) {
            this.c = c;
            this.elements = elements;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            int end = c.end(row);
            out.writeByte('[');
            for (int i = start; i < end; i++) {
                if (i > start) {
                    out.writeByte(',');
                }
                elements.write(i, out);
            }
            out.writeByte(']');
        }
    }

    private static final class MapText extends Writer {
        private final MapColumn c;
        private final Writer keys;
        private final Writer values;

        MapText(MapColumn c, Writer keys, Writer values) {
            this.c = c;
            this.keys = keys;
            this.values = values;
        }

        @Override
        void write(int row, WireOutput out) {
            int start = c.start(row);
            int end = c.end(row);
            out.writeByte('{');
            for (int i = start; i < end; i++) {
                if (i > start) {
                    out.writeByte(',');
                }
                keys.write(i, out);
                out.writeByte(':');
                values.write(i, out);
            }
            out.writeByte('}');
        }
    }

    private static final class TupleText extends Writer {
        private final Writer[] elements;
        private final byte[] open;
        private final byte[][] before;
        private final byte[] close;

        TupleText(Writer[] elements, byte[] open, byte[][] before, byte[] close) {
            this.elements = elements;
            this.open = open;
            this.before = before;
            this.close = close;
        }

        @Override
        void write(int row, WireOutput out) {
            TextOut.raw(out, open);
            for (int i = 0; i < elements.length; i++) {
                TextOut.raw(out, before[i]);
                elements[i].write(row, out);
            }
            TextOut.raw(out, close);
        }
    }

    /**
     * An Array or Map in CSV: its quoted text as one CSV field. The text goes to a scratch buffer
     * first (kept and reused), because its double quotes must be doubled.
     */
    private static final class CsvField extends Writer {
        private final Writer inner;
        private final WireOutput scratch = new WireOutput(256);

        CsvField(Writer inner) {
            this.inner = inner;
        }

        @Override
        void write(int row, WireOutput out) {
            scratch.reset();
            inner.write(row, scratch);
            TextOut.csv(out, scratch.array(), 0, scratch.position());
        }
    }
}
