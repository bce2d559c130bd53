package dev.sluice.clickhouse.http;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * HTTP request-body compression by {@code Content-Encoding}, the alternative to ClickHouse frames
 * for proxies that inspect bodies. Servers differ in what they accept (18.16: gzip and deflate;
 * zstd from 20.12); {@link HttpConnection} checks at connect time instead of assuming.
 */
enum ContentEncoding {
    GZIP("gzip"),
    DEFLATE("deflate"),
    ZSTD("zstd");

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
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "gzip" -> GZIP;
            case "deflate" -> DEFLATE;
            case "zstd" -> ZSTD;
            default ->
                    throw new IllegalArgumentException(
                            "http_compression '"
                                    + name
                                    + "' is not supported (gzip, deflate, zstd)");
        };
    }

    /** Wraps the body stream; closing the wrapper finishes the encoding and closes {@code raw}. */
    OutputStream wrap(OutputStream raw) throws IOException {
        return switch (this) {
            case GZIP -> new GZIPOutputStream(raw, 1 << 16);
            case DEFLATE -> new DeflaterOutputStream(raw, new java.util.zip.Deflater(), 1 << 16);
            case ZSTD -> new ZstdOutputStream(raw, 3);
        };
    }

    byte[] encode(byte[] data) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (OutputStream out = wrap(buf)) {
            out.write(data);
        }
        return buf.toByteArray();
    }
}
