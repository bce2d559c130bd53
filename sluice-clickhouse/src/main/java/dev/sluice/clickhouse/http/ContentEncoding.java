package dev.sluice.clickhouse.http;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.BrotliOutputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * HTTP request-body compression by {@code Content-Encoding}, the alternative to ClickHouse frames
 * for proxies that inspect bodies. Servers differ in what they accept (18.16 takes only gzip and
 * deflate; newer servers add zstd, lz4, br and more, depending on how they were built), so {@link
 * HttpConnection} asks the server at connect time instead of assuming.
 */
enum ContentEncoding {
    GZIP("gzip"),
    DEFLATE("deflate"),
    ZSTD("zstd"),
    /** The LZ4 frame format (the {@code lz4} tool's), not ClickHouse's own compressed frames. */
    LZ4("lz4"),
    BR("br");

    /** Quality 4 of 11: brotli's higher levels cost far more CPU than they save on the wire. */
    private static final int BROTLI_QUALITY = 4;

    private final String header;

    ContentEncoding(String header) {
        this.header = header;
    }

    String headerValue() {
        return header;
    }

    /** null for none. */
    static ContentEncoding parse(String name) {
        if (name == null) {
            return null;
        }
        String wanted = name.toLowerCase(Locale.ROOT);
        for (ContentEncoding e : values()) {
            if (e.header.equals(wanted)) {
                return e;
            }
        }
        throw new IllegalArgumentException(
                "http_compression '"
                        + name
                        + "' is not supported ("
                        + Arrays.stream(values())
                                .map(ContentEncoding::headerValue)
                                .collect(Collectors.joining(", "))
                        + ")");
    }

    /** Wraps the body stream; closing the wrapper finishes the encoding and closes {@code raw}. */
    OutputStream wrap(OutputStream raw) throws IOException {
        return switch (this) {
            case GZIP -> new GZIPOutputStream(raw, 1 << 16);
            case DEFLATE -> new DeflaterOutputStream(raw, new Deflater(), 1 << 16);
            case ZSTD -> new ZstdOutputStream(raw, 3);
            case LZ4 -> new LZ4FrameOutputStream(raw, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB);
            case BR -> {
                requireBrotli();
                yield new BrotliOutputStream(
                        raw, new Encoder.Parameters().setQuality(BROTLI_QUALITY), 1 << 16);
            }
        };
    }

    private static void requireBrotli() {
        if (!Brotli4jLoader.isAvailable()) {
            Throwable cause = Brotli4jLoader.getUnavailabilityCause();
            throw new IllegalStateException(
                    "Content-Encoding br needs brotli4j's native library, which is not available"
                            + " on "
                            + System.getProperty("os.name")
                            + "/"
                            + System.getProperty("os.arch")
                            + (cause == null ? "" : " (" + cause.getMessage() + ")")
                            + "; use gzip, deflate, zstd or lz4",
                    cause);
        }
    }

    byte[] encode(byte[] data) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (OutputStream out = wrap(buf)) {
            out.write(data);
        }
        return buf.toByteArray();
    }
}
