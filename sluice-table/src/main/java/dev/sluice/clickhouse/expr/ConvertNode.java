package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.expr.ValueType.Kind;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code CAST(x AS T)} and the {@code toT(x)} functions, for the pairs the compiler allows (see
 * {@link Compiler#convertible}): numbers, dates, times and strings between each other, Enum and
 * FixedString targets, Nullable on either side. A value whose server result this does not reproduce
 * (unparsable text, a float out of the target's range, NULL into a non-Nullable type) throws {@link
 * UnsupportedValueException}.
 */
final class ConvertNode extends Node {
    private final Node arg;
    private final DateLut sourceLut;
    private final DateLut targetLut;
    private final DateLut serverLut;

    /**
     * CAST makes a DateTime (from text or a Date) in the server's zone, whatever zone the target
     * type names; toDateTime(x, 'tz') makes it in that zone.
     */
    private final DateLut makeLut;

    /** Text to a number, date, time or Enum: the text is parsed. */
    private final boolean parsesText;

    ConvertNode(Node arg, ValueType target, DateLut serverLut, boolean cast) {
        super(target);
        this.arg = arg;
        this.serverLut = serverLut;
        this.sourceLut = arg.type.zone() != null ? DateLut.of(arg.type.zone()) : serverLut;
        this.targetLut = target.zone() != null ? DateLut.of(target.zone()) : serverLut;
        this.makeLut = cast ? serverLut : targetLut;
        this.parsesText =
                arg.type.kind() == Kind.STRING
                        && target.kind() != Kind.STRING
                        && target.kind() != Kind.FIXED_STRING;
    }

    @Override
    boolean rowIndependent() {
        return arg.rowIndependent();
    }

    @Override
    ValueVector eval(Context ctx) {
        ValueVector a = arg.eval(ctx);
        int n = prepareConversion(ctx, a);
        for (int i = 0; i < n; i++) {
            int k = at(a, i);
            if (nullAt(i)) {
                if (parsesText && !a.constant) {
                    // The server converts a NULL's placeholder too, and '' parses as nothing.
                    throw new UnsupportedValueException(
                            "a NULL text cannot be converted to "
                                    + type.withNullable(false).typeName()
                                    + " (the server parses its empty placeholder and fails);"
                                    + " use ifNull or coalesce first");
                }
                setDefault(i);
            } else if (a.hasNulls && a.nulls[k] != 0) {
                throw new UnsupportedValueException(
                        "NULL cannot be converted to the non-Nullable " + type.typeName());
            } else {
                convert(a, k, i);
            }
        }
        return out;
    }

    /** Like {@link #prepare}, but a non-Nullable target keeps no null map (NULLs are refused). */
    private int prepareConversion(Context ctx, ValueVector a) {
        if (type.nullable()) {
            return prepare(ctx, a);
        }
        int n = a.constant ? 1 : ctx.count;
        out.prepare(n, a.constant);
        return n;
    }

    private void setDefault(int i) {
        switch (type.kind()) {
            case FLOAT -> out.doubles[i] = 0;
            case STRING, FIXED_STRING -> {
                out.starts[i] = out.bytesUsed;
                out.ends[i] = out.bytesUsed;
            }
            case NULL -> {}
            default -> out.longs[i] = 0;
        }
    }

    private void convert(ValueVector a, int k, int i) {
        Kind from = a.type.kind();
        switch (type.kind()) {
            case INT -> out.longs[i] = toInteger(a, k);
            case FLOAT -> {
                if (from == Kind.STRING) {
                    out.doubles[i] = parseFloat(a, k);
                    return;
                }
                double d =
                        from == Kind.FLOAT
                                ? a.doubles[k]
                                : !a.type.signed() && a.type.bits() == 64 && from == Kind.INT
                                        ? (type.bits() == 32
                                                ? Conversions.unsignedToFloat(a.longs[k])
                                                : ExprParser.unsignedToDouble(a.longs[k]))
                                        : type.bits() == 32 ? (float) a.longs[k] : a.longs[k];
                out.doubles[i] = type.bits() == 32 ? (float) d : d;
            }
            case DATE -> out.longs[i] = toDate(a, k);
            case DATETIME -> out.longs[i] = toDateTime(a, k);
            case STRING -> toText(a, k, i);
            case FIXED_STRING -> toFixedString(a, k, i);
            case ORDERED -> out.longs[i] = toEnum(a, k);
            case NULL -> {}
        }
    }

    private final FloatText.Result parsed = new FloatText.Result();

    /** Text to Float64 as the server's {@code toFloat64} reads it: the whole text, one number. */
    private double parseFloat(ValueVector a, int k) {
        int s = a.starts[k];
        int e = a.ends[k];
        if (!FloatText.parse(a.bytes, s, e, parsed) || parsed.end != e) {
            throw new UnsupportedValueException(
                    "cannot parse '"
                            + new String(a.bytes, s, Math.min(e - s, 40), StandardCharsets.UTF_8)
                            + "' as "
                            + type.typeName());
        }
        return parsed.value;
    }

    private long toInteger(ValueVector a, int k) {
        return switch (a.type.kind()) {
            case FLOAT -> Conversions.floatToInteger(a.doubles[k], type);
            case STRING -> Conversions.parseInteger(a.bytes, a.starts[k], a.ends[k], type);
            default -> Conversions.wrap(a.longs[k], type);
        };
    }

    private long toDate(ValueVector a, int k) {
        return switch (a.type.kind()) {
            case DATE -> a.longs[k];
            case DATETIME -> sourceLut.findIndex(a.longs[k]);
            case STRING -> Conversions.parseDate(a.bytes, a.starts[k], a.ends[k]);
            default -> {
                long v = a.longs[k];
                if (v >= 0 && v <= 0xFFFF) {
                    yield v;
                }
                throw new UnsupportedValueException(
                        "number " + v + " as a Date is left to the server");
            }
        };
    }

    private long toDateTime(ValueVector a, int k) {
        return switch (a.type.kind()) {
            case DATETIME -> a.longs[k];
            case DATE -> makeLut.date((int) a.longs[k]);
            case STRING -> Conversions.parseDateTime(a.bytes, a.starts[k], a.ends[k], makeLut);
            default -> {
                long v = a.longs[k];
                if (v >= 0 && v <= 0xFFFF_FFFFL) {
                    yield v;
                }
                throw new UnsupportedValueException(
                        "number "
                                + Long.toUnsignedString(v)
                                + " as a DateTime is left to the server");
            }
        };
    }

    private long toEnum(ValueVector a, int k) {
        EnumType e = (EnumType) type.chType();
        if (a.type.kind() == Kind.STRING) {
            String name =
                    new String(
                            a.bytes, a.starts[k], a.ends[k] - a.starts[k], StandardCharsets.UTF_8);
            int v = e.valueOf(name);
            if (v == Integer.MIN_VALUE) {
                throw new UnsupportedValueException(
                        "'" + name + "' is not a value of " + e.typeName());
            }
            return v;
        }
        long v = a.longs[k];
        if (v < Short.MIN_VALUE || v > Short.MAX_VALUE || e.nameOf((int) v) == null) {
            throw new UnsupportedValueException(v + " is not a value of " + e.typeName());
        }
        return v;
    }

    private void toFixedString(ValueVector a, int k, int i) {
        int n = ((FixedStringType) type.chType()).length();
        int len = a.ends[k] - a.starts[k];
        if (len > n) {
            throw new UnsupportedValueException(
                    "a string of " + len + " bytes does not fit " + type.typeName());
        }
        byte[] b = out.ownBytes(n);
        int p = out.bytesUsed;
        System.arraycopy(a.bytes, a.starts[k], b, p, len);
        Arrays.fill(b, p + len, p + n, (byte) 0);
        out.starts[i] = p;
        out.bytesUsed = p + n;
        out.ends[i] = out.bytesUsed;
    }

    /** toString: the server's text of the value. */
    private void toText(ValueVector a, int k, int i) {
        switch (a.type.kind()) {
            case STRING -> out.putString(i, a.bytes, a.starts[k], a.ends[k]);
            case INT -> putInteger(i, a.longs[k], !a.type.signed() && a.type.bits() == 64);
            case FLOAT -> putAscii(i, FloatFormat.format(a.doubles[k], a.type.bits() == 32));
            case DATE -> {
                byte[] b = out.ownBytes(10);
                int start = out.bytesUsed;
                out.bytesUsed = Conversions.formatDate(serverLut, (int) a.longs[k], b, start);
                out.starts[i] = start;
                out.ends[i] = out.bytesUsed;
            }
            case DATETIME -> {
                byte[] b = out.ownBytes(19);
                int start = out.bytesUsed;
                out.bytesUsed = Conversions.formatDateTime(sourceLut, a.longs[k], b, start);
                out.starts[i] = start;
                out.ends[i] = out.bytesUsed;
            }
            default -> throw new IllegalStateException("toString of " + a.type);
        }
    }

    /** The decimal digits of {@code v} (UInt64 when {@code unsigned}), without allocating. */
    private void putInteger(int i, long v, boolean unsigned) {
        byte[] b = out.ownBytes(20);
        int start = out.bytesUsed;
        int end = start + 20;
        int p = end;
        if (unsigned && v < 0) {
            long q = Long.divideUnsigned(v, 10);
            b[--p] = (byte) ('0' + (v - q * 10));
            v = q; // now fits a signed long
        }
        boolean negative = v < 0;
        do {
            long q = v / 10;
            b[--p] = (byte) ('0' + Math.abs(v - q * 10));
            v = q;
        } while (v != 0);
        if (negative) {
            b[--p] = '-';
        }
        int len = end - p;
        System.arraycopy(b, p, b, start, len);
        out.starts[i] = start;
        out.bytesUsed = start + len;
        out.ends[i] = out.bytesUsed;
    }

    private void putAscii(int i, String s) {
        byte[] b = out.ownBytes(s.length());
        int p = out.bytesUsed;
        for (int j = 0; j < s.length(); j++) {
            b[p + j] = (byte) s.charAt(j);
        }
        out.starts[i] = p;
        out.bytesUsed = p + s.length();
        out.ends[i] = out.bytesUsed;
    }
}
