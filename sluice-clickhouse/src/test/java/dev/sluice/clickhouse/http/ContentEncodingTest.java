package dev.sluice.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each body encoding decodes, with that format's standard decoder, to exactly what went in. */
class ContentEncodingTest {

    /** Half compressible text, half random bytes, larger than one LZ4 frame block. */
    private static byte[] sample() {
        byte[] data = new byte[5 << 20];
        byte[] text = "1\tévénement\t2026-12-02 10:00:00\n".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < data.length / 2; i++) {
            data[i] = text[i % text.length];
        }
        byte[] noise = new byte[data.length - data.length / 2];
        new Random(7).nextBytes(noise);
        System.arraycopy(noise, 0, data, data.length / 2, noise.length);
        return data;
    }

    private static InputStream decoder(ContentEncoding e, byte[] encoded) throws IOException {
        InputStream in = new ByteArrayInputStream(encoded);
        return switch (e) {
            case GZIP -> new GZIPInputStream(in);
            case DEFLATE -> new InflaterInputStream(in);
            case ZSTD -> new ZstdInputStream(in);
            case LZ4 -> new LZ4FrameInputStream(in);
            case BR -> new BrotliInputStream(in);
        };
    }

    @ParameterizedTest
    @EnumSource(ContentEncoding.class)
    void roundTripsThroughTheStandardDecoder(ContentEncoding encoding) throws IOException {
        byte[] data = sample();
        byte[] encoded = encoding.encode(data);
        assertThat(encoded.length).isLessThan(data.length);
        try (InputStream in = decoder(encoding, encoded)) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
    }

    @ParameterizedTest
    @EnumSource(ContentEncoding.class)
    void emptyBodyIsAValidStream(ContentEncoding encoding) throws IOException {
        byte[] encoded = encoding.encode(new byte[0]);
        assertThat(encoded).isNotEmpty();
        try (InputStream in = decoder(encoding, encoded)) {
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "GZIP", "deflate", "zstd", "lz4", "br"})
    void parsesHeaderNames(String name) {
        assertThat(ContentEncoding.parse(name).headerValue()).isEqualTo(name.toLowerCase());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xz", "snappy", "identity", ""})
    void unknownEncodingNamesTheOnesThereAre(String name) {
        assertThatThrownBy(() -> ContentEncoding.parse(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("gzip, deflate, zstd, lz4, br");
    }
}
