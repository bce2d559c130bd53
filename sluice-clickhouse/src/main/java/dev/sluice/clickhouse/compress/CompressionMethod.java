package dev.sluice.clickhouse.compress;

import dev.sluice.clickhouse.io.WireException;
import java.util.Locale;

/** The codecs this library reads and writes in compressed frames, with their method bytes. */
public enum CompressionMethod {
    /** Raw bytes; not understood by old servers (18.x accepts only LZ4 and ZSTD frames). */
    NONE(0x02),
    /** A raw LZ4 block. LZ4HC frames use the same byte and decode the same way. */
    LZ4(0x82),
    /** One standard zstd frame. */
    ZSTD(0x90);

    private final int methodByte;

    CompressionMethod(int methodByte) {
        this.methodByte = methodByte;
    }

    /** The byte after the checksum in every frame of this method. */
    public int methodByte() {
        return methodByte;
    }

    /**
     * The method for a frame's method byte.
     *
     * @throws WireException for a byte this library cannot decode
     */
    public static CompressionMethod fromByte(int b) {
        CompressionMethod m = lookup(b);
        if (m == null) {
            throw new WireException(unknownByteMessage(b));
        }
        return m;
    }

    /** Null for an unknown byte, so that the frame reader can add the frame's offset itself. */
    static CompressionMethod lookup(int b) {
        return switch (b & 0xFF) {
            case 0x02 -> NONE;
            case 0x82 -> LZ4;
            case 0x90 -> ZSTD;
            default -> null;
        };
    }

    static String unknownByteMessage(int b) {
        return String.format(
                "unknown compression method byte 0x%02x (supported: 0x02 NONE, 0x82 LZ4/LZ4HC,"
                        + " 0x90 ZSTD)",
                b & 0xFF);
    }

    /**
     * Parses a configured method name: {@code none}, {@code lz4} or {@code zstd}, in any case.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static CompressionMethod parse(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "none" -> NONE;
            case "lz4" -> LZ4;
            case "zstd" -> ZSTD;
            default ->
                    throw new IllegalArgumentException(
                            "unknown compression method '"
                                    + name
                                    + "': expected one of none, lz4, zstd");
        };
    }
}
