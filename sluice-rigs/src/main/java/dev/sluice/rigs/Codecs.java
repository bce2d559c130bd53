package dev.sluice.rigs;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.compress.CompressionMethod;
import java.util.Locale;

/**
 * Compression axis values: {@code none}, {@code lz4}, {@code zstd}, {@code zstd:LEVEL} (ClickHouse
 * frames, either transport) and, over HTTP only, {@code gzip} / {@code deflate} (a request {@code
 * Content-Encoding}).
 */
public final class Codecs {
    private Codecs() {}

    public static String parse(String value, String axis) {
        String c = value.strip().toLowerCase(Locale.ROOT);
        if (!c.matches("none|lz4|zstd(:\\d{1,2})?|gzip|deflate")) {
            throw new IllegalArgumentException(
                    "--"
                            + axis
                            + ": '"
                            + value
                            + "' is not one of none, lz4, zstd, zstd:LEVEL, gzip, deflate");
        }
        return c;
    }

    /** True for a Content-Encoding (HTTP only). */
    public static boolean contentEncoding(String codec) {
        return codec.equals("gzip") || codec.equals("deflate");
    }

    /** {@code config} compressing with {@code codec}. */
    public static ConnectionConfig apply(ConnectionConfig config, String codec) {
        ConnectionConfig.Builder b = config.toBuilder();
        if (contentEncoding(codec)) {
            return b.compression(CompressionMethod.NONE).httpContentEncoding(codec).build();
        }
        int colon = codec.indexOf(':');
        b.compression(CompressionMethod.parse(colon < 0 ? codec : codec.substring(0, colon)));
        if (colon > 0) {
            b.zstdLevel(Integer.parseInt(codec.substring(colon + 1)));
        }
        return b.build();
    }
}
