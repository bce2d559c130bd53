package dev.sluice.clickhouse.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Numbers, dates and escaping against the JDK and against tiny readers of the formats. */
class TextOutPropertyTest {

    private static String out(java.util.function.Consumer<WireOutput> write) {
        WireOutput o = new WireOutput(16);
        write.accept(o);
        return new String(o.toByteArray(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(java.util.function.Consumer<WireOutput> write) {
        WireOutput o = new WireOutput(16);
        write.accept(o);
        return o.toByteArray();
    }

    /** The same bytes through a 64-byte output that drains whenever it fills. */
    private static byte[] drained(java.util.function.Consumer<WireOutput> write) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WireOutput o = new WireOutput(64, (b, off, len) -> sink.write(b, off, len));
        write.accept(o);
        o.flush();
        return sink.toByteArray();
    }

    @Provide
    Arbitrary<byte[]> anyBytes() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.of(
                                (byte) '\t',
                                (byte) '\n',
                                (byte) '\\',
                                (byte) '\'',
                                (byte) '"',
                                (byte) 0,
                                (byte) 0xE2,
                                (byte) 0x80,
                                (byte) 0xA8,
                                (byte) 'a',
                                (byte) '\r')
                        .array(byte[].class)
                        .ofMaxSize(50),
                Arbitraries.strings()
                        .ofMaxLength(100)
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    @Property
    void tsvEscapingIsUndoneByTheReader(@ForAll("anyBytes") byte[] s) {
        byte[] text = bytes(o -> TextOut.escaped(o, s, 0, s.length, 0));
        for (byte b : text) {
            assertThat(b).isNotIn((byte) '\t', (byte) '\n', (byte) 0, (byte) '\r');
        }
        assertThat(TextParsers.unescapeTsv(text, 0, text.length)).isEqualTo(s);
        assertThat(drained(o -> TextOut.escaped(o, s, 0, s.length, 0))).isEqualTo(text);
    }

    @Property
    void quotedStringsAreUndoneByTheReader(@ForAll("anyBytes") byte[] s) {
        byte[] text = bytes(o -> TextOut.escaped(o, s, 0, s.length, '\''));
        assertThat(TextParsers.unquote(text)).isEqualTo(s);
    }

    @Property
    void csvFieldsAreUndoneByTheReader(@ForAll("anyBytes") byte[] s) {
        byte[] text = bytes(o -> TextOut.csv(o, s, 0, s.length));
        assertThat(TextParsers.unquoteCsv(text)).isEqualTo(s);
        assertThat(drained(o -> TextOut.csv(o, s, 0, s.length))).isEqualTo(text);
    }

    @Property
    void jsonStringsAreUndoneByAJsonReader(@ForAll("anyBytes") byte[] s) {
        byte[] text = bytes(o -> TextOut.json(o, s, 0, s.length));
        assertThat(TextParsers.unquoteJson(text)).isEqualTo(s);
        assertThat(drained(o -> TextOut.json(o, s, 0, s.length))).isEqualTo(text);
    }

    @Property
    void jsonStringsOfTextAreValidJson(@ForAll String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        String text = out(o -> TextOut.json(o, utf8, 0, utf8.length));
        // Only the escapes JSON defines, no raw control characters, U+2028/9 escaped.
        assertThat(text).doesNotContainPattern("[\\x00-\\x1f\\u2028\\u2029]");
        assertThat(TextParsers.unquoteJson(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(utf8);
    }

    /** The rules one byte at a time, as WriteHelpers.h states them: the reference for the scan. */
    private static byte[] reference(byte[] s, String kind) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (int i = 0; i < s.length; i++) {
            int c = s[i] & 0xFF;
            switch (kind) {
                case "tsv" -> {
                    String esc =
                            switch (c) {
                                case '\b' -> "\\b";
                                case '\f' -> "\\f";
                                case '\n' -> "\\n";
                                case '\r' -> "\\r";
                                case '\t' -> "\\t";
                                case 0 -> "\\0";
                                case '\\' -> "\\\\";
                                case '\'' -> "\\'";
                                default -> null;
                            };
                    if (esc != null) {
                        o.writeBytes(esc.getBytes(StandardCharsets.US_ASCII));
                    } else {
                        o.write(c);
                    }
                }
                case "csv" -> {
                    o.write(c);
                    if (c == '"') {
                        o.write(c);
                    }
                }
                default -> {
                    if (c == 0xE2
                            && i + 2 < s.length
                            && (s[i + 1] & 0xFF) == 0x80
                            && ((s[i + 2] & 0xFF) == 0xA8 || (s[i + 2] & 0xFF) == 0xA9)) {
                        o.writeBytes(
                                ((s[i + 2] & 0xFF) == 0xA8 ? "\\u2028" : "\\u2029")
                                        .getBytes(StandardCharsets.US_ASCII));
                        i += 2;
                    } else if (c == '"' || c == '\\') {
                        o.write('\\');
                        o.write(c);
                    } else if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
                        o.write('\\');
                        o.write("bfnrt".charAt("\b\f\n\r\t".indexOf(c)));
                    } else if (c < 0x20) {
                        o.writeBytes(
                                String.format("\\u%04X", c).getBytes(StandardCharsets.US_ASCII));
                    } else {
                        o.write(c);
                    }
                }
            }
        }
        return o.toByteArray();
    }

    /** Every byte value at every position of two words, alone and as a U+2028 sequence. */
    @Test
    void theWordScanAgreesWithTheByteRulesEverywhere() {
        for (int v = 0; v < 256; v++) {
            for (int pos = 0; pos < 19; pos++) {
                byte[] s = new byte[19];
                java.util.Arrays.fill(s, (byte) 'a');
                s[pos] = (byte) v;
                if (pos + 2 < s.length && v == 0xE2) {
                    s[pos + 1] = (byte) 0x80;
                    s[pos + 2] = (byte) (pos % 2 == 0 ? 0xA8 : 0xA9);
                }
                byte[] t = s;
                assertThat(bytes(o -> TextOut.escaped(o, t, 0, t.length, 0)))
                        .as("tsv %02x at %d", v, pos)
                        .isEqualTo(reference(t, "tsv"));
                assertThat(bytes(o -> TextOut.csv(o, t, 0, t.length)))
                        .as("csv %02x at %d", v, pos)
                        .isEqualTo(concat('"', reference(t, "csv"), '"'));
                assertThat(bytes(o -> TextOut.json(o, t, 0, t.length)))
                        .as("json %02x at %d", v, pos)
                        .isEqualTo(concat('"', reference(t, "json"), '"'));
            }
        }
    }

    private static byte[] concat(char open, byte[] middle, char close) {
        byte[] out = new byte[middle.length + 2];
        out[0] = (byte) open;
        System.arraycopy(middle, 0, out, 1, middle.length);
        out[out.length - 1] = (byte) close;
        return out;
    }

    @Test
    void digitCountsAtEveryPowerOfTwoAndTen() {
        for (int k = 0; k < 63; k++) {
            for (long v : new long[] {(1L << k) - 1, 1L << k, (1L << k) + 1}) {
                assertThat(TextOut.digitCount(v)).as("%d", v).isEqualTo(Long.toString(v).length());
            }
        }
        long p = 1;
        for (int k = 0; k < 19; k++, p *= 10) {
            for (long v : new long[] {p - 1, p, p + 1}) {
                assertThat(TextOut.digitCount(v)).as("%d", v).isEqualTo(Long.toString(v).length());
            }
        }
        assertThat(TextOut.digitCount(Long.MAX_VALUE)).isEqualTo(19);
    }

    @Property
    void longsAsTheJdkWritesThem(@ForAll long v) {
        assertThat(out(o -> TextOut.writeLong(o, v))).isEqualTo(Long.toString(v));
        assertThat(out(o -> TextOut.writeUnsignedLong(o, v))).isEqualTo(Long.toUnsignedString(v));
    }

    @Property
    void dateTimesHaveTenDigits(@ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long v) {
        String s = out(o -> TextOut.writePadded10(o, v));
        assertThat(s).hasSize(10);
        assertThat(Long.parseLong(s)).isEqualTo(v);
    }

    @Property
    void datesAsIsoText(@ForAll @IntRange(min = -719162, max = 2932896) int days) {
        assertThat(out(o -> TextOut.writeDate(o, days)))
                .isEqualTo(LocalDate.ofEpochDay(days).toString());
    }

    @Property
    void uuidsAsTheJdkWritesThem(@ForAll long hi, @ForAll long lo) {
        assertThat(out(o -> TextOut.writeUuid(o, hi, lo))).isEqualTo(new UUID(hi, lo).toString());
    }

    @Property
    void decimalsInPlainNotation(
            @ForAll @LongRange(min = -999_999_999_999_999_999L, max = 999_999_999_999_999_999L)
                    long unscaled,
            @ForAll @IntRange(min = 0, max = 18) int scale) {
        assertThat(out(o -> TextOut.writeDecimal(o, unscaled, scale)))
                .isEqualTo(BigDecimal.valueOf(unscaled, scale).toPlainString());
    }

    @Provide
    Arbitrary<BigInteger> wide() {
        return Arbitraries.oneOf(
                Arbitraries.bigIntegers()
                        .between(
                                BigInteger.ONE.shiftLeft(255).negate(),
                                BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE)),
                Arbitraries.bigIntegers()
                        .between(
                                BigInteger.ONE.shiftLeft(127).negate(),
                                BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE)),
                Arbitraries.of(
                        BigInteger.ZERO,
                        BigInteger.ONE,
                        BigInteger.ONE.negate(),
                        BigInteger.ONE.shiftLeft(255).negate(),
                        BigInteger.TEN.pow(38),
                        BigInteger.TEN.pow(9)));
    }

    @Property
    void wideIntegersAndDecimals(
            @ForAll("wide") BigInteger v, @ForAll @IntRange(min = 0, max = 76) int scale) {
        int width = v.bitLength() < 128 ? 16 : 32;
        byte[] le = new byte[width];
        byte[] be = v.toByteArray();
        for (int i = 0; i < width; i++) {
            int src = be.length - 1 - i;
            le[i] = src >= 0 ? be[src] : (byte) (v.signum() < 0 ? 0xFF : 0);
        }
        String s =
                out(
                        o ->
                                TextOut.writeWide(
                                        o,
                                        le,
                                        0,
                                        width,
                                        true,
                                        scale,
                                        new int[width / 4],
                                        new byte[96]));
        assertThat(s).isEqualTo(new BigDecimal(v, scale).toPlainString());
    }

    @Property
    void unsignedWideIntegers(@ForAll("wide") BigInteger signed) {
        BigInteger v = signed.abs().shiftLeft(1).add(BigInteger.ONE); // may use the top bit
        int width = v.bitLength() <= 128 ? 16 : 32;
        if (v.bitLength() > 256) {
            return;
        }
        byte[] le = new byte[width];
        byte[] be = v.toByteArray();
        for (int i = 0; i < width && i < be.length; i++) {
            le[i] = be[be.length - 1 - i];
        }
        String s =
                out(
                        o ->
                                TextOut.writeWide(
                                        o,
                                        le,
                                        0,
                                        width,
                                        false,
                                        0,
                                        new int[width / 4],
                                        new byte[96]));
        assertThat(s).isEqualTo(v.toString());
    }
}
