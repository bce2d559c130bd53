package dev.sluice.clickhouse.column;

import static dev.sluice.clickhouse.column.ColumnTestSupport.encode;
import static dev.sluice.clickhouse.column.ColumnTestSupport.encodeData;
import static dev.sluice.clickhouse.column.ColumnTestSupport.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StringColumnTest {

    private static StringColumn strings() {
        return (StringColumn) ColumnFactory.create("s", "String");
    }

    @Test
    void encodesEveryUtf8LengthIncludingSurrogatePairs() {
        StringColumn c = strings();
        c.appendString("aé€😀"); // 1, 2, 3 and 4 bytes

        assertThat(hex(encodeData(c))).isEqualTo("0a 61 c3 a9 e2 82 ac f0 9f 98 80");
        assertThat(c.getString(0)).isEqualTo("aé€😀");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "plain",
                "a\0b\tc\nd\r",
                "Ünïcödé ✓ 日本語",
                "👍🏽 family 👨‍👩‍👧 flag 🇳🇱",
                "\uFFFF\uFFFE\u0080\u07FF\u0800",
                "\uD800\uDC00\uDBFF\uDFFF"
            })
    void agreesWithTheJdkEncoderAndRoundTrips(String s) {
        StringColumn c = strings();
        c.appendString(s);
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);

        assertThat(c.getBytes(0)).isEqualTo(utf8);
        Column decoded = ColumnTestSupport.decode("String", encode(c), 1);
        assertThat(decoded.getString(0)).isEqualTo(s);
    }

    @Test
    void asciiAndOtherTextInTurnsEncodeAsTheJdkDoes() {
        // ASCII takes a one-pass path that writes before it knows; text found not to be ASCII,
        // late or early, with a one- or two-byte length, is then encoded over what it wrote
        List<CharSequence> texts =
                List.of(
                        "x".repeat(200) + "é",
                        "plain",
                        "café",
                        "x".repeat(127) + "\u00ff",
                        "",
                        "\u0080",
                        "y".repeat(128),
                        new StringBuilder("a builder ✓"),
                        "last");
        StringColumn c = strings();
        for (CharSequence t : texts) {
            c.appendString(t);
        }
        Column decoded = ColumnTestSupport.decode("String", encode(c), texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i).toString();
            assertThat(c.getBytes(i)).as(t).isEqualTo(t.getBytes(StandardCharsets.UTF_8));
            assertThat(decoded.getString(i)).isEqualTo(t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uD800", "a\uD83Dz", "\uDE00", "x\uDE00\uD83D", "ok\uD83D"})
    void rejectsUnpairedSurrogatesAndKeepsTheColumnUnchanged(String s) {
        StringColumn c = strings();
        c.appendString("first");
        byte[] before = encode(c);

        assertThatThrownBy(() -> c.appendString(s))
                .isInstanceOf(ColumnValueException.class)
                .hasMessageContaining("column s (String), row 1")
                .hasMessageContaining("unpaired UTF-16 surrogate");

        assertThat(c.rows()).isEqualTo(1);
        assertThat(encode(c)).isEqualTo(before);
        c.appendString("second");
        assertThat(ColumnTestSupport.values(c)).containsExactly("first", "second");
    }

    @Test
    void appendCharsTakesARangeOfACharArray() {
        char[] buf = "xx→héllo 😀!yy".toCharArray();
        StringColumn c = strings();
        c.appendChars(buf, 2, buf.length - 4);
        c.appendChars(buf, 0, 0);

        assertThat(c.getString(0)).isEqualTo("→héllo 😀!");
        assertThat(c.getString(1)).isEmpty();
        assertThat(c.getBytes(0)).isEqualTo("→héllo 😀!".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void appendCharsRejectsAPairCutInHalfAndKeepsWorking() {
        char[] buf = "a😀b".toCharArray();
        StringColumn c = strings();
        assertThatThrownBy(() -> c.appendChars(buf, 0, 2)).isInstanceOf(ColumnValueException.class);
        assertThat(c.rows()).isZero();
        c.appendChars(buf, 0, 4);
        assertThat(c.getString(0)).isEqualTo("a😀b");
    }

    @Test
    void appendBytesStoresBinaryVerbatim() {
        byte[] notUtf8 = {(byte) 0xFF, 0, (byte) 0xC3, 0x28};
        StringColumn c = strings();
        c.appendBytes(notUtf8);
        c.appendBytes(new byte[] {9, 8, 7, 6, 5}, 1, 3);

        Column decoded = ColumnTestSupport.decode("String", encode(c), 2);
        assertThat(((StringColumn) decoded).getBytes(0)).isEqualTo(notUtf8);
        assertThat(((StringColumn) decoded).getBytes(1)).containsExactly(8, 7, 6);
    }

    @Test
    void lengthPrefixIsAVarUInt() {
        StringColumn c = strings();
        c.appendString("x".repeat(127));
        c.appendString("y".repeat(128));
        c.appendString("z".repeat(16384));
        byte[] bytes = encodeData(c);

        assertThat(bytes[0]).isEqualTo((byte) 127);
        assertThat(bytes[128]).isEqualTo((byte) 0x80);
        assertThat(bytes[129]).isEqualTo((byte) 0x01);
        int third = 1 + 127 + 2 + 128;
        assertThat(hex(java.util.Arrays.copyOfRange(bytes, third, third + 3)))
                .isEqualTo("80 80 01");
        assertThat(bytes).hasSize(third + 3 + 16384);
        assertThat(ColumnTestSupport.values(ColumnTestSupport.decode("String", bytes, 3)))
                .containsExactly("x".repeat(127), "y".repeat(128), "z".repeat(16384));
    }

    @Test
    void growsForLargeValuesAndManyRows() {
        StringColumn c = strings();
        String big = "€".repeat(100_000);
        c.appendString(big);
        for (int i = 0; i < 10_000; i++) {
            c.appendString(Integer.toString(i));
        }
        Column decoded = ColumnTestSupport.decode("String", encode(c), c.rows());
        assertThat(decoded.getString(0)).isEqualTo(big);
        assertThat(decoded.getString(10_000)).isEqualTo("9999");
    }

    @Test
    void aStringLengthBeyondTheInputIsAWireException() {
        // VarUInt length 1 GiB, then three bytes.
        byte[] bytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x04, 1, 2, 3};
        assertThatThrownBy(() -> strings().readData(WireInput.of(bytes), 1))
                .isInstanceOf(WireException.class);
        byte[] tooLong = {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x04};
        assertThatThrownBy(() -> strings().readData(WireInput.of(tooLong), 1))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("string length");
    }

    @Test
    void jsonIsAStringBehindSerializationVersionOne() {
        Column c = ColumnFactory.create("doc", "JSON");
        c.appendString("{\"a\":1}");

        assertThat(hex(encode(c))).isEqualTo("01 00 00 00 00 00 00 00 07 7b 22 61 22 3a 31 7d");
        assertThat(ColumnTestSupport.decode("JSON", encode(c), 1).getString(0))
                .isEqualTo("{\"a\":1}");
    }

    @Test
    void jsonInAnotherSerializationIsAWireExceptionNamingTheSetting() {
        byte[] v3 = hex("04 00 00 00 00 00 00 00");
        Column c = ColumnFactory.create("doc", "JSON");
        assertThatThrownBy(() -> c.readPrefix(WireInput.of(v3)))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("doc")
                .hasMessageContaining("output_format_native_write_json_as_string");
    }
}
