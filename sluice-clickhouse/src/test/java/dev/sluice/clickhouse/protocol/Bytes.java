package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Consumer;

/** Byte helpers for building expected packets by hand. */
final class Bytes {

    private Bytes() {}

    /** What {@code writer} writes into a fresh buffer. */
    static byte[] written(Consumer<WireOutput> writer) {
        WireOutput out = new WireOutput(64);
        writer.accept(out);
        return out.toByteArray();
    }

    /** {@code "01 0a ff"} to bytes; spaces are ignored. */
    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static WireInput in(byte[] bytes) {
        return WireInput.of(bytes);
    }

    /** {@code bytes} without its last {@code n} bytes. */
    static byte[] dropLast(byte[] bytes, int n) {
        return Arrays.copyOf(bytes, bytes.length - n);
    }
}
