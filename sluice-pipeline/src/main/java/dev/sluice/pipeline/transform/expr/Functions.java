package dev.sluice.pipeline.transform.expr;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.DateTimes;
import dev.sluice.pipeline.decode.convert.MomentParser;
import dev.sluice.pipeline.decode.convert.Texts;
import dev.sluice.pipeline.decode.convert.Utf8;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The functions expressions may call. */
final class Functions {
    private Functions() {}

    /** {@code now()}: the wall clock, in seconds. */
    static final class Now extends Expr {
        Now() {
            super(Kind.DATETIME);
        }

        @Override
        public long asLong(EvalContext c) {
            c.nul = false;
            return Math.floorDiv(c.clock.currentTimeMillis(), 1000);
        }
    }

    /** {@code today()}: the UTC date. */
    static final class Today extends Expr {
        Today() {
            super(Kind.DATE);
        }

        @Override
        public long asLong(EvalContext c) {
            c.nul = false;
            return Math.floorDiv(c.clock.currentTimeMillis(), 1000L * DateTimes.SECONDS_PER_DAY);
        }
    }

    /** {@code raw()}: the record's bytes as they came from the source. */
    static final class Raw extends Expr {
        private final Slice slice = new Slice();

        Raw() {
            super(Kind.STRING);
        }

        @Override
        public Slice asString(EvalContext c) {
            c.nul = false;
            int s = c.batch.start[c.index];
            slice.set(c.batch.data, s, c.batch.end[c.index] - s);
            return slice;
        }
    }

    /** {@code concat(a, b, ...)}: the texts joined; NULL when any is NULL. */
    static final class Concat extends Expr {
        private final Expr[] args;
        private final TextOut out = new TextOut();
        private final Slice slice = new Slice();

        Concat(List<Expr> args) {
            super(Kind.STRING);
            this.args = args.toArray(new Expr[0]);
        }

        @Override
        public Slice asString(EvalContext c) {
            out.clear();
            for (Expr a : args) {
                if (!out.appendValue(a, c)) {
                    c.nul = true;
                    return slice;
                }
            }
            c.nul = false;
            slice.set(out.b, 0, out.len);
            return slice;
        }
    }

    /** {@code coalesce(a, b, ...)}: the first value that is not NULL. */
    static final class Coalesce extends Expr {
        private final Expr[] args;

        Coalesce(Kind kind, List<Expr> args) {
            super(kind);
            this.args = args.toArray(new Expr[0]);
        }

        @Override
        public long asLong(EvalContext c) {
            for (Expr a : args) {
                long v = a.asLong(c);
                if (!c.nul) {
                    return v;
                }
            }
            return 0;
        }

        @Override
        public double asDouble(EvalContext c) {
            for (Expr a : args) {
                double v = a.asDouble(c);
                if (!c.nul) {
                    return v;
                }
            }
            return 0;
        }

        @Override
        public Slice asString(EvalContext c) {
            Slice v = null;
            for (Expr a : args) {
                v = a.asString(c);
                if (!c.nul) {
                    return v;
                }
            }
            return v;
        }
    }

    /**
     * {@code json(text, '/pointer')}: the value at a JSON pointer (RFC 6901) in a JSON text —
     * strings unquoted, numbers and booleans as written, objects and arrays as their JSON text.
     * NULL when the text is not JSON, the pointer leads nowhere, or the value is null. Parses the
     * text per row with a fresh Jackson parser (a few hundred bytes of garbage per call).
     */
    static final class Json extends Expr {
        private static final JsonFactory FACTORY = new JsonFactory();

        private final Expr text;
        private final String[] segments;
        private final TextOut out = new TextOut();
        private final Slice slice = new Slice();

        Json(Expr text, List<String> segments) {
            super(Kind.STRING);
            this.text = text;
            this.segments = segments.toArray(new String[0]);
        }

        @Override
        public Slice asString(EvalContext c) {
            Slice s = text.asString(c);
            if (c.nul) {
                return slice;
            }
            out.clear();
            try (JsonParser p = FACTORY.createParser(s.bytes, s.off, s.len)) {
                c.nul = !extract(p, s);
            } catch (IOException e) {
                c.nul = true; // not JSON: no value
            }
            slice.set(out.b, 0, out.len);
            return slice;
        }

        private boolean extract(JsonParser p, Slice s) throws IOException {
            JsonToken t = p.nextToken();
            for (String seg : segments) {
                if (t == JsonToken.START_OBJECT) {
                    t = null;
                    for (JsonToken f = p.nextToken();
                            f == JsonToken.FIELD_NAME;
                            f = p.nextToken()) {
                        JsonToken v = p.nextToken();
                        if (p.currentName().equals(seg)) {
                            t = v;
                            break;
                        }
                        p.skipChildren();
                    }
                } else if (t == JsonToken.START_ARRAY && isIndex(seg)) {
                    int i = Integer.parseInt(seg);
                    t = p.nextToken();
                    for (; i > 0 && t != JsonToken.END_ARRAY; i--) {
                        p.skipChildren();
                        t = p.nextToken();
                    }
                    if (t == JsonToken.END_ARRAY) {
                        t = null;
                    }
                } else {
                    t = null;
                }
                if (t == null) {
                    return false;
                }
            }
            switch (t) {
                case VALUE_NULL -> {
                    return false;
                }
                case START_OBJECT, START_ARRAY -> {
                    int from = (int) p.currentTokenLocation().getByteOffset();
                    p.skipChildren();
                    int to = (int) p.currentLocation().getByteOffset();
                    out.append(s.bytes, s.off + from, to - from);
                }
                case VALUE_STRING -> {
                    char[] ch = p.getTextCharacters();
                    int len = p.getTextLength();
                    byte[] tmp = new byte[len * 3];
                    out.append(tmp, 0, Utf8.encode(ch, p.getTextOffset(), len, tmp));
                }
                default -> {
                    byte[] v = p.getText().getBytes(StandardCharsets.UTF_8);
                    out.append(v, 0, v.length);
                }
            }
            return true;
        }

        private static boolean isIndex(String s) {
            return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(Character::isDigit);
        }
    }

    /** {@code toString(x)}. */
    static final class ToString extends Expr {
        private final Expr e;
        private final TextOut out = new TextOut();
        private final Slice slice = new Slice();

        ToString(Expr e) {
            super(Kind.STRING);
            this.e = e;
        }

        @Override
        public Slice asString(EvalContext c) {
            out.clear();
            c.nul = !out.appendValue(e, c);
            slice.set(out.b, 0, out.len);
            return slice;
        }
    }

    /** {@code toInt64(x)}: text is parsed; floats are truncated toward zero. */
    static final class ToInt extends Expr {
        private final Expr e;

        ToInt(Expr e) {
            super(Kind.INT);
            this.e = e;
        }

        @Override
        public long asLong(EvalContext c) {
            switch (e.kind) {
                case STRING -> {
                    Slice s = e.asString(c);
                    return c.nul ? 0 : parseLong(s);
                }
                case FLOAT -> {
                    double v = e.asDouble(c);
                    if (!c.nul && (Double.isNaN(v) || Math.abs(v) >= 0x1p63)) {
                        throw new ConversionException(v + " does not fit Int64");
                    }
                    return (long) v;
                }
                default -> {
                    return e.asLong(c);
                }
            }
        }

        private static long parseLong(Slice s) {
            byte[] b = s.bytes;
            int p = s.off;
            int end = s.off + s.len;
            boolean negative = p < end && b[p] == '-';
            if (negative || (p < end && b[p] == '+')) {
                p++;
            }
            if (p == end) {
                throw new ConversionException(Texts.show(b, s.off, s.len) + " is not an integer");
            }
            long v = 0;
            for (; p < end; p++) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    throw new ConversionException(
                            Texts.show(b, s.off, s.len) + " is not an integer");
                }
                if (v < (Long.MIN_VALUE + d) / 10) {
                    throw new ConversionException(
                            "value " + Texts.plain(b, s.off, s.len) + " does not fit Int64");
                }
                v = v * 10 - d; // accumulate negatively: Long.MIN_VALUE has no positive twin
            }
            if (!negative && v == Long.MIN_VALUE) {
                throw new ConversionException(
                        "value " + Texts.plain(b, s.off, s.len) + " does not fit Int64");
            }
            return negative ? v : -v;
        }
    }

    /** {@code toFloat64(x)}. */
    static final class ToFloat extends Expr {
        private final Expr e;

        ToFloat(Expr e) {
            super(Kind.FLOAT);
            this.e = e;
        }

        @Override
        public double asDouble(EvalContext c) {
            if (e.kind != Kind.STRING) {
                return e.asDouble(c);
            }
            Slice s = e.asString(c);
            if (c.nul) {
                return 0;
            }
            String t = s.toString().trim();
            try {
                return switch (t.toLowerCase(java.util.Locale.ROOT)) {
                    case "inf", "+inf", "infinity" -> Double.POSITIVE_INFINITY;
                    case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
                    case "nan" -> Double.NaN;
                    default -> {
                        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                            throw new NumberFormatException();
                        }
                        yield Double.parseDouble(t);
                    }
                };
            } catch (NumberFormatException ex) {
                throw new ConversionException(
                        Texts.show(s.bytes, s.off, s.len) + " is not a number");
            }
        }

        @Override
        public long asLong(EvalContext c) {
            return (long) asDouble(c);
        }
    }

    /** {@code toDate(x)} and {@code toDateTime(x)}: text, numbers, or the other one. */
    static final class ToTime extends Expr {
        private final Expr e;
        private final MomentParser parser = new MomentParser(null);

        ToTime(Kind kind, Expr e) {
            super(kind);
            this.e = e;
        }

        @Override
        public long asLong(EvalContext c) {
            long seconds;
            switch (e.kind) {
                case STRING -> {
                    Slice s = e.asString(c);
                    if (c.nul) {
                        return 0;
                    }
                    if (s.len > 0 && isDigits(s)) {
                        long v = Long.parseLong(s.toString());
                        return kind == Kind.DATE && s.len < 8 ? v : toKind(v);
                    }
                    parser.parse(s.bytes, s.off, s.len, kind == Kind.DATE ? "Date" : "DateTime");
                    seconds = parser.seconds();
                }
                case DATE -> {
                    long days = e.asLong(c);
                    return kind == Kind.DATE ? days : days * DateTimes.SECONDS_PER_DAY;
                }
                case FLOAT -> seconds = (long) Math.floor(e.asDouble(c));
                default -> {
                    long v = e.asLong(c);
                    // an integer is days for toDate and seconds for toDateTime
                    return kind == Kind.DATE && e.kind != Kind.DATETIME ? v : toKind(v);
                }
            }
            return toKind(seconds);
        }

        private long toKind(long seconds) {
            return kind == Kind.DATE ? Math.floorDiv(seconds, DateTimes.SECONDS_PER_DAY) : seconds;
        }

        private static boolean isDigits(Slice s) {
            for (int i = s.off; i < s.off + s.len; i++) {
                if (s.bytes[i] < '0' || s.bytes[i] > '9') {
                    return false;
                }
            }
            return s.len < 19;
        }
    }
}
