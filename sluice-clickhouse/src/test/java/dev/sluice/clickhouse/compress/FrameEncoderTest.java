package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.compress.CityHash128.Hash128;
import dev.sluice.clickhouse.compress.TestFrames.Frame;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FrameEncoderTest {

    private static final int MIB = 1 << 20;

    private static Path goldenDir() {
        return Golden.dir("ch-go/compress/golden");
    }

    @Test
    void noneIsByteIdenticalToGolden() {
        Path dir = goldenDir();
        byte[] raw = Golden.read(dir.resolve("data_raw.raw"));
        assertThat(TestFrames.encode(CompressionMethod.NONE, raw))
                .isEqualTo(Golden.read(dir.resolve("data_compressed_none.raw")));
    }

    /**
     * ch-go compresses with pierrec/lz4 and klauspost/compress zstd, Go ports whose blocks differ
     * from the C libraries' (the ZSTD golden even carries a content checksum and no content size),
     * so only the frame prefix of these goldens is reproducible: same method byte and uncompressed
     * size, a checksum that verifies, and the same decoded bytes.
     */
    @ParameterizedTest
    @EnumSource(
            value = CompressionMethod.class,
            names = {"LZ4", "ZSTD"})
    void compressedFramesMatchGoldenLayout(CompressionMethod method) {
        Path dir = goldenDir();
        byte[] raw = Golden.read(dir.resolve("data_raw.raw"));
        byte[] golden =
                Golden.read(dir.resolve("data_compressed_" + method.name().toLowerCase() + ".raw"));
        byte[] ours = TestFrames.encode(method, raw);

        Frame g = TestFrames.parse(golden).get(0);
        List<Frame> frames = TestFrames.parse(ours);
        assertThat(frames).hasSize(1);
        Frame f = frames.get(0);
        assertThat(f.methodByte()).isEqualTo(g.methodByte()).isEqualTo(method.methodByte());
        assertThat(f.uncompressedSize()).isEqualTo(g.uncompressedSize()).isEqualTo(raw.length);
        assertThat(f.end()).isEqualTo(ours.length);
        assertChecksum(ours, f);
        assertThat(TestFrames.decode(ours)).isEqualTo(raw);
    }

    /**
     * The block LZ4_compress_default (ClickHouse's LZ4 codec) makes of the golden input: one
     * literal run, one long match at offset 7, and the five literals LZ4 requires at the end.
     */
    @Test
    void lz4BlockIsTheCLibraryOutput() {
        byte[] raw = "Hello!\n".repeat(25).getBytes(StandardCharsets.US_ASCII);
        byte[] ours = TestFrames.encode(CompressionMethod.LZ4, raw);
        assertThat(Arrays.copyOfRange(ours, 25, ours.length))
                .isEqualTo(HexFormat.of().parseHex("7f48656c6c6f210a070090506c6c6f210a"));
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void zeroLengthInputWritesNothing(CompressionMethod method) {
        WireOutput out = new WireOutput(64);
        out.writeByte(7);
        try (FrameEncoder enc = new FrameEncoder(method, 1)) {
            enc.encode(new byte[10], 4, 0, out);
            enc.encode(new byte[0], 0, 0, out);
        }
        assertThat(out.toByteArray()).containsExactly(7);
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void splitsInputAtOneMiB(CompressionMethod method) {
        assertFrameSizes(method, MIB, MIB);
        assertFrameSizes(method, MIB + 1, MIB, 1);
        assertFrameSizes(method, 2 * MIB + MIB / 2, MIB, MIB, MIB / 2);
    }

    private static void assertFrameSizes(CompressionMethod method, int len, int... sizes) {
        byte[] data = TestFrames.sample(len, len);
        byte[] frames = TestFrames.encode(method, data);
        List<Frame> parsed = TestFrames.parse(frames);
        assertThat(parsed).extracting(Frame::uncompressedSize).containsExactly(box(sizes));
        for (Frame f : parsed) {
            assertThat(f.methodByte()).isEqualTo(method.methodByte());
            assertChecksum(frames, f);
        }
        assertThat(TestFrames.decode(frames)).isEqualTo(data);
    }

    @Test
    void encodesOnlyTheSliceAndAppends() {
        byte[] src = "xxHello, frames!yy".getBytes(StandardCharsets.US_ASCII);
        WireOutput out = new WireOutput(16);
        out.writeInt32(0x01020304);
        try (FrameEncoder enc = new FrameEncoder(CompressionMethod.LZ4, 1)) {
            enc.encode(src, 2, 14, out);
        }
        byte[] bytes = out.toByteArray();
        assertThat(Arrays.copyOf(bytes, 4)).containsExactly(4, 3, 2, 1);
        assertThat(TestFrames.decode(Arrays.copyOfRange(bytes, 4, bytes.length)))
                .isEqualTo(Arrays.copyOfRange(src, 2, 16));
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void drainTurnsEachFlushIntoOneFrame(CompressionMethod method) {
        WireOutput target = new WireOutput(64);
        byte[] data = TestFrames.sample(42, 2 * MIB + 1000);
        try (FrameEncoder enc = new FrameEncoder(method, 3)) {
            WireOutput buffer = new WireOutput(MIB, enc.drainInto(target));
            buffer.writeBytes(data, 0, 100);
            buffer.flush();
            buffer.writeBytes(data, 100, data.length - 100);
            buffer.flush();
            buffer.flush(); // nothing buffered: no empty frame
        }
        List<Frame> frames = TestFrames.parse(target.toByteArray());
        assertThat(frames).extracting(Frame::uncompressedSize).containsExactly(100, MIB, MIB, 900);
        assertThat(TestFrames.decode(target.toByteArray())).isEqualTo(data);
    }

    /** A target that drains (a socket) grows for one frame larger than its capacity. */
    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void writesIntoSmallDrainingTarget(CompressionMethod method) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WireOutput target = new WireOutput(64, sink::write);
        byte[] data = TestFrames.sample(7, 300_000);
        try (FrameEncoder enc = new FrameEncoder(method, 1)) {
            enc.encode(data, 0, 1000, target);
            enc.encode(data, 1000, data.length - 1000, target);
        }
        target.flush();
        assertThat(TestFrames.decode(sink.toByteArray())).isEqualTo(data);
    }

    @Test
    void validatesZstdLevelOnlyForZstd() {
        assertThatThrownBy(() -> new FrameEncoder(CompressionMethod.ZSTD, 99))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zstd level 99");
        try (FrameEncoder enc = new FrameEncoder(CompressionMethod.LZ4, 99)) {
            assertThat(enc.method()).isEqualTo(CompressionMethod.LZ4);
        }
    }

    /**
     * Guards the no-per-frame-allocation design: a compressor or buffer allocated per frame would
     * cost kilobytes each time; the checksum record is the only expected garbage.
     */
    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void allocatesAlmostNothingPerFrame(CompressionMethod method) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] data = TestFrames.sample(3, 64 * 1024);
        WireOutput out = new WireOutput(256 * 1024);
        try (FrameEncoder enc = new FrameEncoder(method, 1)) {
            for (int i = 0; i < 200; i++) {
                out.reset();
                enc.encode(data, 0, data.length, out);
            }
            int frames = 500;
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < frames; i++) {
                out.reset();
                enc.encode(data, 0, data.length, out);
            }
            long perFrame = (threads.getCurrentThreadAllocatedBytes() - before) / frames;
            assertThat(perFrame).isLessThan(512);
        }
    }

    private static void assertChecksum(byte[] frames, Frame f) {
        Hash128 h = CityHash128.hash(frames, f.start() + 16, f.compressedSize());
        ByteBuffer b = ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new Hash128(b.getLong(f.start()), b.getLong(f.start() + 8))).isEqualTo(h);
    }

    private static Integer[] box(int[] v) {
        return Arrays.stream(v).boxed().toArray(Integer[]::new);
    }
}
