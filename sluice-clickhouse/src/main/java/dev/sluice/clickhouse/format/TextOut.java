package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.io.WireOutput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Numbers, dates and escaped strings written as text straight into a {@link WireOutput}: each
 * reserves its worst case, writes into the output's array and advances, so nothing is allocated per
 * value.
 *
 * <p>Escaping follows what ClickHouse's own writers emit (WriteHelpers.h), so our text reads back
 * in every version and matches the server's output for the same values:
 *
 * <ul>
 *   <li>TSV and quoted strings: {@code \b \f \n \r \t \0 \\} and the quote {@code '} get a
 *       backslash; all other bytes (UTF-8 or not) pass through.
 *   <li>CSV: the value in double quotes, a double quote doubled; all other bytes raw, newlines
 *       included.
 *   <li>JSON: {@code \" \\ \b \f \n \r \t}, other bytes below 0x20 as <code>&#92;u00XX</code>
 *       (upper-case hex), U+2028 and U+2029 as <code>&#92;u2028</code>/<code>&#92;u2029</code>
 *       (JavaScript reads them as line ends); {@code /} is not escaped (the server's {@code
 *       output_format_json_escape_forward_slashes} only matters for its output; any reader accepts
 *       both).
 * </ul>
 */
final class TextOut {
    /** Source bytes escaped per reservation: bounds the room asked of a draining output. */
    private static final int CHUNK = 4096;

    /** TSV escapes: 0 = as is, else the letter after the backslash. */
    private static final byte[] TSV = new byte[256];

    /**
     * JSON escapes: 0 = as is, 'u' = backslash-u 00XX, 'E' = maybe U+2028/9, else the short letter.
     */
    private static final byte[] JSON = new byte[256];

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** "00" .. "99". */
    private static final byte[] PAIRS = new byte[200];

    // Word-at-a-time scanning: 8 bytes are tested at once and copied as one long when none of
    // them needs escaping (the common case for text).
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;
    private static final long QUOTES = ONES * '\'';
    private static final long DOUBLE_QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long E2S = ONES * 0xE2;

    static {
        TSV['\b'] = 'b';
        TSV['\f'] = 'f';
        TSV['\n'] = 'n';
        TSV['\r'] = 'r';
        TSV['\t'] = 't';
        TSV[0] = '0';
        TSV['\\'] = '\\';
        TSV['\''] = '\'';
        for (int c = 0; c < 0x20; c++) {
            JSON[c] = 'u';
        }
        JSON['\b'] = 'b';
        JSON['\f'] = 'f';
        JSON['\n'] = 'n';
        JSON['\r'] = 'r';
        JSON['\t'] = 't';
        JSON['"'] = '"';
        JSON['\\'] = '\\';
        JSON[0xE2] = 'E';
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private TextOut() {}

    // Masks with the high bit set in bytes that match. Borrows can set bits above a true match,
    // never below the lowest one: the lowest set bit always marks the first matching byte.

    /** Bytes of {@code w} that are zero. */
    private static long zeros(long w) {
        return (w - ONES) & ~w & HIGHS;
    }

    /** Bytes of {@code w} below {@code n} (n <= 128), unsigned. */
    private static long below(long w, int n) {
        return (w - ONES * n) & ~w & HIGHS;
    }

    /** TSV candidates: bytes below 0x0E (\0 \b \t \n \f \r among them), ' and \\. */
    private static long tsvMask(long w) {
        return below(w, 0x0E) | zeros(w ^ QUOTES) | zeros(w ^ BACKSLASHES);
    }

    /** JSON candidates: control bytes, " and \\, and 0xE2 (a U+2028/U+2029 may start there). */
    private static long jsonMask(long w) {
        return below(w, 0x20) | zeros(w ^ DOUBLE_QUOTES) | zeros(w ^ BACKSLASHES) | zeros(w ^ E2S);
    }

    private static final long[] POW10 = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    // ---- Integers ----

    /** Decimal digits of {@code v >= 0}. */
    static int digitCount(long v) {
        // floor(log10(v)) is floor(log2(v) * log10(2)) or one more; 1233 / 4096 ~ log10(2).
        int d = ((63 - Long.numberOfLeadingZeros(v | 1)) * 1233) >>> 12;
        if (d >= 18) {
            return 19; // v >= 2^60 > 10^18 (and below 2^63 < 10^19)
        }
        return v >= POW10[d + 1] ? d + 2 : d + 1;
    }

    /** Writes the {@code n} digits of {@code v >= 0} at {@code p}; returns {@code p + n}. */
    static int putDigits(byte[] b, int p, long v, int n) {
        int i = p + n;
        while (v >= 100) {
            int r = (int) (v % 100);
            v /= 100;
            b[--i] = PAIRS[2 * r + 1];
            b[--i] = PAIRS[2 * r];
        }
        if (v >= 10) {
            b[--i] = PAIRS[2 * (int) v + 1];
            b[--i] = PAIRS[2 * (int) v];
        } else {
            b[--i] = (byte) ('0' + v);
        }
        return p + n;
    }

    static void writeLong(WireOutput out, long v) {
        out.ensureWritable(20);
        byte[] b = out.array();
        int p = out.position();
        int start = p;
        if (v < 0) {
            b[p++] = '-';
            if (v == Long.MIN_VALUE) {
                p = putUnsigned(b, p, v);
                out.advance(p - start);
                return;
            }
            v = -v;
        }
        p = putDigits(b, p, v, digitCount(v));
        out.advance(p - start);
    }

    /** {@code bits} as an unsigned 64-bit integer. */
    static void writeUnsignedLong(WireOutput out, long bits) {
        out.ensureWritable(20);
        int p = out.position();
        out.advance(putUnsigned(out.array(), p, bits) - p);
    }

    private static int putUnsigned(byte[] b, int p, long bits) {
        if (bits >= 0) {
            return putDigits(b, p, bits, digitCount(bits));
        }
        long q = (bits >>> 1) / 5; // bits / 10, unsigned
        int r = (int) (bits - q * 10);
        p = putDigits(b, p, q, digitCount(q));
        b[p++] = (byte) ('0' + r);
        return p;
    }

    /** Seconds as exactly 10 digits (a UInt32 never has more); why: see {@link TextWriters}. */
    static void writePadded10(WireOutput out, long v) {
        out.ensureWritable(20);
        byte[] b = out.array();
        int p = out.position();
        int n = digitCount(v);
        int start = p;
        for (int i = n; i < 10; i++) {
            b[p++] = '0';
        }
        p = putDigits(b, p, v, n);
        out.advance(p - start);
    }

    // ---- Dates, UUIDs ----

    /** Days since 1970-01-01 as YYYY-MM-DD (proleptic Gregorian, the server's calendar). */
    static void writeDate(WireOutput out, long days) {
        out.ensureWritable(16);
        byte[] b = out.array();
        int p = out.position();
        // Civil from days (H. Hinnant): eras of 400 years starting on March 1st.
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) {
            y++;
        }
        int start = p;
        if (y < 0) {
            b[p++] = '-';
            y = -y;
        }
        int yn = digitCount(y);
        for (int i = yn; i < 4; i++) {
            b[p++] = '0';
        }
        p = putDigits(b, p, y, yn);
        b[p++] = '-';
        b[p++] = PAIRS[2 * m];
        b[p++] = PAIRS[2 * m + 1];
        b[p++] = '-';
        b[p++] = PAIRS[2 * d];
        b[p++] = PAIRS[2 * d + 1];
        out.advance(p - start);
    }

    /** The 36-character form, lower-case, of the UUID with halves {@code hi} and {@code lo}. */
    static void writeUuid(WireOutput out, long hi, long lo) {
        out.ensureWritable(36);
        byte[] b = out.array();
        int p = out.position();
        hex(b, p, hi >>> 32, 8);
        b[p + 8] = '-';
        hex(b, p + 9, hi >>> 16, 4);
        b[p + 13] = '-';
        hex(b, p + 14, hi, 4);
        b[p + 18] = '-';
        hex(b, p + 19, lo >>> 48, 4);
        b[p + 23] = '-';
        hex(b, p + 24, lo, 12);
        out.advance(36);
    }

    /** The low {@code n} hex digits of {@code v} at {@code p}. */
    static void hex(byte[] b, int p, long v, int n) {
        for (int i = p + n - 1; i >= p; i--) {
            b[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    // ---- Decimals and wide integers ----

    /** unscaled 10^-scale in plain notation with exactly {@code scale} fractional digits. */
    static void writeDecimal(WireOutput out, long unscaled, int scale) {
        out.ensureWritable(24 + scale);
        byte[] b = out.array();
        int p = out.position();
        int start = p;
        long abs;
        if (unscaled < 0) {
            b[p++] = '-';
            abs = -unscaled; // |Decimal64| < 10^18: no overflow
        } else {
            abs = unscaled;
        }
        int n = digitCount(abs);
        if (scale == 0) {
            p = putDigits(b, p, abs, n);
        } else if (n > scale) {
            int end = putDigits(b, p + 1, abs, n);
            int intDigits = n - scale;
            System.arraycopy(b, p + 1, b, p, intDigits);
            b[p + intDigits] = '.';
            p = end;
        } else {
            b[p++] = '0';
            b[p++] = '.';
            for (int i = n; i < scale; i++) {
                b[p++] = '0';
            }
            p = putDigits(b, p, abs, n);
        }
        out.advance(p - start);
    }

    /**
     * A little-endian two's complement integer of {@code width} bytes (16 or 32) at {@code off},
     * scaled by 10^-scale, as text. {@code limbs} (width / 4 ints) and {@code digits} (80 bytes)
     * are the caller's scratch.
     */
    static void writeWide(
            WireOutput out,
            byte[] src,
            int off,
            int width,
            boolean signed,
            int scale,
            int[] limbs,
            byte[] digits) {
        int nl = width / 4;
        boolean negative = signed && src[off + width - 1] < 0;
        // Big-endian 32-bit limbs of |value|.
        long carry = 1;
        for (int i = 0; i < nl; i++) {
            int o = off + 4 * i;
            long limb =
                    (src[o] & 0xFFL)
                            | (src[o + 1] & 0xFFL) << 8
                            | (src[o + 2] & 0xFFL) << 16
                            | (src[o + 3] & 0xFFL) << 24;
            if (negative) {
                limb = (~limb & 0xFFFF_FFFFL) + carry;
                carry = limb >>> 32;
                limb &= 0xFFFF_FFFFL;
            }
            limbs[nl - 1 - i] = (int) limb;
        }
        // Repeated division by 10^9, least significant chunk first, into digits[] from the end.
        int d = digits.length;
        int first = 0;
        while (true) {
            while (first < nl && limbs[first] == 0) {
                first++;
            }
            if (first == nl) {
                break;
            }
            long rem = 0;
            for (int i = first; i < nl; i++) {
                long cur = rem << 32 | (limbs[i] & 0xFFFF_FFFFL);
                limbs[i] = (int) (cur / 1_000_000_000L);
                rem = cur % 1_000_000_000L;
            }
            for (int k = 0; k < 9; k++) {
                digits[--d] = (byte) ('0' + rem % 10);
                rem /= 10;
            }
        }
        while (d < digits.length - 1 && digits[d] == '0') {
            d++;
        }
        if (d == digits.length) {
            digits[--d] = '0';
        }
        int n = digits.length - d;
        out.ensureWritable(n + scale + 4);
        byte[] b = out.array();
        int p = out.position();
        int start = p;
        if (negative) {
            b[p++] = '-';
        }
        if (scale == 0) {
            System.arraycopy(digits, d, b, p, n);
            p += n;
        } else if (n > scale) {
            System.arraycopy(digits, d, b, p, n - scale);
            p += n - scale;
            b[p++] = '.';
            System.arraycopy(digits, d + n - scale, b, p, scale);
            p += scale;
        } else {
            b[p++] = '0';
            b[p++] = '.';
            for (int i = n; i < scale; i++) {
                b[p++] = '0';
            }
            System.arraycopy(digits, d, b, p, n);
            p += n;
        }
        out.advance(p - start);
    }

    // ---- Strings ----

    /**
     * TSV escaping of {@code src[off, off+len)}, between {@code quote} characters unless quote is 0
     * (TSV fields are bare, quoted values are in single quotes).
     */
    static void escaped(WireOutput out, byte[] src, int off, int len, int quote) {
        if (quote != 0) {
            out.writeByte(quote);
        }
        int end = off + len;
        while (off < end) {
            int n = Math.min(end - off, CHUNK);
            out.ensureWritable(2 * n);
            byte[] b = out.array();
            int p = out.position();
            int start = p;
            int i = off;
            int e = off + n;
            while (i + 8 <= e) {
                long w = (long) LONG_LE.get(src, i);
                long m = tsvMask(w);
                // Copy the whole word; an escape below overwrites from the special byte on.
                LONG_LE.set(b, p, w);
                if (m == 0) {
                    p += 8;
                    i += 8;
                    continue;
                }
                int k = Long.numberOfTrailingZeros(m) >>> 3;
                p += k;
                i += k;
                byte c = src[i++];
                byte x = TSV[c & 0xFF];
                if (x == 0) {
                    b[p++] = c; // a control byte that is not escaped
                } else {
                    b[p++] = '\\';
                    b[p++] = x;
                }
            }
            for (; i < e; i++) {
                byte c = src[i];
                byte x = TSV[c & 0xFF];
                if (x == 0) {
                    b[p++] = c;
                } else {
                    b[p++] = '\\';
                    b[p++] = x;
                }
            }
            out.advance(p - start);
            off += n;
        }
        if (quote != 0) {
            out.writeByte(quote);
        }
    }

    /** A CSV field: in double quotes, each double quote doubled. */
    static void csv(WireOutput out, byte[] src, int off, int len) {
        out.writeByte('"');
        int end = off + len;
        while (off < end) {
            int n = Math.min(end - off, CHUNK);
            out.ensureWritable(2 * n);
            byte[] b = out.array();
            int p = out.position();
            int start = p;
            int i = off;
            int e = off + n;
            while (i + 8 <= e) {
                long w = (long) LONG_LE.get(src, i);
                long m = zeros(w ^ DOUBLE_QUOTES);
                LONG_LE.set(b, p, w);
                if (m == 0) {
                    p += 8;
                    i += 8;
                    continue;
                }
                int k = (Long.numberOfTrailingZeros(m) >>> 3) + 1; // through the quote
                p += k;
                i += k;
                b[p++] = '"';
            }
            for (; i < e; i++) {
                byte c = src[i];
                b[p++] = c;
                if (c == '"') {
                    b[p++] = '"';
                }
            }
            out.advance(p - start);
            off += n;
        }
        out.writeByte('"');
    }

    /** A JSON string. */
    static void json(WireOutput out, byte[] src, int off, int len) {
        out.writeByte('"');
        int end = off + len;
        while (off < end) {
            int n = Math.min(end - off, CHUNK);
            // 6 output bytes per input byte at most; a U+2028 at the chunk's end reads 2 more.
            out.ensureWritable(6 * n + 12);
            byte[] b = out.array();
            int p = out.position();
            int start = p;
            int i = off;
            int e = off + n;
            while (i < e) {
                if (i + 8 <= e) {
                    long w = (long) LONG_LE.get(src, i);
                    long m = jsonMask(w);
                    LONG_LE.set(b, p, w);
                    if (m == 0) {
                        p += 8;
                        i += 8;
                        continue;
                    }
                    int k = Long.numberOfTrailingZeros(m) >>> 3;
                    p += k;
                    i += k;
                }
                // One byte by the rules: the first candidate of a word, or a tail byte.
                byte c = src[i];
                byte x = JSON[c & 0xFF];
                if (x == 0) {
                    b[p++] = c;
                } else if (x == 'u') {
                    b[p++] = '\\';
                    b[p++] = 'u';
                    b[p++] = '0';
                    b[p++] = '0';
                    b[p++] = HEX_UPPER[(c >> 4) & 0xF];
                    b[p++] = HEX_UPPER[c & 0xF];
                } else if (x == 'E') {
                    if (i + 2 < end
                            && src[i + 1] == (byte) 0x80
                            && (src[i + 2] == (byte) 0xA8 || src[i + 2] == (byte) 0xA9)) {
                        b[p++] = '\\';
                        b[p++] = 'u';
                        b[p++] = '2';
                        b[p++] = '0';
                        b[p++] = '2';
                        b[p++] = src[i + 2] == (byte) 0xA8 ? (byte) '8' : (byte) '9';
                        i += 2;
                    } else {
                        b[p++] = c;
                    }
                } else {
                    b[p++] = '\\';
                    b[p++] = x;
                }
                i++;
            }
            out.advance(p - start);
            off = i; // may be past the chunk by the two bytes of a U+2028
        }
        out.writeByte('"');
    }

    /** Copies {@code bytes}; one-byte separators are the common case. */
    static void raw(WireOutput out, byte[] bytes) {
        if (bytes.length == 1) {
            out.writeByte(bytes[0]);
        } else if (bytes.length > 0) {
            out.writeBytes(bytes, 0, bytes.length);
        }
    }
}
