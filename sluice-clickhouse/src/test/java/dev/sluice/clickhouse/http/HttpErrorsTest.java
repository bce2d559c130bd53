package dev.sluice.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ServerException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpErrorsTest {

    private static byte[] concat(byte[] binary, String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(binary);
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static byte[] blockBytes() {
        byte[] b = new byte[300];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31);
        }
        return b;
    }

    @Test
    void findsTheTextAnOldServerAppendsInTheMiddleOfABlock() {
        // 18.16's form, as captured from the test server after ~27 MB of Native output
        byte[] tail =
                concat(
                        blockBytes(),
                        "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf'"
                                + " function is non zero, e.what() = DB::Exception\n");
        ServerException e = HttpErrors.fromBodyTail(tail, "query X over HTTP");
        assertThat(e.code()).isEqualTo(395);
        assertThat(e.getMessage())
                .contains("Value passed to 'throwIf' function is non zero")
                .contains("query X over HTTP, after the response had started")
                .doesNotContain("e.what()");
    }

    @Test
    void findsTheTaggedFormOfNewerServers() {
        byte[] tail =
                concat(
                        blockBytes(),
                        "\r\n__exception__\r\nAbCdEfGh12345678\r\n"
                                + "Code: 241. DB::Exception: Memory limit (total) exceeded: would"
                                + " use 9.31 GiB. (MEMORY_LIMIT_EXCEEDED) (version 25.3.1.1)\n"
                                + "124 AbCdEfGh12345678\r\n__exception__\r\n");
        ServerException e = HttpErrors.fromBodyTail(tail, "q");
        assertThat(e.code()).isEqualTo(241);
        assertThat(e.getMessage())
                .contains("Memory limit (total) exceeded")
                .contains("MEMORY_LIMIT_EXCEEDED")
                .doesNotContain("__exception__")
                .doesNotContain("AbCdEfGh12345678");
    }

    @Test
    void aCodeLikeStringInsideEarlierDataDoesNotHideTheLastOne() {
        byte[] tail =
                concat(
                        concat(blockBytes(), "Code: 1, this is a row value"),
                        "\u0000\u0001Code: 60. DB::Exception: Table default.x doesn't exist\n");
        assertThat(HttpErrors.fromBodyTail(tail, "q").code()).isEqualTo(60);
    }

    @Test
    void keepsUtf8InTheMessage() {
        byte[] tail =
                concat(blockBytes(), "Code: 6. DB::Exception: Cannot parse string 'ñé✓' as Int\n");
        assertThat(HttpErrors.fromBodyTail(tail, "q").getMessage()).contains("'ñé✓'");
    }

    @Test
    void plainTruncationIsNotAServerException() {
        assertThat(HttpErrors.fromBodyTail(blockBytes(), "q")).isNull();
        assertThat(HttpErrors.fromBodyTail(new byte[0], "q")).isNull();
    }
}
