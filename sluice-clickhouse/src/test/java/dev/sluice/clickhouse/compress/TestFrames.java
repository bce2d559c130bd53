package dev.sluice.clickhouse.compress;

import dev.sluice.clickhouse.compress.CityHash128.Hash128;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Building, parsing and doctoring frames in tests. */
final class TestFrames {

    record Frame(int start, int methodByte, int compressedSize, int uncompressedSize) {
        int end() {
            return start + 16 + compressedSize;
        }
    }

    private TestFrames() {}

    static byte[] encode(CompressionMethod method, byte[] data) {
        WireOutput out = new WireOutput(64);
        try (FrameEncoder enc = new FrameEncoder(method, 1)) {
            enc.encode(data, 0, data.length, out);
        }
        return out.toByteArray();
    }

    static byte[] decode(byte[] frames) {
        try (FrameInputStream in = new FrameInputStream(new ByteArrayInputStream(frames))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Frame> parse(byte[] frames) {
        ByteBuffer b = ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN);
        List<Frame> out = new ArrayList<>();
        int p = 0;
        while (p < frames.length) {
            Frame f = new Frame(p, frames[p + 16] & 0xFF, b.getInt(p + 17), b.getInt(p + 21));
            out.add(f);
            p = f.end();
        }
        return out;
    }

    static void putInt(byte[] frames, int at, int v) {
        ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    }

    /** Recomputes the checksum of the frame at {@code start} after a deliberate edit. */
    static void reseal(byte[] frames, int start) {
        int compressedSize =
                ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN).getInt(start + 17);
        Hash128 h = CityHash128.hash(frames, start + 16, compressedSize);
        ByteBuffer.wrap(frames)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(start, h.low())
                .putLong(start + 8, h.high());
    }

    /**
     * Reproducible data that compresses somewhat: runs of random bytes alternate with repeats of
     * earlier text, as column data tends to.
     */
    static byte[] sample(long seed, int size) {
        Random r = new Random(seed);
        byte[] data = new byte[size];
        int p = 0;
        while (p < size) {
            int run = Math.min(size - p, 1 + r.nextInt(300));
            if (p > 0 && r.nextBoolean()) {
                int from = r.nextInt(p);
                for (int i = 0; i < run; i++) {
                    data[p + i] = data[from + i % (p - from)];
                }
            } else {
                for (int i = 0; i < run; i++) {
                    data[p + i] = (byte) r.nextInt(r.nextBoolean() ? 16 : 256);
                }
            }
            p += run;
        }
        return data;
    }
}
